import { describe, expect, it } from 'vitest'
import { matchRoutes } from 'react-router'
import { contactRoutes } from '../features/contacts/routes'
import { MobileOnly } from '../components/RouteGuards'
import { routes } from './router'

function deepest(path: string) {
  const m = matchRoutes(routes, path)
  return m?.[m.length - 1]
}

describe('route table (spec §2)', () => {
  it('marks exactly the five contacts pages mobile-only', () => {
    const mobileOnly = contactRoutes
      .filter((r) => (r.element as { type?: unknown } | undefined)?.type === MobileOnly)
      .map((r) => r.path)
    expect(mobileOnly).toEqual([
      'contacts/all-contacts', 'contacts/all-groups', 'contacts/manage-more-features', 'contacts/blacklist', 'contacts/cancel_11',
    ])
  })

  it.each([
    ['/dashboard', 'dashboard'],
    ['/send-sms/quick', 'send-sms/quick'],
    ['/send-sms/quick/steps', 'send-sms/quick/steps'],
    ['/send-sms/success-send/12', 'send-sms/success-send/:id'],
    ['/reports/7', 'reports/:id'],
    ['/reports/archive-details/7', 'reports/archive-details/:id'],
    ['/contacts/all-groups', 'contacts/all-groups'],
    ['/contacts/55', 'contacts/:id'],
    ['/secretary/received-message/recipients/3/sms', 'secretary/received-message/recipients/:id/:inbox_type'],
    ['/colleagues/update-access/2', 'colleagues/update-access/:id'],
    ['/404', '404'],
    ['/no/such/page', '*'],
  ])('%s → %s', (url, pattern) => {
    expect(deepest(url)?.route.path).toBe(pattern)
  })

  it('every page of the layout has a Persian title for the header', () => {
    const layout = routes[0].children!.find((r) => r.children?.some((c) => c.path === 'dashboard'))!
    for (const r of layout.children!) {
      if (r.index) continue
      expect((r.handle as { title?: string })?.title, r.path).toMatch(/[\u0600-\u06FF]/)
    }
  })
})
