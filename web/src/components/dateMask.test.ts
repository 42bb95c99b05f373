import { describe, expect, it } from 'vitest'
import { parseJalali } from '../lib/jalali'
import { effectiveMin, fromDateParam, isWithinBounds, maskJalaliInput, parseMaskedJalali, toDateParam } from './dateMask'

describe('maskJalaliInput (date)', () => {
  it('inserts slashes after the 4th and 7th character', () => {
    expect(maskJalaliInput('1404')).toBe('1404/')
    expect(maskJalaliInput('14040')).toBe('1404/0')
    expect(maskJalaliInput('140401')).toBe('1404/01/')
    expect(maskJalaliInput('14040101')).toBe('1404/01/01')
    expect(maskJalaliInput('1404/01/01')).toBe('1404/01/01')
  })

  it('keeps Persian and Arabic digits as Latin and drops other characters', () => {
    expect(maskJalaliInput('۱۴۰۴۰۱۰۱')).toBe('1404/01/01')
    expect(maskJalaliInput('١٤٠٤/٠١/٠١')).toBe('1404/01/01')
    expect(maskJalaliInput('14a04b0101')).toBe('1404/01/01')
  })

  it('stops at a full date', () => {
    expect(maskJalaliInput('1404010199')).toBe('1404/01/01')
  })

  it('pads a one-digit month or day followed by a separator', () => {
    expect(maskJalaliInput('1404/1/')).toBe('1404/01/')
    expect(maskJalaliInput('1404/1/5')).toBe('1404/01/5')
  })

  it('does not re-add a trailing separator while deleting', () => {
    expect(maskJalaliInput('1404', false, true)).toBe('1404')
    expect(maskJalaliInput('1404/01', false, true)).toBe('1404/01')
    expect(maskJalaliInput('', false, true)).toBe('')
  })
})

describe('maskJalaliInput (date-time)', () => {
  it('adds a space and a colon at position 13', () => {
    expect(maskJalaliInput('14040101', true)).toBe('1404/01/01 ')
    expect(maskJalaliInput('1404010108', true)).toBe('1404/01/01 08:')
    expect(maskJalaliInput('1404/01/01 08:', true).indexOf(':')).toBe(13)
    expect(maskJalaliInput('140401010830', true)).toBe('1404/01/01 08:30')
  })

  it('clamps hours to 23 and minutes to 59', () => {
    expect(maskJalaliInput('1404/01/01 27:75', true)).toBe('1404/01/01 23:59')
    expect(maskJalaliInput('1404/01/01 9:', true)).toBe('1404/01/01 09:')
  })
})

describe('parseMaskedJalali', () => {
  it('takes a date once 8 digits are present', () => {
    expect(parseMaskedJalali('1404/01/0')).toBeNull()
    expect(parseMaskedJalali('1404/01/01')?.getTime()).toBe(parseJalali('1404/01/01')?.getTime())
    expect(parseMaskedJalali('1404/12/30')).toBeNull()
  })

  it('adds the time when complete', () => {
    expect(parseMaskedJalali('1404/01/01 08:30', true)?.toISOString()).toBe('2025-03-21T05:00:00.000Z')
    expect(parseMaskedJalali('1404/01/01 08', true)?.toISOString()).toBe('2025-03-20T20:30:00.000Z')
  })
})

describe('bounds', () => {
  const now = new Date('2025-03-21T09:00:00Z') // 1404/01/01 12:30 in Tehran
  it('uses now as the minimum with disablePast', () => {
    expect(effectiveMin({ disablePast: true }, now)).toBe(now)
    const later = new Date('2025-04-01T00:00:00Z')
    expect(effectiveMin({ disablePast: true, min: later }, now)).toBe(later)
  })

  it('compares dates by Jalali day and date-times by minute', () => {
    const today = parseJalali('1404/01/01')!
    const yesterday = parseJalali('1403/12/30')!
    expect(isWithinBounds(today, { disablePast: true }, false, now)).toBe(true)
    expect(isWithinBounds(yesterday, { disablePast: true }, false, now)).toBe(false)
    expect(isWithinBounds(parseJalali('1404/01/01 12:00')!, { disablePast: true }, true, now)).toBe(false)
    expect(isWithinBounds(parseJalali('1404/01/01 12:30')!, { disablePast: true }, true, now)).toBe(true)
    expect(isWithinBounds(today, { max: yesterday })).toBe(false)
    expect(isWithinBounds(yesterday, { min: yesterday, max: today })).toBe(true)
  })
})

describe('date params', () => {
  it('round-trips Tehran days as YYYY-MM-DD', () => {
    const d = parseJalali('1404/01/01')!
    expect(toDateParam(d)).toBe('2025-03-21')
    expect(fromDateParam('2025-03-21')?.getTime()).toBe(d.getTime())
    expect(toDateParam(parseJalali('1403/12/30 23:59')!)).toBe('2025-03-20')
    expect(fromDateParam('2025-02-30')).toBeNull()
    expect(fromDateParam('x')).toBeNull()
  })
})
