import { Box, Button, Flex, Input, Spinner, Text } from '@chakra-ui/react'
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactElement } from 'react'
import { CheckIcon, ChevronDownIcon } from './icons'
import { Popup } from './Popup'
import {
  filterOptions, multiSummary, nearBottom, nextEnabled, SEARCH_DEBOUNCE_MS,
  type SelectOption, type SelectValue,
} from './selectUtils'

interface SelectBaseProps<V extends SelectValue> {
  options: SelectOption<V>[]
  placeholder?: string
  /** Shows a search box; without `onSearchChange` the options are filtered locally. */
  searchable?: boolean
  /** Receives the search text 1000 ms after typing stops, to query the server. */
  onSearchChange?: (search: string) => void
  /** Asked for the next page when the list is scrolled to within 10 px of its bottom. */
  onLoadMore?: () => void
  hasMore?: boolean
  isLoading?: boolean
  disabled?: boolean
  invalid?: boolean
  /** Labels of selected values that may not be among the loaded options. */
  selectedOptions?: SelectOption<V>[]
  emptyText?: string
  id?: string
  'aria-label'?: string
  'aria-labelledby'?: string
  size?: 'sm' | 'md'
}

export interface SingleSelectProps<V extends SelectValue> extends SelectBaseProps<V> {
  multiple?: false
  value: V | null
  onChange: (value: V | null, option: SelectOption<V> | null) => void
}

export interface MultiSelectProps<V extends SelectValue> extends SelectBaseProps<V> {
  multiple: true
  value: V[]
  onChange: (value: V[], options: SelectOption<V>[]) => void
}

export type SelectProps<V extends SelectValue = string> = SingleSelectProps<V> | MultiSelectProps<V>

