import { describe, expect, it } from 'vitest'
import { displayMobile, localMobile } from './mobile'

describe('mobile formatter', () => {
  it('shows a stored 98… number as 09…', () => {
    expect(localMobile('989121234567')).toBe('09121234567')
    expect(displayMobile('989121234567')).toBe('۰۹۱۲۱۲۳۴۵۶۷')
    expect(localMobile('۹۸۹۱۲۱۲۳۴۵۶۷')).toBe('09121234567')
  })
  it('keeps lines, masked and short values as they are', () => {
    expect(localMobile('3000123456')).toBe('3000123456')
    expect(localMobile('0912*****67')).toBe('0912*****67')
    expect(localMobile('98912')).toBe('98912')
    expect(displayMobile('09121234567')).toBe('۰۹۱۲۱۲۳۴۵۶۷')
  })
})
