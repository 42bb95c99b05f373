import { useMutation, useQuery } from '@tanstack/react-query'
import { api } from '../../lib/api'

// ---- Online payment: the credit page and the payment result (GET /payment/generate-url, /payment/online/:id) ----

/** A created online payment and the bank page to send the payer to. */
export interface PaymentLink {
  url: string
  payment_id: number
  amount: number
  tax: number
  total: number
}

export type PaymentState = 'pending' | 'paid' | 'failed' | 'expired'

/** One online payment as its owner sees it. */
export interface OnlinePayment {
  id: number
  amount: number
  tax: number
  total: number
  state: PaymentState
  message: string
  bank_ref: string
  description: string
  refund_state: '' | 'due' | 'returned'
  created_at: string
  settled_at: string | null
}

export const paymentKeys = {
  payment: (id: string) => ['wallet', 'payment', id] as const,
}

/** Asks for a payment link of amount rials (the tax is added by the server) and returns it. */
export function useStartPayment() {
  return useMutation({
    mutationFn: (amount: number) =>
      api.get<PaymentLink>('/payment/generate-url', {
        amount,
        callbackUrl: `${window.location.origin}/wallet/payment-result`,
        description: 'شارژ کیف پول',
      }),
    retry: false,
  })
}

/** One payment; a pending payment is asked again every 10 seconds until it resolves. */
export function useOnlinePayment(id: string) {
  return useQuery({
    queryKey: paymentKeys.payment(id),
    queryFn: ({ signal }) => api.get<OnlinePayment>(`/payment/online/${id}`, undefined, signal),
    enabled: /^\d+$/.test(id),
    refetchInterval: (q) => (q.state.data?.state === 'pending' ? 10_000 : false),
  })
}

// ---- end of online payment ----
