import { describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { renderWithProviders } from '../../testing/render'
import CreditPage from './CreditPage'
import PaymentResultPage from './PaymentResultPage'
import { PAYMENT_MESSAGES } from './payment'

/** What the credit page's side queries answer, unless a test names the path. */
const SIDE: Record<string, unknown> = {
  '/payment/charge-packages/dynamics': [],
  '/payment/promotion/today-charge': { available: false, received: false },
  '/user/setting/payment_method_list': [
    { key: 'online', title: 'آنلاین', enabled: true }, { key: 'card', title: 'کارت', enabled: true }, { key: 'bank', title: 'بانکی', enabled: true },
  ],
  '/user/setting/parent_account_contact': { card_number: '6037991234567893', card_owner: 'چاپار', bank_name: 'ملی', sheba: 'IR050170000000123456789012', account_number: '1', account_owner: 'چاپار' },
  '/payment/offline/card-owner': { card_number: '6037991234567893', owner: 'چاپار', bank_name: 'ملی' },
  '/payment/offline/list': [],
}

function mockFetch(data: unknown, status = 200, side: Record<string, unknown> = SIDE) {
  const urls: string[] = []
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    urls.push(String(url))
    const path = new URL(String(url), 'http://panel.test').pathname.replace('/v1/api', '')
    const meta = { status, message: status === 200 ? 'ok' : 'خطا', errors: {} }
    const body = path in side ? side[path] : data
    return new Response(JSON.stringify({ data: status === 200 ? body : null, meta }), { status })
  }))
  return urls
}

describe('CreditPage', () => {
  it('shows the tax and total of a Persian amount and asks for the payment link', async () => {
    const urls = mockFetch({ url: '/sandbox-bank/pay/A1', payment_id: 1, amount: 1234567, tax: 123457, total: 1358024 })
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, origin: 'http://panel.test', assign })
    renderWithProviders(<CreditPage />, { route: '/wallet/credit' })
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '۱۲۳۴۵۶۷' } })
    expect(screen.getByTestId('tax')).toHaveTextContent('۱۲۳٬۴۵۷ ریال')
    expect(screen.getByTestId('total')).toHaveTextContent('۱٬۳۵۸٬۰۲۴ ریال')
    fireEvent.click(screen.getByTestId('pay'))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox-bank/pay/A1'))
    const call = urls.find((u) => u.includes('/payment/generate-url'))
    expect(call).toContain('amount=1234567')
    expect(call).toContain(encodeURIComponent('http://panel.test/wallet/payment-result'))
  })

  it('refuses less than the minimum without calling the server', () => {
    const urls = mockFetch(null)
    renderWithProviders(<CreditPage />, { route: '/wallet/credit' })
    fireEvent.change(screen.getByTestId('amount'), { target: { value: '500000' } })
    fireEvent.click(screen.getByTestId('pay'))
    expect(screen.getByText(PAYMENT_MESSAGES.min)).toBeInTheDocument()
    expect(urls.filter((u) => u.includes('generate-url'))).toHaveLength(0)
  })
})

/** Clicks a tab once the payment method list has enabled it. */
async function openTab(id: string) {
  const tab = await screen.findByTestId(id)
  await waitFor(() => expect(tab).not.toBeDisabled())
  fireEvent.click(tab)
}

describe('CreditPage offline tabs and packages', () => {
  it('shows the card-to-card tax before submitting and checks the card number by Luhn without calling the server', async () => {
    const urls = mockFetch(null)
    renderWithProviders(<CreditPage />, { route: '/wallet/credit' })
    await openTab('tab-card')
    expect(await screen.findByTestId('dest-owner')).toHaveTextContent('چاپار')
    fireEvent.change(screen.getByTestId('offline-amount'), { target: { value: '2000000' } })
    expect(screen.getByTestId('offline-tax')).toHaveTextContent('۲۰۰٬۰۰۰ ریال')
    expect(screen.getByTestId('offline-credit')).toHaveTextContent('۱٬۸۰۰٬۰۰۰ ریال')
    fireEvent.change(screen.getByTestId('offline-source'), { target: { value: '6037991234567894' } })
    fireEvent.click(screen.getByTestId('offline-submit'))
    expect(await screen.findByText('شماره کارت اشتباه است')).toBeInTheDocument()
    expect(screen.getByText('تصویر رسید را بارگذاری کنید')).toBeInTheDocument()
    expect(urls.filter((u) => u.includes('card-to-card-create'))).toHaveLength(0)
  })

  it('checks the Sheba number on the bank tab', async () => {
    mockFetch(null)
    renderWithProviders(<CreditPage />, { route: '/wallet/credit' })
    await openTab('tab-bank')
    fireEvent.change(await screen.findByTestId('offline-source'), { target: { value: 'IR060170000000123456789012' } })
    fireEvent.click(screen.getByTestId('offline-submit'))
    expect(await screen.findByText('شماره حساب اشتباه است')).toBeInTheDocument()
    expect(screen.queryByTestId('offline-tax')).toBeNull()
  })

  it('buys a charge package through the bank and shows the today gift', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, origin: 'http://panel.test', assign })
    const urls = mockFetch({ url: '/sandbox-bank/pay/P1', payment_id: 2, amount: 2000000, tax: 200000, total: 2200000, bonus: 300000 }, 200, {
      ...SIDE,
      '/payment/charge-packages/dynamics': [{ id: 7, title: 'بسته طلایی', description: '', amount: 2000000, bonus: 300000, tax: 200000, total: 2200000 }],
      '/payment/promotion/today-charge': { available: true, received: false, id: 3, title: 'هدیه امروز', amount: 400000 },
    })
    renderWithProviders(<CreditPage />, { route: '/wallet/credit' })
    expect(await screen.findByTestId('today-gift')).toHaveTextContent('۴۰۰٬۰۰۰ ریال')
    fireEvent.click(await screen.findByTestId('buy-package-7'))
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/sandbox-bank/pay/P1'))
    expect(urls.some((u) => u.includes('/payment/charge-packages/select'))).toBe(true)
  })
})

describe('PaymentResultPage', () => {
  it('shows the credited amount of a paid payment', async () => {
    mockFetch({ id: 5, amount: 2000000, tax: 200000, total: 2200000, state: 'paid', message: PAYMENT_MESSAGES.paid,
      bank_ref: '123', description: '', refund_state: '', created_at: '2025-03-21T06:30:00Z', settled_at: null })
    renderWithProviders(<PaymentResultPage />, { route: '/wallet/payment-result?id=5&status=paid&amount=2000000' })
    expect(await screen.findByTestId('credited')).toHaveTextContent('۲٬۰۰۰٬۰۰۰ ریال')
    expect(screen.getByText(PAYMENT_MESSAGES.paid)).toBeInTheDocument()
  })

  it('shows the failure message for a refused callback and an error state when the payment cannot be read', async () => {
    mockFetch(null)
    renderWithProviders(<PaymentResultPage />, { route: '/wallet/payment-result?status=invalid' })
    expect(screen.getByText(PAYMENT_MESSAGES.failed)).toBeInTheDocument()
    vi.unstubAllGlobals()
    mockFetch(null, 500)
    renderWithProviders(<PaymentResultPage />, { route: '/wallet/payment-result?id=7&status=paid' })
    expect(await screen.findByText('خطا در دریافت اطلاعات')).toBeInTheDocument()
  })
})
