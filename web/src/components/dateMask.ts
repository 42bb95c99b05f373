import { toLatinDigits } from '../lib/digits'
import { compareJalaliDay, fromJalaliParts, gregorianToJalali, jalaliToGregorian, toJalaliParts } from '../lib/jalali'

const DATE_SIZES = [4, 2, 2]
const DATETIME_SIZES = [4, 2, 2, 2, 2]
/** Separator written after each group: year/month/day HH:mm. */
const SEPARATORS = ['/', '/', ' ', ':']

/**
 * Masks a typed Jalali date («1404/01/01») or date-time («1404/01/01 08:30»): Latin, Persian
 * and Arabic digits are kept (as Latin), separators are placed automatically (a slash after the
 * 4th and 7th character, a space and a colon at position 13 with time), a one-digit month, day,
 * hour or minute followed by a typed separator is zero-padded, hours are clamped to 23 and
 * minutes to 59. While deleting, no trailing separator is added.
 */
export function maskJalaliInput(raw: string, withTime = false, deleting = false): string {
  const sizes = withTime ? DATETIME_SIZES : DATE_SIZES
  const groups: string[] = []
  let cur = ''
  for (const ch of toLatinDigits(raw)) {
    if (groups.length >= sizes.length) break
    if (ch >= '0' && ch <= '9') {
      cur += ch
      if (cur.length === sizes[groups.length]) {
        groups.push(cur)
        cur = ''
      }
    } else if ('/ :-'.includes(ch) && cur && groups.length > 0) {
      groups.push(cur.padStart(sizes[groups.length], '0'))
      cur = ''
    }
  }
  if (cur && groups.length < sizes.length) groups.push(cur)
  if (withTime) {
    if (groups[3]?.length === 2 && Number(groups[3]) > 23) groups[3] = '23'
    if (groups[4]?.length === 2 && Number(groups[4]) > 59) groups[4] = '59'
  }
  let out = ''
  groups.forEach((g, i) => {
    out += g
    const complete = g.length === sizes[i]
    const more = i < sizes.length - 1
    if (more && complete && (i < groups.length - 1 || !deleting)) out += SEPARATORS[i]
  })
  return out
}

/**
 * The instant a masked text stands for once it holds at least 8 digits (year, month, day and,
 * with time, an optional HH:mm in Asia/Tehran); null while incomplete or when the date does not
 * exist.
 */
export function parseMaskedJalali(text: string, withTime = false): Date | null {
  const digits = toLatinDigits(text).replace(/\D/g, '')
  if (digits.length < 8) return null
  const [y, m, d] = [digits.slice(0, 4), digits.slice(4, 6), digits.slice(6, 8)].map(Number)
  const hasTime = withTime && digits.length >= 12
  return fromJalaliParts(y, m, d, hasTime ? Number(digits.slice(8, 10)) : 0, hasTime ? Number(digits.slice(10, 12)) : 0)
}

export interface DateBounds {
  min?: Date | null
  max?: Date | null
  /** Uses now (today, for dates) as the minimum. */
  disablePast?: boolean
}

/** The effective minimum: the later of `min` and, with disablePast, now. */
export function effectiveMin({ min, disablePast }: DateBounds, now = new Date()): Date | null {
  if (!disablePast) return min ?? null
  return min && min > now ? min : now
}

/**
 * Whether a date lies within the bounds. Dates compare by Jalali calendar day in Tehran;
 * date-times compare by instant (to the minute).
 */
export function isWithinBounds(date: Date, bounds: DateBounds, withTime = false, now = new Date()): boolean {
  const min = effectiveMin(bounds, now)
  const max = bounds.max ?? null
  if (withTime) {
    const minute = (d: Date) => Math.floor(d.getTime() / 60000)
    // With disablePast the current minute itself is still allowed.
    return (!min || minute(date) >= minute(min)) && (!max || minute(date) <= minute(max))
  }
  const day = toJalaliParts(date)
  return (!min || compareJalaliDay(day, toJalaliParts(min)) >= 0) && (!max || compareJalaliDay(day, toJalaliParts(max)) <= 0)
}

/** A Tehran calendar day as the URL/API date «YYYY-MM-DD» (Gregorian). */
export function toDateParam(date: Date): string {
  const p = toJalaliParts(date)
  const g = jalaliToGregorian(p.year, p.month, p.day)
  return `${String(g.year).padStart(4, '0')}-${String(g.month).padStart(2, '0')}-${String(g.day).padStart(2, '0')}`
}

/** The start (Tehran midnight) of a «YYYY-MM-DD» day; null when malformed. */
export function fromDateParam(param: string | null | undefined): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(param ?? '')
  if (!m) return null
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])]
  const check = new Date(Date.UTC(y, mo - 1, d))
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null
  const j = gregorianToJalali(y, mo, d)
  return fromJalaliParts(j.year, j.month, j.day)
}
