import { describe, expect, it, vi } from 'vitest'
import { screen } from '@testing-library/react'
import { renderWithProviders } from '../../testing/render'
import { OfflinePaymentDialog } from './OfflinePaymentDialog'

const payment = {
  id: 7, account_id: 3, method: 'card', amount: 2000000, tax: 200000, credit: 1800000, source: '6037991234567893',
  tracking_number: '123456789', transferred_at: '2026-11-30T10:00:00Z', receipt_name: 'r.png', receipt_type: 'image/png',
  state: 'pending', reason: '', created_at: '2026-11-30T10:05:00Z',
}

function serve(others: unknown[] | undefined) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    if (String(url).endsWith('/receipt')) return new Response(new Blob(['x'], { type: 'image/png' }), { status: 200 })
    return new Response(JSON.stringify({ data: { ...payment, others }, meta: { status: 200 } }), { status: 200 })
  }))
}

describe('OfflinePaymentDialog', () => {
  it('warns the reviewer of another report of the same transfer', async () => {
    serve([{ id: 5, account_id: 9, account_name: 'فروشگاه دیگر', amount: 2000000, state: 'approved', created_at: '2026-11-30T09:00:00Z' }])
    renderWithProviders(<OfflinePaymentDialog id={7} onClose={() => {}} />)
    const warning = await screen.findByTestId('offline-others')
    expect(warning).toHaveTextContent('این واریز گزارش دیگری هم دارد')
    expect(warning).toHaveTextContent('فروشگاه دیگر')
    expect(warning).toHaveTextContent('تأییدشده')
  })

  it('shows no warning for a transfer reported once', async () => {
    serve(undefined)
    renderWithProviders(<OfflinePaymentDialog id={7} onClose={() => {}} />)
    await screen.findByTestId('offline-detail')
    expect(screen.queryByTestId('offline-others')).toBeNull()
  })
})
