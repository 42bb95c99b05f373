import { Badge, Button, HStack, Input, InputGroup, Stack, Text, Wrap } from '@chakra-ui/react'
import { useEffect, useState } from 'react'
import { toLatinDigits } from '../lib/digits'
import { formatNumber } from '../lib/format'
import { fromDateParam, toDateParam } from './dateMask'
import { useDebouncedValue } from './hooks'
import { EraserIcon, FilterIcon, SearchIcon } from './icons'
import { JalaliDateInput } from './JalaliDateInput'
import { Modal } from './Overlays'
import { Select } from './Select'
import type { SelectOption } from './selectUtils'

interface FilterBase {
  key: string
  title: string
}

/** Table filter types (spec §2). Dates are kept in the URL as Tehran days «YYYY-MM-DD». */
export type TableFilter =
  | (FilterBase & { type: 'search'; placeholder?: string })
  | (FilterBase & { type: 'options'; options: SelectOption[]; multiple?: boolean })
  | (FilterBase & { type: 'date' })
  | (FilterBase & { type: 'date_range'; dateFromKey: string; dateToKey: string })
  | (FilterBase & { type: 'search_range'; fromKey?: string; toKey?: string })

export type FilterValues = Record<string, string>

/** Text-filter typing settles this long before the URL changes. */
export const SEARCH_FILTER_DEBOUNCE_MS = 500

/** The URL keys (unprefixed) a filter writes. */
export function filterKeys(f: TableFilter): string[] {
  if (f.type === 'date_range') return [f.dateFromKey, f.dateToKey]
  if (f.type === 'search_range') return [f.fromKey ?? `${f.key}_from`, f.toKey ?? `${f.key}_to`]
  return [f.key]
}

export const allFilterKeys = (filters: TableFilter[]) => filters.flatMap(filterKeys)

function SearchField({ value, onChange, debounce, label, placeholder }: {
  value: string; onChange: (v: string) => void; debounce: boolean; label: string; placeholder?: string
}) {
  const [text, setText] = useState(value)
  const settled = useDebouncedValue(text, SEARCH_FILTER_DEBOUNCE_MS)
  useEffect(() => setText(value), [value])
  useEffect(() => {
    // Only a settled edit is written; `value` changing from outside is synced above.
    if (debounce && settled !== value) onChange(settled)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a settled edit is written; value changing from outside is synced above
  }, [settled])
  return (
    <InputGroup startElement={<SearchIcon boxSize="4" color="fg.subtle" />}>
      <Input
        size="sm"
        aria-label={label}
        placeholder={placeholder ?? label}
        value={text}
        onChange={(e) => {
          const next = toLatinDigits(e.target.value)
          setText(next)
          if (!debounce) onChange(next)
        }}
        onKeyDown={(e) => e.key === 'Enter' && text !== value && onChange(text)}
      />
    </InputGroup>
  )
}

interface ControlProps {
  filter: TableFilter
  values: FilterValues
  onChange: (patch: FilterValues) => void
  debounce: boolean
}

