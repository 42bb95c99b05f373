import { getDate as jGetDate, getDaysInMonth, getMonth as jGetMonth, getYear as jGetYear, newDate } from 'date-fns-jalali'
import { toLatinDigits, toPersianDigits } from './digits'

export const TEHRAN_TZ = 'Asia/Tehran'

export const JALALI_MONTHS = [
  'فروردین', 'اردیبهشت', 'خرداد', 'تیر', 'مرداد', 'شهریور',
  'مهر', 'آبان', 'آذر', 'دی', 'بهمن', 'اسفند',
] as const

/** Weekday names, Saturday first. */
export const JALALI_WEEKDAYS = ['شنبه', 'یکشنبه', 'دوشنبه', 'سه‌شنبه', 'چهارشنبه', 'پنجشنبه', 'جمعه'] as const
export const JALALI_WEEKDAYS_SHORT = ['ش', 'ی', 'د', 'س', 'چ', 'پ', 'ج'] as const

export const MIN_JALALI_YEAR = -61
export const MAX_JALALI_YEAR = 3177

/** A Jalali calendar date plus a wall-clock time in Asia/Tehran; month is 1-12. */
export interface JalaliParts {
  year: number
  month: number
  day: number
  hour: number
  minute: number
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Days in a Jalali month (month 1-12); Esfand has 30 days in leap years. */
export function jalaliMonthLength(year: number, month: number): number {
  return getDaysInMonth(newDate(year, month - 1, 1))
}

export function isValidJalali(year: number, month: number, day: number): boolean {
  if (![year, month, day].every(Number.isInteger)) return false
  if (year < MIN_JALALI_YEAR || year > MAX_JALALI_YEAR) return false
  if (month < 1 || month > 12 || day < 1) return false
  return day <= jalaliMonthLength(year, month)
}

export function jalaliToGregorian(year: number, month: number, day: number): { year: number; month: number; day: number } {
  const d = newDate(year, month - 1, day, 12)
  return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate() }
}

export function gregorianToJalali(year: number, month: number, day: number): { year: number; month: number; day: number } {
  const d = new Date(year, month - 1, day, 12)
  d.setFullYear(year)
  return { year: jGetYear(d), month: jGetMonth(d) + 1, day: jGetDate(d) }
}

const tehranFormatter = new Intl.DateTimeFormat('en-US', {
  timeZone: TEHRAN_TZ,
  hourCycle: 'h23',
  era: 'short',
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
})

/** The Gregorian wall-clock parts of an instant in Asia/Tehran. */
function tehranWall(date: Date) {
  const parts: Record<string, string> = {}
  for (const p of tehranFormatter.formatToParts(date)) parts[p.type] = p.value
  const year = Number(parts.year)
  return {
    year: parts.era === 'BC' || parts.era === 'B' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    second: Number(parts.second),
  }
}

function utcMs(y: number, mo: number, d: number, h: number, mi: number, s = 0): number {
  const date = new Date(Date.UTC(2000, mo - 1, d, h, mi, s))
  date.setUTCFullYear(y)
  return date.getTime()
}

/** The instant at which the Asia/Tehran wall clock shows the given Gregorian date and time. */
function fromTehranWall(y: number, mo: number, d: number, h: number, mi: number): Date {
  const target = utcMs(y, mo, d, h, mi)
  let guess = target - 3.5 * 3600_000
  for (let i = 0; i < 3; i++) {
    const w = tehranWall(new Date(guess))
    const diff = utcMs(w.year, w.month, w.day, w.hour, w.minute, w.second) - target
    if (diff === 0) break
    guess -= diff
  }
  return new Date(guess)
}

/** The Jalali date and the Asia/Tehran wall time of an instant. */
export function toJalaliParts(date: Date): JalaliParts {
  const w = tehranWall(date)
  const j = gregorianToJalali(w.year, w.month, w.day)
  return { ...j, hour: w.hour, minute: w.minute }
}

