import { describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import { renderWithProviders, testClient } from '../../testing/render'
import { StubStatus, failRefresh, stubApi } from '../../testing/stubs'
import PaymentResultPage from './PaymentResultPage'

const PENDING = {
  id: 41, amount: 1_000_000, tax: 100_000, total: 1_100_000, state: 'pending', message: '', bank_ref: '',
  description: '', refund_state: '', created_at: '2026-11-28T08:00:00Z', settled_at: null,
}

describe('PaymentResultPage', () => {
  it('keeps a payment waiting for its result on screen when a check fails, with a note', async () => {
    stubApi({ '/payment/online/41': () => PENDING })
    const queryClient = testClient()
    renderWithProviders(<PaymentResultPage />, { route: '/wallet/payment-result?id=41', queryClient })
    expect(await screen.findByTestId('payment-result')).toHaveAttribute('data-state', 'pending')
    await failRefresh(queryClient, '/payment/online/41', ['wallet', 'payment'])
    expect(await screen.findByTestId('stale-note')).toBeInTheDocument()
    expect(screen.getByTestId('payment-result')).toHaveAttribute('data-state', 'pending')
  })

  it('shows the error with a retry when the payment was never loaded', async () => {
    stubApi({ '/payment/online/42': () => { throw new StubStatus(503) } })
    const queryClient = testClient()
    renderWithProviders(<PaymentResultPage />, { route: '/wallet/payment-result?id=42', queryClient })
    expect(await screen.findByRole('button', { name: /تلاش/ })).toBeInTheDocument()
    expect(screen.queryByTestId('payment-result')).not.toBeInTheDocument()
  })
})
