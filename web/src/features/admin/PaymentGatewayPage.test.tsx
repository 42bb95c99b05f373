import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { appClient, renderWithProviders } from '../../testing/render'
import PaymentGatewayPage from './PaymentGatewayPage'

const NEEDED = 'برای فعال‌کردن زرین‌پال، مرچنت کد را وارد کنید'
const GATEWAYS = [
  { name: 'sandbox', title: 'بانک آزمایشی (بدون پرداخت واقعی)', ready: true },
  { name: 'zarinpal', title: 'زرین‌پال', ready: false },
  { name: 'sep', title: 'سامان (سپ)', ready: true },
]

type Call = { method: string; body: unknown }

/** GET answers the sandbox active and SEP's terminal masked; POST refuses Zarinpal without its id, else saves. */
function stubGateway(calls: Call[], { failGet = false } = {}) {
  vi.stubGlobal('fetch', vi.fn(async (_url: string, init?: RequestInit) => {
    const envelope = (status: number, data: unknown, meta: object = {}) =>
      new Response(JSON.stringify({ data, meta: { status, ...meta } }), { status })
    const method = init?.method ?? 'GET'
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method, body })
    if (method === 'GET') {
      if (failGet) return envelope(500, null, { message: 'خطا در دریافت اطلاعات' })
      return envelope(200, { active: 'sandbox', gateways: GATEWAYS, zarinpal_merchant_id: '', sep_terminal_id: '••••9246', updated_at: null })
    }
    if (body.active === 'zarinpal' && !body.zarinpal_merchant_id) {
      return envelope(422, null, { message: NEEDED, errors: { zarinpal_merchant_id: [NEEDED] } })
    }
    return envelope(200, { active: body.active, gateways: GATEWAYS, zarinpal_merchant_id: '••••••••1f00', sep_terminal_id: '••••9246', updated_at: null })
  }))
}

describe('PaymentGatewayPage', () => {
  afterEach(() => vi.restoreAllMocks())

  // The stored terminal id shows masked; choosing Zarinpal without its merchant id is refused
  // under the field; with it, the choice and the id are sent and the field empties again.
  it('shows ids masked, refuses a gateway without its id and sends a new one', async () => {
    const calls: Call[] = []
    stubGateway(calls)
    renderWithProviders(<PaymentGatewayPage />, { queryClient: appClient() })
    expect(await screen.findByText(/ثبت‌شده: \u2066••••9246\u2069/)).toBeTruthy()
    expect(screen.getByText('شناسه ثبت نشده')).toBeTruthy()
    fireEvent.click(screen.getByTestId('gateway-zarinpal'))
    fireEvent.click(screen.getByTestId('gateway-save'))
    expect(await screen.findByText(NEEDED)).toBeTruthy()
    fireEvent.change(screen.getByTestId('gateway-zarinpal-id'), { target: { value: '0b7e3a52-9c1d-4f6e-8a2b-5d4c3b2a1f00' } })
    fireEvent.click(screen.getByTestId('gateway-save'))
    expect(await screen.findByTestId('gateway-saved')).toBeTruthy()
    const posts = calls.filter((c) => c.method === 'POST')
    expect(posts.at(-1)?.body).toEqual({ active: 'zarinpal', zarinpal_merchant_id: '0b7e3a52-9c1d-4f6e-8a2b-5d4c3b2a1f00', sep_terminal_id: '' })
    await waitFor(() => expect((screen.getByTestId('gateway-zarinpal-id') as HTMLInputElement).value).toBe(''))
  })

  // A settings read that fails shows the error state with a retry, not an empty form.
  it('shows the error state when the settings cannot be read', async () => {
    stubGateway([], { failGet: true })
    renderWithProviders(<PaymentGatewayPage />, { queryClient: appClient() })
    expect(await screen.findByText('تلاش مجدد')).toBeTruthy()
    expect(screen.queryByTestId('gateway-form')).toBeNull()
  })
})
