export { DataTable, pagedQueryProps, type DataTableColumn, type DataTableProps } from './DataTable'
export { ExportButton, sizeText } from './ExportButton'
export { maskJalaliInput, parseMaskedJalali, isWithinBounds, effectiveMin, toDateParam, fromDateParam, type DateBounds } from './dateMask'
export { useCloseOnScroll, useDebouncedValue, useIsMobile, useOutsideClick, MOBILE_QUERY } from './hooks'
export * from './icons'
export { JalaliCalendar, calendarYears, monthGrid, type JalaliCalendarProps, type JalaliDay } from './JalaliCalendar'
export { JalaliDateInput, JalaliDateTimeInput, type JalaliDateInputProps } from './JalaliDateInput'
export { MessageEditor, counterText, insertLimited, keywordColumn, type EditorKeyword, type MessageEditorProps } from './MessageEditor'
export { NumberChips, type NumberChipsProps } from './NumberChips'
export {
  NumberEntry, isAllowedPhoneKey, NUMBER_MAX_LENGTH, NUMBER_MESSAGES, PREFIX_MAX_LENGTH, type NumberEntryProps,
} from './NumberEntry'
export { Drawer, Modal, SideModal, SIDE_MODAL_WIDTHS, type ModalProps, type SideModalProps } from './Overlays'
export { DEFAULT_PAGE_SIZES, Pagination, pageWindow, type PaginationProps } from './Pagination'
export { PasteNumbersDialog, type PasteNumbersDialogProps } from './PasteNumbersDialog'
export { Popup, PopupContainerContext, POPUP_FLIP_THRESHOLD, type PopupProps } from './Popup'
export { ProgressBar, progressPercent, type ProgressBarProps } from './ProgressBar'
export { Select, type MultiSelectProps, type SelectProps, type SingleSelectProps } from './Select'
export {
  filterOptions, LOAD_MORE_THRESHOLD, multiSummary, SEARCH_DEBOUNCE_MS, type SelectOption, type SelectValue,
} from './selectUtils'
export { EmptyState, ErrorState, LoadingState, StaleNote } from './States'
export {
  allFilterKeys, FilterControl, filterKeys, FiltersBar, FiltersModalButton, SEARCH_FILTER_DEBOUNCE_MS,
  type FilterValues, type TableFilter,
} from './TableFilters'
export { composeTime, HOUR_CAP, MINUTE_CAP, TimePicker, timeInRange, timeToMinutes, type TimePickerProps } from './TimePicker'
export { DEFAULT_WIZARD_STEPS, getStepStatus, WizardStepper, type StepStatus, type WizardStepperProps } from './WizardStepper'
