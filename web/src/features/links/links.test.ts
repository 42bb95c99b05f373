import { describe, expect, it } from 'vitest'
import { sizeLinks } from '../../lib/links'
import { linkErrors } from './LinkForm'
import { jalaliDay } from './LinkStatsPage'

describe('link tracking', () => {
  it('counts each placeholder at the short link length', () => {
    expect(sizeLinks('خرید {link:12} و {link:7}', 34)).toBe(`خرید ${'x'.repeat(34)} و ${'x'.repeat(34)}`)
    expect(sizeLinks('بدون لینک', 34)).toBe('بدون لینک')
    expect(sizeLinks('{link:12}', 0)).toBe('{link:12}')
  })

  it('checks the form as the server does', () => {
    expect(linkErrors({ title: '', url: 'ftp://x', utm_source: 'بد', utm_medium: '', utm_campaign: 'ok-1' })).toEqual({
      title: 'عنوان لینک را وارد کنید',
      url: 'نشانی لینک باید با http:// یا https:// شروع شود و معتبر باشد',
      utm_source: 'فقط حروف لاتین، رقم، خط تیره، زیرخط و نقطه',
    })
    expect(linkErrors({ title: 'حراج', url: 'https://shop.example/a?b=1', utm_source: 'sms', utm_medium: '', utm_campaign: '' })).toEqual({})
  })

  it('shows a Tehran day in Jalali with Persian digits', () => {
    expect(jalaliDay('2025-03-21')).toBe('۱۴۰۴/۰۱/۰۱')
  })
})
