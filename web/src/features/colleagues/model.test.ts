import { describe, expect, it } from 'vitest'
import { groupPermissions, MESSAGES, nationalIdError, normalMobile } from './model'

describe('nationalIdError', () => {
  it('accepts valid codes, Persian digits too', () => {
    expect(nationalIdError('0012345679')).toBeNull()
    expect(nationalIdError('۰۰۱۲۳۴۵۶۷۹')).toBeNull()
  })
  it('needs 10 digits', () => {
    expect(nationalIdError('123')).toBe(MESSAGES.nationalId10)
    expect(nationalIdError('')).toBe(MESSAGES.nationalId10)
  })
  it('refuses a wrong check digit and a repeated digit', () => {
    expect(nationalIdError('0012345678')).toBe(MESSAGES.nationalIdInvalid)
    expect(nationalIdError('1111111111')).toBe(MESSAGES.nationalIdInvalid)
  })
})

describe('normalMobile', () => {
  it('normalises the usual forms', () => {
    expect(normalMobile('۰۹۱۲۱۲۳۴۵۶۷')).toBe('09121234567')
    expect(normalMobile('+98 912 123 4567')).toBe('09121234567')
    expect(normalMobile('9121234567')).toBe('09121234567')
    expect(normalMobile('0912')).toBeNull()
  })
})

describe('groupPermissions', () => {
  it('keeps the API order within and across groups', () => {
    const g = groupPermissions([
      { key: 'send.create', title: 'ارسال', group: 'send', group_title: 'ارسال پیامک' },
      { key: 'report.view', title: 'گزارش', group: 'report', group_title: 'گزارش‌ها' },
      { key: 'send.cancel', title: 'لغو', group: 'send', group_title: 'ارسال پیامک' },
    ])
    expect(g.map((x) => x.key)).toEqual(['send', 'report'])
    expect(g[0].items.map((x) => x.key)).toEqual(['send.create', 'send.cancel'])
  })
})
