import { describe, expect, it } from 'vitest'
import { formatNumber, formatRial, relativeTime } from './format'

describe('formatNumber', () => {
  it('groups thousands with the Persian separator and Persian digits', () => {
    expect(formatNumber(0)).toBe('۰')
    expect(formatNumber(999)).toBe('۹۹۹')
    expect(formatNumber(1000)).toBe('۱٬۰۰۰')
    expect(formatNumber(1234567)).toBe('۱٬۲۳۴٬۵۶۷')
    expect(formatNumber(-12345)).toBe('-۱۲٬۳۴۵')
    expect(formatNumber(1234.5)).toBe('۱٬۲۳۴٫۵')
    expect(formatNumber('5000')).toBe('۵٬۰۰۰')
  })
})

describe('formatRial', () => {
  it('floors and appends ریال', () => {
    expect(formatRial(12345.9)).toBe('۱۲٬۳۴۵ ریال')
    expect(formatRial(1000000)).toBe('۱٬۰۰۰٬۰۰۰ ریال')
  })
})

describe('relativeTime', () => {
  const now = new Date('2025-03-21T12:00:00Z')
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000)

  it('says just now under 15 seconds either way', () => {
    expect(relativeTime(at(0), now)).toBe('همین الان')
    expect(relativeTime(at(-14), now)).toBe('همین الان')
    expect(relativeTime(at(14), now)).toBe('همین الان')
  })

  it('says moments ago or ahead under 30 seconds', () => {
    expect(relativeTime(at(-20), now)).toBe('لحظاتی پیش')
    expect(relativeTime(at(29), now)).toBe('لحظاتی بعد')
  })

  it('uses Persian units beyond 30 seconds', () => {
    expect(relativeTime(at(-45), now)).toBe('۴۵ ثانیه پیش')
    expect(relativeTime(at(-5 * 60), now)).toBe('۵ دقیقه پیش')
    expect(relativeTime(at(5 * 60), now)).toBe('۵ دقیقه دیگر')
    expect(relativeTime(at(-3 * 3600), now)).toBe('۳ ساعت پیش')
    expect(relativeTime(at(-2 * 86400), now)).toBe('۲ روز پیش')
    expect(relativeTime(at(-65 * 86400), now)).toBe('۲ ماه پیش')
    expect(relativeTime(at(-800 * 86400), now)).toBe('۲ سال پیش')
  })

  it('accepts strings and timestamps', () => {
    expect(relativeTime('2025-03-21T11:50:00Z', now.getTime())).toBe('۱۰ دقیقه پیش')
  })
})
