import { describe, expect, it } from 'vitest'
import { mobileText, PROFILE_PAGES } from './parts'

describe('profile parts', () => {
  it('shows a stored mobile as a local number in Persian digits', () => {
    expect(mobileText('989121234567')).toBe('۰۹۱۲۱۲۳۴۵۶۷')
    expect(mobileText('09121234567')).toBe('۰۹۱۲۱۲۳۴۵۶۷')
  })
  it('links every profile page of spec §2 from the hub', () => {
    const paths = PROFILE_PAGES.map((p) => p.path)
    for (const p of ['account-info', 'security-setting', 'tariffs', 'settings', 'documents', 'personal-info', 'contact-info',
      'address-info', 'change-phone-number']) {
      expect(paths).toContain(p)
    }
  })
})
