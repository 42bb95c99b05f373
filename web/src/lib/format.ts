import { toPersianDigits } from './digits'

const SEPARATOR = '٬'

/** Integer part grouped by thousands with «٬», fraction after «٫», all in Persian digits. */
export function formatNumber(value: number | string): string {
  const n = typeof value === 'string' ? Number(value) : value
  if (!Number.isFinite(n)) return toPersianDigits(String(value))
  const negative = n < 0
  const [int, frac] = Math.abs(n).toString().split('.')
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, SEPARATOR)
  const text = frac ? `${grouped}٫${frac}` : grouped
  return toPersianDigits(negative ? `-${text}` : text)
}

/** An amount of rials, floored, e.g. «۱۲٬۳۴۵ ریال». */
export function formatRial(value: number): string {
  return `${formatNumber(Math.floor(value))} ریال`
}

const UNITS: Array<[limit: number, seconds: number, word: string]> = [
  [60, 1, 'ثانیه'],
  [3600, 60, 'دقیقه'],
  [86400, 3600, 'ساعت'],
  [86400 * 30, 86400, 'روز'],
  [86400 * 365, 86400 * 30, 'ماه'],
  [Infinity, 86400 * 365, 'سال'],
]

/**
 * Persian relative time: «همین الان» under 15 s, «لحظاتی پیش/بعد» under 30 s, otherwise
 * «۵ دقیقه پیش» for the past and «۵ دقیقه دیگر» for the future.
 */
export function relativeTime(date: Date | string | number, now: Date | number = Date.now()): string {
  const then = date instanceof Date ? date.getTime() : new Date(date).getTime()
  const diff = (then - (now instanceof Date ? now.getTime() : now)) / 1000
  const abs = Math.abs(diff)
  if (abs < 15) return 'همین الان'
  if (abs < 30) return diff < 0 ? 'لحظاتی پیش' : 'لحظاتی بعد'
  const [, unit, word] = UNITS.find(([limit]) => abs < limit) ?? UNITS[UNITS.length - 1]
  const count = Math.floor(abs / unit)
  return `${formatNumber(count)} ${word} ${diff < 0 ? 'پیش' : 'دیگر'}`
}