/** Single or multi select with search, infinite paging and Persian texts (spec §4, §9). */
export function Select<V extends SelectValue = string>(props: MultiSelectProps<V>): ReactElement
export function Select<V extends SelectValue = string>(props: SingleSelectProps<V>): ReactElement
export function Select<V extends SelectValue = string>(props: SelectProps<V>): ReactElement {
  const {
    options, placeholder = 'انتخاب کنید', searchable = false, onSearchChange, onLoadMore, hasMore = false,
    isLoading = false, disabled = false, invalid = false, selectedOptions, emptyText = 'موردی یافت نشد',
    id, size = 'md',
  } = props
  const uid = useId()
  const listId = `${id ?? uid}-list`
  const triggerRef = useRef<HTMLButtonElement>(null)
  const searchRef = useRef<HTMLInputElement>(null)
  const listRef = useRef<HTMLDivElement>(null)
  const [open, setOpen] = useState(false)
  const [search, setSearch] = useState('')
  const [active, setActive] = useState(-1)
  const emitted = useRef('')
  const labels = useRef(new Map<V, string>())
  for (const o of [...(selectedOptions ?? []), ...options]) labels.current.set(o.value, o.label)

  const selected: V[] = props.multiple ? props.value : props.value === null || props.value === undefined ? [] : [props.value]
  const shown = useMemo(() => (onSearchChange ? options : filterOptions(options, search)), [options, search, onSearchChange])

  useEffect(() => {
    if (!onSearchChange) return
    const t = setTimeout(() => {
      if (search !== emitted.current) {
        emitted.current = search
        onSearchChange(search)
      }
    }, SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(t)
  }, [search, onSearchChange])

  useEffect(() => {
    if (!open) return
    const first = shown.findIndex((o) => selected.includes(o.value) && !o.disabled)
    setActive(first >= 0 ? first : nextEnabled(shown, -1, 1))
    requestAnimationFrame(() => (searchable ? searchRef.current : listRef.current)?.focus())
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when opening; the active option then follows the keyboard
  }, [open])

  useEffect(() => {
    if (active >= 0) document.getElementById(`${listId}-${active}`)?.scrollIntoView({ block: 'nearest' })
  }, [active, listId])

  const close = (focusTrigger = false) => {
    setOpen(false)
    setSearch('')
    if (onSearchChange && emitted.current !== '') {
      emitted.current = ''
      onSearchChange('')
    }
    if (focusTrigger) triggerRef.current?.focus()
  }

  const choose = (option: SelectOption<V>) => {
    if (option.disabled) return
    if (props.multiple) {
      const next = selected.includes(option.value) ? selected.filter((v) => v !== option.value) : [...selected, option.value]
      const byValue = new Map([...(selectedOptions ?? []), ...options].map((o) => [o.value, o]))
      props.onChange(next, next.map((v) => byValue.get(v) ?? { value: v, label: labels.current.get(v) ?? String(v) }))
    } else {
      props.onChange(option.value, option)
      close(true)
    }
  }

  const onListKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      setActive((a) => nextEnabled(shown, a, e.key === 'ArrowDown' ? 1 : -1))
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault()
      setActive(e.key === 'Home' ? nextEnabled(shown, -1, 1) : nextEnabled(shown, shown.length, -1))
    } else if (e.key === 'Enter') {
      e.preventDefault()
      if (shown[active]) choose(shown[active])
    } else if (e.key === 'Tab') close()
  }

  const summaryLabels = selected.map((v) => labels.current.get(v) ?? String(v))
  const summary = props.multiple ? multiSummary(summaryLabels) : summaryLabels[0]
  const activeId = active >= 0 && shown[active] ? `${listId}-${active}` : undefined
  const h = size === 'sm' ? '9' : '10'

  return (
    <>
      <Button
        ref={triggerRef}
        id={id}
        type="button"
        variant="outline"
        role="combobox"
        aria-haspopup="listbox"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={props['aria-label']}
        aria-labelledby={props['aria-labelledby']}
        aria-invalid={invalid || undefined}
        disabled={disabled}
        onClick={() => (open ? close() : setOpen(true))}
        onKeyDown={(e) => {
          if (!open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
            e.preventDefault()
            setOpen(true)
          }
        }}
        w="full"
        h={h}
        justifyContent="space-between"
        fontWeight="normal"
        borderColor={invalid ? 'border.error' : 'border'}
        bg="bg"
        px="3"
      >
        <Text as="span" truncate color={summary ? 'fg' : 'fg.subtle'}>
          {summary || placeholder}
        </Text>
        <ChevronDownIcon color="fg.muted" transform={open ? 'rotate(180deg)' : undefined} transition="transform 0.15s" />
      </Button>
      <Popup open={open} anchorRef={triggerRef} onClose={() => close()} p="1">
        {searchable && (
          <Input
            ref={searchRef}
            size="sm"
            mb="1"
            value={search}
            placeholder="جستجو…"
            aria-label="جستجو"
            role="searchbox"
            aria-controls={listId}
            aria-activedescendant={activeId}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={onListKey}
          />
        )}
        <Box
          ref={listRef}
          id={listId}
          role="listbox"
          aria-multiselectable={props.multiple || undefined}
          aria-label={props['aria-label']}
          aria-activedescendant={searchable ? undefined : activeId}
          tabIndex={searchable ? -1 : 0}
          maxH="200px"
          overflowY="auto"
          outline="none"
          onKeyDown={onListKey}
          onScroll={(e) => {
            if (onLoadMore && hasMore && !isLoading && nearBottom(e.currentTarget)) onLoadMore()
          }}
        >
          {shown.map((o, i) => {
            const isSelected = selected.includes(o.value)
            return (
              <Flex
                key={String(o.value)}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={isSelected}
                aria-disabled={o.disabled || undefined}
                data-active={i === active || undefined}
                align="center"
                gap="2"
                minH="10"
                px="3"
                rounded="l1"
                cursor={o.disabled ? 'not-allowed' : 'pointer'}
                opacity={o.disabled ? 0.5 : 1}
                bg={i === active ? 'bg.muted' : undefined}
                _hover={o.disabled ? undefined : { bg: 'bg.muted' }}
                onMouseEnter={() => !o.disabled && setActive(i)}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => choose(o)}
              >
                {props.multiple && (
                  <Flex aria-hidden boxSize="4" flexShrink={0} rounded="sm" borderWidth="1px" align="center" justify="center"
                    bg={isSelected ? 'brand.solid' : undefined} borderColor={isSelected ? 'brand.solid' : 'border.emphasized'} color="brand.contrast">
                    {isSelected && <CheckIcon boxSize="3" />}
                  </Flex>
                )}
                <Text as="span" flex="1" truncate fontWeight={isSelected && !props.multiple ? 'medium' : 'normal'}>{o.label}</Text>
                {isSelected && !props.multiple && <CheckIcon aria-hidden boxSize="4" color="brand.fg" />}
              </Flex>
            )
          })}
          {!isLoading && shown.length === 0 && (
            <Text px="3" py="2" color="fg.muted" fontSize="sm">{emptyText}</Text>
          )}
          {isLoading && (
            <Flex role="status" align="center" justify="center" gap="2" py="2" color="fg.muted" fontSize="sm">
              <Spinner size="xs" aria-hidden />
              در حال بارگذاری
            </Flex>
          )}
        </Box>
      </Popup>
    </>
  )
}
