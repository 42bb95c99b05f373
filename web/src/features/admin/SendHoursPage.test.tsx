import { fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { toaster } from '../../lib/toaster'
import { appClient, renderWithProviders } from '../../testing/render'
import SendHoursPage from './SendHoursPage'

const BAD_HOURS = 'ساعت شروع و پایان را به شکل ساعت:دقیقه وارد کنید؛ شروع باید پیش از پایان باشد'

/** GET /admin/send-hours answers the «همه اپراتورها» row; POST refuses the hours (422, field to). */
function stubRules() {
  vi.stubGlobal('fetch', vi.fn(async (_url: string, init?: RequestInit) => {
    const envelope = (status: number, data: unknown, meta: object = {}) =>
      new Response(JSON.stringify({ data, meta: { status, ...meta } }), { status })
    if (init?.method === 'POST') return envelope(422, null, { message: BAD_HOURS, errors: { to: [BAD_HOURS] } })
    return envelope(200, { rules: [{ operator: '', line_kind: 'advertising', from: '07:00', to: '22:00' }], operator_codes: ['mci', 'irancell'] })
  }))
}

describe('SendHoursPage', () => {
  afterEach(() => vi.restoreAllMocks())

  // A window whose start is after its end is refused under the field, once: not in a toast as well.
  it('shows a refusal of the window under its field and nowhere else', async () => {
    stubRules()
    const toast = vi.spyOn(toaster, 'create')
    renderWithProviders(<SendHoursPage />, { queryClient: appClient() })
    await screen.findAllByText('همه اپراتورها')
    fireEvent.change(screen.getByTestId('hours-from'), { target: { value: '۲۱:۰۰' } })
    fireEvent.change(screen.getByTestId('hours-to'), { target: { value: '۰۸:۰۰' } })
    fireEvent.click(screen.getByTestId('hours-save'))
    expect(await screen.findByText(BAD_HOURS)).toBeTruthy()
    expect(toast).not.toHaveBeenCalled()
  })
})
