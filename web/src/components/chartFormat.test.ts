import { describe, expect, it } from 'vitest'
import { axisNumber, axisValue, chartValue, dayLabel, dayTick, timeTick } from './chartFormat'

describe('chart formatting', () => {
  it('shortens axis numbers with Persian digits and units', () => {
    expect(axisNumber(0)).toBe('۰')
    expect(axisNumber(950)).toBe('۹۵۰')
    expect(axisNumber(1_250)).toBe('۱٫۳ هزار')
    expect(axisNumber(12_000)).toBe('۱۲ هزار')
    expect(axisNumber(3_400_000)).toBe('۳٫۴ میلیون')
    expect(axisNumber(2_000_000_000)).toBe('۲ میلیارد')
    expect(axisValue(66.6, 'percent')).toBe('۶۷٪')
  })

  it('writes tooltip values in full', () => {
    expect(chartValue(1234567)).toBe('۱٬۲۳۴٬۵۶۷')
    expect(chartValue(1836.9, 'rial')).toBe('۱٬۸۳۶ ریال')
    expect(chartValue(66.66, 'percent')).toBe('۶۶٫۷٪')
    expect(chartValue(Number.NaN)).toBe('—')
  })

  it('names calendar days in Jalali without a time-zone shift', () => {
    // 2026-11-27 is 6 Azar 1405; 1 Farvardin 1404 is 2025-03-21, after the 30th of Esfand 1403.
    expect(dayTick('2026-11-27')).toBe('۶ آذر')
    expect(dayLabel('2026-11-27')).toBe('۶ آذر ۱۴۰۵')
    expect(dayTick('2025-03-21')).toBe('۱ فروردین')
    expect(dayLabel('2025-03-20')).toBe('۳۰ اسفند ۱۴۰۳') // 1403 is a leap year
  })

  it('shows instants in Tehran wall time', () => {
    // 10:35 UTC is 14:05 in Tehran (UTC+3:30).
    expect(timeTick('2026-11-27T10:35:00Z')).toBe('۱۴:۰۵')
    expect(timeTick('2026-11-27T10:35:00Z', true)).toBe('۶ آذر ۱۴:۰۵')
    expect(timeTick('2026-11-27T21:00:00Z')).toBe('۰۰:۳۰')
    expect(timeTick('2026-11-27T10:35:09Z', false, true)).toBe('۱۴:۰۵:۰۹')
  })
})
