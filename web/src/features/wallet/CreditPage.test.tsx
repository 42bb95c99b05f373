import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { renderWithProviders } from '../../testing/render'
import CreditPage from './CreditPage'
import PaymentResultPage from './PaymentResultPage'
import { PAYMENT_MESSAGES } from './payment'

function mockFetch(data: unknown, status = 200) {
  const urls: string[] = []
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    urls.push(String(url))
    const meta = { status, message: status === 200 ? 'ok' : 'خطا', errors: {} }
    return new Response(JSON.stringify({ data: status === 200 ? data : null, meta }), { status })
  }))
  return urls
}

afterEach(() => vi.unstubAllGlobals())

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