/** One filter's input(s); changes are reported as a patch of URL values. */
export function FilterControl({ filter: f, values, onChange, debounce }: ControlProps) {
  const date = (key: string, label: string, placeholder?: string) => (
    <JalaliDateInput size="sm" aria-label={label} placeholder={placeholder} value={fromDateParam(values[key])} onChange={(d) => onChange({ [key]: d ? toDateParam(d) : '' })} />
  )
  switch (f.type) {
    case 'search':
      return <SearchField label={f.title} placeholder={f.placeholder} value={values[f.key] ?? ''} debounce={debounce} onChange={(v) => onChange({ [f.key]: v })} />
    case 'options': {
      const raw = values[f.key] ?? ''
      const options = f.multiple ? f.options : [{ label: 'همه', value: '' }, ...f.options]
      return f.multiple ? (
        <Select multiple size="sm" aria-label={f.title} options={options} value={raw ? raw.split(',') : []} onChange={(v) => onChange({ [f.key]: v.join(',') })} />
      ) : (
        <Select size="sm" aria-label={f.title} options={options} value={raw} onChange={(v) => onChange({ [f.key]: v ?? '' })} />
      )
    }
    case 'date':
      return date(f.key, f.title)
    case 'date_range':
      return (
        <HStack gap="2">
          {date(f.dateFromKey, `${f.title} از`, 'از تاریخ')}
          {date(f.dateToKey, `${f.title} تا`, 'تا تاریخ')}
        </HStack>
      )
    case 'search_range': {
      const [from, to] = filterKeys(f)
      return (
        <HStack gap="2">
          <SearchField label={`${f.title} از`} placeholder="از" value={values[from] ?? ''} debounce={debounce} onChange={(v) => onChange({ [from]: v })} />
          <SearchField label={`${f.title} تا`} placeholder="تا" value={values[to] ?? ''} debounce={debounce} onChange={(v) => onChange({ [to]: v })} />
        </HStack>
      )
    }
  }
}

const width = (f: TableFilter) => (f.type === 'date_range' || f.type === 'search_range' ? '80' : '52')

interface BarProps {
  filters: TableFilter[]
  values: FilterValues
  onChange: (patch: FilterValues) => void
  onClear: () => void
}

/** Desktop: the filters side by side, each applied at once, plus a clear button. */
export function FiltersBar({ filters, values, onChange, onClear }: BarProps) {
  const active = allFilterKeys(filters).some((k) => values[k])
  return (
    <Wrap gap="3" align="flex-end" as="form" role="search" aria-label="فیلترها" onSubmit={(e) => e.preventDefault()}>
      {filters.map((f) => (
        <Stack key={f.key} w={width(f)} gap="1">
          <Text aria-hidden fontSize="xs" color="fg.muted">{f.title}</Text>
          <FilterControl filter={f} values={values} onChange={onChange} debounce />
        </Stack>
      ))}
      {active && (
        <Button size="sm" variant="ghost" onClick={onClear}>
          <EraserIcon />
          پاک کردن فیلترها
        </Button>
      )}
    </Wrap>
  )
}

/** Mobile: a «فیلترها» button opening a modal; «اعمال» writes all filters at once (page 1). */
export function FiltersModalButton({ filters, values, onChange, onClear }: BarProps) {
  const [open, setOpen] = useState(false)
  const [draft, setDraft] = useState<FilterValues>({})
  const keys = allFilterKeys(filters)
  const count = filters.filter((f) => filterKeys(f).some((k) => values[k])).length
  const openModal = () => {
    setDraft(Object.fromEntries(keys.map((k) => [k, values[k] ?? ''])))
    setOpen(true)
  }
  return (
    <>
      <Button size="sm" variant="outline" onClick={openModal} aria-label={count ? `فیلترها (${formatNumber(count)} فعال)` : 'فیلترها'}>
        <FilterIcon />
        فیلترها
        {count > 0 && <Badge colorPalette="brand" variant="solid" rounded="full">{formatNumber(count)}</Badge>}
      </Button>
      <Modal
        open={open}
        onClose={() => setOpen(false)}
        title="فیلترها"
        footer={
          <>
            <Button variant="ghost" onClick={() => { onClear(); setOpen(false) }}>پاک کردن فیلترها</Button>
            <Button colorPalette="brand" onClick={() => { onChange(draft); setOpen(false) }}>اعمال</Button>
          </>
        }
      >
        <Stack gap="4">
          {filters.map((f) => (
            <Stack key={f.key} gap="1">
              <Text aria-hidden fontSize="sm" fontWeight="medium">{f.title}</Text>
              <FilterControl filter={f} values={draft} onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))} debounce={false} />
            </Stack>
          ))}
        </Stack>
      </Modal>
    </>
  )
}
