import { describe, expect, it } from 'vitest'
import { onlyDigits, toLatinDigits, toPersianDigits } from './digits'

describe('digits', () => {
  it('maps Latin digits to Persian', () => {
    expect(toPersianDigits('1404/01/09')).toBe('۱۴۰۴/۰۱/۰۹')
    expect(toPersianDigits(1234567890)).toBe('۱۲۳۴۵۶۷۸۹۰')
    expect(toPersianDigits('abc')).toBe('abc')
  })

  it('maps Persian and Arabic digits to Latin', () => {
    expect(toLatinDigits('۰۹۱۲۳۴۵۶۷۸۹')).toBe('09123456789')
    expect(toLatinDigits('٠١٢٣٤٥٦٧٨٩')).toBe('0123456789')
    expect(toLatinDigits('a۱b٢3')).toBe('a1b23')
  })

  it('keeps only digits', () => {
    expect(onlyDigits('+98 (912) ۱۲۳-٤٥٦٧')).toBe('989121234567')
    expect(onlyDigits('')).toBe('')
  })
})