/** The instant of a Jalali date and Asia/Tehran wall time; null when the date does not exist. */
export function fromJalaliParts(year: number, month: number, day: number, hour = 0, minute = 0): Date | null {
  if (!isValidJalali(year, month, day)) return null
  if (!Number.isInteger(hour) || !Number.isInteger(minute) || hour < 0 || hour > 23 || minute < 0 || minute > 59) return null
  const g = jalaliToGregorian(year, month, day)
  return fromTehranWall(g.year, g.month, g.day, hour, minute)
}

function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value)
}

/** «1404/01/01» or «1404/01/01 08:30» with Latin digits (the text an input edits). */
export function jalaliText(value: Date | string | number, withTime = false): string {
  const p = toJalaliParts(toDate(value))
  const date = `${String(p.year).padStart(4, '0')}/${pad(p.month)}/${pad(p.day)}`
  return withTime ? `${date} ${pad(p.hour)}:${pad(p.minute)}` : date
}

/** «۱۴۰۴/۰۱/۰۱» (Asia/Tehran calendar day); empty for an invalid date. */
export function formatJalaliDate(value: Date | string | number): string {
  const d = toDate(value)
  return Number.isNaN(d.getTime()) ? '' : toPersianDigits(jalaliText(d))
}

/** «۱۴۰۴/۰۱/۰۱ ۰۸:۳۰» in Asia/Tehran wall time; empty for an invalid date. */
export function formatJalaliDateTime(value: Date | string | number): string {
  const d = toDate(value)
  return Number.isNaN(d.getTime()) ? '' : toPersianDigits(jalaliText(d, true))
}

/** «۱ فروردین ۱۴۰۴» */
export function formatJalaliLong(value: Date | string | number): string {
  const d = toDate(value)
  if (Number.isNaN(d.getTime())) return ''
  const p = toJalaliParts(d)
  return toPersianDigits(`${p.day} ${JALALI_MONTHS[p.month - 1]} ${p.year}`)
}

const PATTERN = /^\s*(-?\d{1,4})[/-](\d{1,2})[/-](\d{1,2})(?:[\sT]+(\d{1,2}):(\d{1,2}))?\s*$/

/**
 * Parses «1404/01/01» or «1404/01/01 08:30» (Latin, Persian or Arabic digits) as a Jalali date
 * and Asia/Tehran wall time; null when malformed or nonexistent (e.g. 1404/12/30).
 */
export function parseJalali(text: string): Date | null {
  const m = PATTERN.exec(toLatinDigits(text))
  if (!m) return null
  const [, y, mo, d, h, mi] = m
  return fromJalaliParts(Number(y), Number(mo), Number(d), h ? Number(h) : 0, mi ? Number(mi) : 0)
}

/** Saturday-first weekday index (0 = شنبه … 6 = جمعه) of a Jalali date. */
export function jalaliWeekday(year: number, month: number, day: number): number {
  const g = jalaliToGregorian(year, month, day)
  const d = new Date(Date.UTC(2000, g.month - 1, g.day))
  d.setUTCFullYear(g.year)
  return (d.getUTCDay() + 1) % 7
}

/** Compares two Jalali calendar days: negative, zero or positive. */
export function compareJalaliDay(a: Pick<JalaliParts, 'year' | 'month' | 'day'>, b: Pick<JalaliParts, 'year' | 'month' | 'day'>): number {
  return a.year - b.year || a.month - b.month || a.day - b.day
}

/** The Jalali day `days` after (or before, when negative) the given one. */
export function addJalaliDays(p: Pick<JalaliParts, 'year' | 'month' | 'day'>, days: number): { year: number; month: number; day: number } {
  const g = jalaliToGregorian(p.year, p.month, p.day)
  const shifted = new Date(Date.UTC(2000, g.month - 1, g.day))
  shifted.setUTCFullYear(g.year)
  shifted.setUTCDate(shifted.getUTCDate() + days)
  return gregorianToJalali(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate())
}
