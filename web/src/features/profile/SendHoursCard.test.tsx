import { fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { toaster } from '../../lib/toaster'
import { appClient, renderWithProviders } from '../../testing/render'
import { SendHoursCard } from './SendHoursCard'

const NO_OVERLAP = 'ساعت‌های انتخابی شما با ساعت مجاز اپراتورها هیچ هم‌پوشانی ندارد'

/** GET /send/hours answers the operators' window and the account's hours; POST refuses them (422, field send_hours). */
function stubHours() {
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    const envelope = (status: number, data: unknown, meta: object = {}) =>
      new Response(JSON.stringify({ data, meta: { status, ...meta } }), { status })
    if (init?.method === 'POST') return envelope(422, null, { message: NO_OVERLAP, errors: { send_hours: [NO_OVERLAP] } })
    if (String(url).includes('/send/hours')) {
      return envelope(200, { operators: [{ operator: '', line_kind: 'advertising', from: '07:00', to: '22:00' }], own: { from: '09:00', to: '20:00' }, operator_codes: [] })
    }
    return envelope(404, null, { message: 'یافت نشد' })
  }))
}

describe('SendHoursCard', () => {
  afterEach(() => vi.restoreAllMocks())

  // Hours that leave nothing of the operators' window are refused under the field, once:
  // not in a toast as well.
  it('shows a refusal of the hours under the field and nowhere else', async () => {
    stubHours()
    const toast = vi.spyOn(toaster, 'create')
    renderWithProviders(<SendHoursCard />, { queryClient: appClient() })
    fireEvent.click(await screen.findByTestId('settings-send-hours-save'))
    expect(await screen.findByText(NO_OVERLAP)).toBeTruthy()
    expect(toast).not.toHaveBeenCalled()
  })
})
