import { describe, expect, it, vi } from 'vitest'
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { renderWithProviders } from '../../testing/render'
import TransactionsPage from './TransactionsPage'
import { MSG_ALERT_MIN } from './lowBalance'

const ROWS = [
  { id: 5, date: '2025-03-21T06:30:00Z', type: 'withdrawal', kind: 'hold', kind_title: 'کسر هزینه ارسال', amount: 230, balance_after: 999_770, description: 'رزرو هزینه ارسال 42', send_id: 42 },
  { id: 6, date: '2025-03-22T06:30:00Z', type: 'deposit', kind: 'deposit', kind_title: 'شارژ حساب', amount: 2_000_000, balance_after: 2_999_770, description: 'شارژ آنلاین کیف پول', send_id: null, payment_id: 17 },
  { id: 4, date: '2025-03-20T06:30:00Z', type: 'deposit', kind: 'gift', kind_title: 'اعتبار هدیه', amount: 1_000_000, balance_after: 1_000_000, description: 'اعتبار هدیه', send_id: null },
]

interface Call { url: string; method: string; body: unknown }

function mockFetch(rows: unknown[], opts: { status?: number; alertStatus?: number } = {}) {
  const calls: Call[] = []
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ url: String(url), method: init?.method ?? 'GET', body })
    const json = (status: number, data: unknown, meta: Record<string, unknown> = {}) =>
      new Response(JSON.stringify({ data, meta: { status, ...meta } }), { status })
    if (String(url).includes('/user/setting/low_balance')) {
      if (opts.alertStatus) return json(opts.alertStatus, null, { message_code: '403-8' })
      if (init?.method === 'POST') return json(422, null, { message: MSG_ALERT_MIN, errors: { threshold: [MSG_ALERT_MIN] } })
      return json(200, { enabled: false, threshold: 0, minimum: 200_000, balance: 999_770, below: false })
    }
    if (opts.status) return json(opts.status, null, { message: 'x' })
    return json(200, rows, { page: 1, limit: 10, total: rows.length })
  }))
  return calls
}

describe('TransactionsPage', () => {
  it('lists transactions with type chips, Persian amounts and send links, posting the URL filters', async () => {
    const calls = mockFetch(ROWS)
    renderWithProviders(<TransactionsPage />, { route: '/wallet/transactions?type=withdrawal&amount_from=1000' })
    expect(await screen.findAllByText('رزرو هزینه ارسال 42')).not.toHaveLength(0)
    expect(screen.getAllByText('−۲۳۰')).not.toHaveLength(0)
    expect(screen.getAllByText('+۱٬۰۰۰٬۰۰۰')).not.toHaveLength(0)
    expect(screen.getAllByTestId('tx-type-withdrawal')[0]).toHaveTextContent('برداشت')
    const link = screen.getAllByTestId('tx-send-link')[0]
    expect(link).toHaveAttribute('href', '/reports/42')
    const list = calls.find((c) => c.url.includes('/report/payment/new'))
    expect(list?.method).toBe('POST')
    expect(list?.body).toMatchObject({ page: 1, limit: 10, type: 'withdrawal', amount_from: '1000' })
  })

  it('offers the invoice only on online payment credits and downloads it', async () => {
    const calls = mockFetch(ROWS)
    URL.createObjectURL = vi.fn(() => 'blob:x')
    URL.revokeObjectURL = vi.fn()
    renderWithProviders(<TransactionsPage />, { route: '/wallet/transactions' })
    await screen.findAllByText('شارژ آنلاین کیف پول')
    const buttons = screen.getAllByTestId('invoice-download')
    expect(new Set(buttons.map((b) => b.getAttribute('aria-label')))).toEqual(new Set(['فاکتور پرداخت ۱۷']))
    fireEvent.click(buttons[0])
    await waitFor(() => expect(calls.some((c) => c.url.includes('/payment/invoice/17'))).toBe(true))
  })

  it('has an empty and an error state', async () => {
    mockFetch([])
    renderWithProviders(<TransactionsPage />, { route: '/wallet/transactions' })
    expect(await screen.findByText('تراکنشی با این فیلترها یافت نشد')).toBeInTheDocument()
    vi.unstubAllGlobals()
    mockFetch([], { status: 500 })
    renderWithProviders(<TransactionsPage />, { route: '/wallet/transactions' })
    expect(await screen.findByText('خطا در دریافت اطلاعات')).toBeInTheDocument()
  })

  it('refuses an alert threshold under 200,000 rials and hides the card from colleagues', async () => {
    const calls = mockFetch(ROWS)
    renderWithProviders(<TransactionsPage />, { route: '/wallet/transactions' })
    const input = await screen.findByTestId('low-balance-threshold')
    fireEvent.click(screen.getByTestId('low-balance-enabled').querySelector('input') as HTMLInputElement)
    await waitFor(() => expect(input).not.toBeDisabled())
    fireEvent.change(input, { target: { value: '۱۵۰۰۰۰' } })
    fireEvent.click(screen.getByTestId('low-balance-save'))
    expect(await screen.findByText(MSG_ALERT_MIN)).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.url.includes('low_balance'))).toBe(false)
    cleanup()
    vi.unstubAllGlobals()
    const denied = mockFetch(ROWS, { alertStatus: 403 })
    renderWithProviders(<TransactionsPage />, { route: '/wallet/transactions' })
    await screen.findAllByText('رزرو هزینه ارسال 42')
    await waitFor(() => expect(denied.some((c) => c.url.includes('low_balance'))).toBe(true))
    await waitFor(() => expect(screen.queryAllByTestId('low-balance-card')).toHaveLength(0))
  })
})
