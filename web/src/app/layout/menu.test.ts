import { describe, expect, it } from 'vitest'
import type { Acl } from '../../lib/acl'
import { filterMenu, isLinkActive, MENU, routePermission } from './menu'

const labels = (acl: Acl | undefined) => filterMenu(MENU, acl).flatMap((g) => g.items.flatMap((i) => [i.label, ...(i.children ?? []).map((c) => c.label)]))

describe('filterMenu', () => {
  it('shows the owner everything', () => {
    const all = MENU.flatMap((g) => g.items.flatMap((i) => [i.label, ...(i.children ?? []).map((c) => c.label)]))
    expect(labels({ is_owner: true, reseller_id: 0, permissions: [] })).toEqual(all)
    expect(labels({ is_owner: true, reseller_id: 0, permissions: [] })).toContain('کلیدهای API')
  })
  it('shows only ungated items until the access list arrives', () => {
    expect(labels(undefined)).toContain('پیشخوان')
    expect(labels(undefined)).not.toContain('گزارش‌ها')
  })
  it('shows a colleague only what the role allows', () => {
    const seen = labels({ is_owner: false, reseller_id: 0, permissions: ['report.view'] })
    expect(seen).toContain('گزارش‌ها')
    expect(seen).toContain('پیشخوان')
    expect(seen).not.toContain('همکاران')
    expect(seen).not.toContain('ارسال پیامک')
    expect(seen).not.toContain('کلیدهای API')
    expect(seen).not.toContain('امور مالی') // a group left empty goes too
  })
})

describe('routePermission', () => {
  it('takes the longest matching menu link', () => {
    expect(routePermission('/colleagues/12')).toBe('partner.manage')
    expect(routePermission('/send-sms/quick')).toBe('send.create')
    expect(routePermission('/send-sms/quick/steps')).toBe('send.create')
    expect(routePermission('/send-sms/campaigns')).toBe('report.view')
    expect(routePermission('/send-sms/occasions')).toBe('report.view')
    expect(routePermission('/developers/api-keys')).toBe('apikey.manage')
    expect(routePermission('/dashboard')).toBeUndefined()
  })
})

describe('isLinkActive', () => {
  it('marks «ارسال سریع» on the one page and its wizard, not «ارسال پیامک»', () => {
    const links = MENU[0].items
    const quick = links.find((i) => i.label === 'ارسال سریع')!
    const methods = links.find((i) => i.label === 'ارسال پیامک')!
    for (const path of ['/send-sms/quick', '/send-sms/quick/steps']) {
      expect(isLinkActive({ label: quick.label, to: quick.to! }, path)).toBe(true)
      expect(isLinkActive({ label: methods.label, to: methods.to!, exclude: methods.exclude }, path)).toBe(false)
    }
    expect(isLinkActive({ label: methods.label, to: methods.to!, exclude: methods.exclude }, '/send-sms/file')).toBe(true)
  })
})
