import { toLatinDigits } from '../lib/digits'
import { formatNumber } from '../lib/format'

export type SelectValue = string | number

/** An option of a Select (spec §3): label, value and an optional disabled flag. */
export interface SelectOption<V extends SelectValue = string> {
  label: string
  value: V
  disabled?: boolean
}

/** Milliseconds a search must rest before the caller is told (spec §9). */
export const SEARCH_DEBOUNCE_MS = 1000
/** Milliseconds after an item is created from inside a picker before it is selected (spec §9). */
export const SELECT_AFTER_CREATE_MS = 1000
/** Distance from the bottom of the list at which the next page is asked for (spec §9). */
export const LOAD_MORE_THRESHOLD = 10

/** «الف، ب» for up to two labels, else «الف، ب و ۳ مورد دیگر». */
export function multiSummary(labels: string[]): string {
  if (labels.length <= 2) return labels.join('، ')
  return `${labels.slice(0, 2).join('، ')} و ${formatNumber(labels.length - 2)} مورد دیگر`
}

function normalize(s: string): string {
  return toLatinDigits(s).toLowerCase().replace(/ي/g, 'ی').replace(/ك/g, 'ک').trim()
}

/** Options whose label contains the query (digits and Arabic ی/ک are normalised). */
export function filterOptions<V extends SelectValue>(options: SelectOption<V>[], query: string): SelectOption<V>[] {
  const q = normalize(query)
  return q ? options.filter((o) => normalize(o.label).includes(q)) : options
}

/** The next enabled index from `from` in direction `step` (wrapping); -1 when none is enabled. */
export function nextEnabled<V extends SelectValue>(options: SelectOption<V>[], from: number, step: 1 | -1): number {
  const n = options.length
  for (let i = 1; i <= n; i++) {
    const idx = (((from + step * i) % n) + n) % n
    if (!options[idx].disabled) return idx
  }
  return -1
}

/** True when a scrolled list is within `threshold` px of its bottom. */
export function nearBottom(el: { scrollTop: number; scrollHeight: number; clientHeight: number }, threshold = LOAD_MORE_THRESHOLD): boolean {
  return el.scrollHeight - el.scrollTop - el.clientHeight <= threshold
}
