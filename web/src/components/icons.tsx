import { createIcon } from '@chakra-ui/react'

const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round' } as const

function icon(displayName: string, ...paths: string[]) {
  return createIcon({
    displayName,
    viewBox: '0 0 24 24',
    path: paths.map((d) => <path key={d} d={d} {...stroke} />),
  })
}

export const ChevronDownIcon = icon('ChevronDownIcon', 'm6 9 6 6 6-6')
export const ChevronUpIcon = icon('ChevronUpIcon', 'm18 15-6-6-6 6')
/** Points toward the reading start: right in RTL (used for "previous"). */
export const ChevronStartIcon = createIcon({
  displayName: 'ChevronStartIcon',
  path: <path d="m15 18-6-6 6-6" {...stroke} />,
  defaultProps: { _rtl: { transform: 'scaleX(-1)' } },
})
/** Points toward the reading end: left in RTL (used for "next"). */
export const ChevronEndIcon = createIcon({
  displayName: 'ChevronEndIcon',
  path: <path d="m9 18 6-6-6-6" {...stroke} />,
  defaultProps: { _rtl: { transform: 'scaleX(-1)' } },
})
export const CloseIcon = icon('CloseIcon', 'M18 6 6 18', 'm6 6 12 12')
export const CheckIcon = icon('CheckIcon', 'M20 6 9 17l-5-5')
export const SearchIcon = icon('SearchIcon', 'm21 21-4.3-4.3', 'M11 19a8 8 0 1 0 0-16 8 8 0 0 0 0 16Z')
export const FilterIcon = icon('FilterIcon', 'M22 3H2l8 9.46V19l4 2v-8.54L22 3Z')
export const CalendarIcon = icon('CalendarIcon', 'M8 2v4', 'M16 2v4', 'M3 10h18', 'M5 4h14a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Z')
export const ClockIcon = icon('ClockIcon', 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20Z', 'M12 6v6l4 2')
export const PlusIcon = icon('PlusIcon', 'M12 5v14', 'M5 12h14')
export const PasteIcon = icon('PasteIcon', 'M9 2h6a1 1 0 0 1 1 1v2H8V3a1 1 0 0 1 1-1Z', 'M16 4h2a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h2')
export const AlertIcon = icon('AlertIcon', 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20Z', 'M12 8v4', 'M12 16h.01')
export const InboxIcon = icon('InboxIcon', 'M22 12h-6l-2 3h-4l-2-3H2', 'M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11Z')
export const RefreshIcon = icon('RefreshIcon', 'M3 12a9 9 0 0 1 15-6.7L21 8', 'M21 3v5h-5', 'M21 12a9 9 0 0 1-15 6.7L3 16', 'M8 16H3v5')
export const CopyIcon = icon('CopyIcon', 'M9 9h11v11H9z', 'M5 15H4V4h11v1')
export const SparkleIcon = icon('SparkleIcon', 'M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9L12 3Z', 'M19 15v4', 'M21 17h-4')
export const EraserIcon = icon('EraserIcon', 'm7 21-4.3-4.3a1 1 0 0 1 0-1.4l10-10a1 1 0 0 1 1.4 0l5.6 5.6a1 1 0 0 1 0 1.4L13 19', 'M22 21H7', 'm5 11 9 9')
