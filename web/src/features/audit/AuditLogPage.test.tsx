import { describe, expect, it, vi } from 'vitest'
import { screen } from '@testing-library/react'
import { renderWithProviders } from '../../testing/render'
import { ACCESS_LIMITED } from '../../lib/apiError'
import AuditLogPage, { actorText } from './AuditLogPage'

const ROW = {
  id: 9, created_at: '2025-03-21T06:30:00Z', user_id: 2, user_name: 'سارا', api_key_id: null, action: 'send.stop',
  action_title: 'توقف و لغو ارسال', target_type: 'send', target: '42', details: { from: 'sending', refunded: 460 },
  before: null, after: null, ip: '10.0.0.1', user_agent: 'Mozilla/5.0 Chrome/120.0',
}

function mockFetch(rows: unknown[], status = 200) {
  const urls: string[] = []
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    urls.push(String(url))
    const path = String(url).split('?')[0]
    if (status !== 200) return new Response(JSON.stringify({ data: null, meta: { status, message: 'x' } }), { status })
    if (path.endsWith('/user/audit/options')) {
      return new Response(JSON.stringify({ data: { actions: [{ value: 'send.stop', label: 'توقف و لغو ارسال' }], users: [{ value: 2, label: 'سارا' }] }, meta: { status: 200 } }))
    }
    return new Response(JSON.stringify({ data: rows, meta: { status: 200, page: 1, limit: 10, total: rows.length } }))
  }))
  return urls
}

describe('AuditLogPage', () => {
  it('shows the entries with Persian labels and passes the URL filters to the API', async () => {
    const urls = mockFetch([ROW])
    renderWithProviders(<AuditLogPage />, { route: '/audit-log?action=send.stop&date_from=2025-03-21' })
    expect(await screen.findAllByText('توقف و لغو ارسال')).not.toHaveLength(0)
    expect(screen.getAllByText(/از: در حال ارسال/)).not.toHaveLength(0)
    const list = urls.find((u) => u.includes('/user/audit?'))
    expect(list).toContain('action=send.stop')
    expect(list).toContain('date_from=2025-03-21')
  })

  it('has an empty and an error state', async () => {
    mockFetch([])
    renderWithProviders(<AuditLogPage />, { route: '/audit-log' })
    expect(await screen.findByText('فعالیتی با این فیلترها یافت نشد')).toBeInTheDocument()
    vi.unstubAllGlobals()
    mockFetch([], 500)
    renderWithProviders(<AuditLogPage />, { route: '/audit-log' })
    expect(await screen.findByText('خطا در دریافت اطلاعات')).toBeInTheDocument()
  })

  it('tells a colleague the log is the owner\'s', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ data: null, meta: { status: 403, message_code: '403-8' } }), { status: 403 })))
    renderWithProviders(<AuditLogPage />, { route: '/audit-log' })
    expect(await screen.findByText(ACCESS_LIMITED)).toBeInTheDocument()
  })

  it('names the actor', () => {
    expect(actorText({ user_name: 'سارا', api_key_id: null })).toBe('سارا')
    expect(actorText({ user_name: '', api_key_id: 7 })).toBe('وب‌سرویس (کلید API ۷)')
    expect(actorText({ user_name: '', api_key_id: null })).toBe('سامانه')
    expect(actorText({ user_name: 'سارا', api_key_id: null, details: { staff: 'agent9' } })).toBe('سارا (پشتیبان: agent9)')
  })
})
