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

describe('toPersianDigits keeps machine text', () => {
  it('leaves digits inside file names, e-mails and URLs', () => {
    expect(toPersianDigits('فایل «file50.xlsx» با 20 ردیف')).toBe('فایل «file50.xlsx» با ۲۰ ردیف')
    expect(toPersianDigits('ali2024@example.com')).toBe('ali2024@example.com')
    expect(toPersianDigits('https://ex.ir/a/12?b=3 و 4')).toBe('https://ex.ir/a/12?b=3 و ۴')
    expect(toPersianDigits('report-2025.csv')).toBe('report-2025.csv')
  })
  it('still converts numbers, dates and plain text', () => {
    expect(toPersianDigits(1404)).toBe('۱۴۰۴')
    expect(toPersianDigits('1404/01/05 12:30')).toBe('۱۴۰۴/۰۱/۰۵ ۱۲:۳۰')
    expect(toPersianDigits('گروه 3 و نسخه 2.5')).toBe('گروه ۳ و نسخه ۲.۵')
    expect(toPersianDigits('ABC 12')).toBe('ABC ۱۲')
  })
})
