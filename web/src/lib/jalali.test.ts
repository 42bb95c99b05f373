import { describe, expect, it } from 'vitest'
import {
  addJalaliDays, compareJalaliDay, formatJalaliDate, formatJalaliDateTime, formatJalaliLong, fromJalaliParts,
  gregorianToJalali, isValidJalali, JALALI_MONTHS, jalaliMonthLength, jalaliText, jalaliToGregorian,
  jalaliWeekday, parseJalali, toJalaliParts,
} from './jalali'

describe('jalali conversions', () => {
  it('matches the oracle facts', () => {
    expect(gregorianToJalali(2025, 3, 21)).toEqual({ year: 1404, month: 1, day: 1 })
    expect(jalaliToGregorian(1403, 12, 30)).toEqual({ year: 2025, month: 3, day: 20 })
    expect(isValidJalali(1403, 12, 30)).toBe(true)
    expect(isValidJalali(1404, 12, 30)).toBe(false)
    expect(jalaliMonthLength(1403, 12)).toBe(30)
    expect(jalaliMonthLength(1404, 12)).toBe(29)
    expect(jalaliMonthLength(1404, 1)).toBe(31)
    expect(jalaliMonthLength(1404, 7)).toBe(30)
  })

  it('validates ranges', () => {
    expect(isValidJalali(1404, 0, 1)).toBe(false)
    expect(isValidJalali(1404, 13, 1)).toBe(false)
    expect(isValidJalali(1404, 1, 32)).toBe(false)
    expect(isValidJalali(1404, 1.5, 1)).toBe(false)
    expect(isValidJalali(3178, 1, 1)).toBe(false)
    expect(isValidJalali(-62, 1, 1)).toBe(false)
  })

  it('has the twelve month names', () => {
    expect(JALALI_MONTHS).toHaveLength(12)
    expect(JALALI_MONTHS[0]).toBe('فروردین')
    expect(JALALI_MONTHS[11]).toBe('اسفند')
  })

  it('finds Saturday-first weekdays', () => {
    // 1404/01/01 = 2025-03-21, a Friday (جمعه)
    expect(jalaliWeekday(1404, 1, 1)).toBe(6)
    // 1404/01/02 = Saturday
    expect(jalaliWeekday(1404, 1, 2)).toBe(0)
  })

  it('compares days', () => {
    expect(compareJalaliDay({ year: 1404, month: 1, day: 2 }, { year: 1404, month: 1, day: 1 })).toBeGreaterThan(0)
    expect(compareJalaliDay({ year: 1403, month: 12, day: 30 }, { year: 1404, month: 1, day: 1 })).toBeLessThan(0)
  })
})

describe('Asia/Tehran wall time', () => {
  it('formats instants in Tehran time with Persian digits', () => {
    // 2025-03-20T21:00Z is 00:30 on 2025-03-21 in Tehran (UTC+3:30): already 1404/01/01.
    const d = new Date('2025-03-20T21:00:00Z')
    expect(formatJalaliDate(d)).toBe('۱۴۰۴/۰۱/۰۱')
    expect(formatJalaliDateTime(d)).toBe('۱۴۰۴/۰۱/۰۱ ۰۰:۳۰')
    expect(formatJalaliLong(d)).toBe('۱ فروردین ۱۴۰۴')
    expect(formatJalaliDate('2026-11-22T10:00:00Z')).toBe('۱۴۰۵/۰۹/۰۱')
    expect(formatJalaliDate('nonsense')).toBe('')
  })

  it('round-trips parts', () => {
    const d = fromJalaliParts(1404, 1, 1, 8, 30)!
    expect(d.toISOString()).toBe('2025-03-21T05:00:00.000Z')
    expect(toJalaliParts(d)).toEqual({ year: 1404, month: 1, day: 1, hour: 8, minute: 30 })
    expect(jalaliText(d)).toBe('1404/01/01')
    expect(jalaliText(d, true)).toBe('1404/01/01 08:30')
  })
})

describe('parseJalali', () => {
  it('parses dates and date-times', () => {
    expect(parseJalali('1404/01/01')?.toISOString()).toBe('2025-03-20T20:30:00.000Z')
    expect(parseJalali('۱۴۰۴/۰۱/۰۱ ۰۸:۳۰')?.toISOString()).toBe('2025-03-21T05:00:00.000Z')
    expect(parseJalali('1403/12/30')).not.toBeNull()
    expect(formatJalaliDate(parseJalali('1403/12/30')!)).toBe('۱۴۰۳/۱۲/۳۰')
  })

  it('rejects nonexistent or malformed input', () => {
    expect(parseJalali('1404/12/30')).toBeNull()
    expect(parseJalali('1404/13/01')).toBeNull()
    expect(parseJalali('1404/01/01 24:00')).toBeNull()
    expect(parseJalali('1404/01')).toBeNull()
    expect(parseJalali('')).toBeNull()
  })
})

describe('addJalaliDays', () => {
  it('crosses month and year ends', () => {
    expect(addJalaliDays({ year: 1403, month: 12, day: 30 }, 1)).toEqual({ year: 1404, month: 1, day: 1 })
    expect(addJalaliDays({ year: 1404, month: 1, day: 1 }, -1)).toEqual({ year: 1403, month: 12, day: 30 })
    expect(addJalaliDays({ year: 1404, month: 6, day: 31 }, 7)).toEqual({ year: 1404, month: 7, day: 7 })
  })
})
