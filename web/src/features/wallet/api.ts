import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, downloadFile, request, type DownloadProgress, type Paged, type Query } from '../../lib/api'

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

/** Downloads the PDF invoice (فاکتور) of a paid payment (GET /payment/invoice/:id). */
export function downloadInvoice(paymentId: number): Promise<void> {
  return downloadFile(`/payment/invoice/${paymentId}`, {}, `invoice-${paymentId}.pdf`)
}

// ---- end of online payment ----

// --- Transactions and low-balance alert (/wallet/transactions) ---

/** One ledger row (POST /report/payment/new): amount is its size, type its direction. */
export interface Transaction {
  id: number
  date: string
  type: 'deposit' | 'withdrawal'
  kind: string
  kind_title: string
  amount: number
  balance_after: number
  description: string
  send_id: number | null
  /** The online payment a credit came from (its invoice can be downloaded), or null. */
  payment_id?: number | null
}

export const walletKeys = {
  transactions: (params: Query) => ['wallet', 'transactions', params] as const,
  allTransactions: ['wallet', 'transactions'] as const,
  lowBalance: ['wallet', 'low-balance'] as const,
}

/** One page of the ledger; the filters travel in the POST body (spec §7 Payment). */
export async function fetchTransactions(params: Query, signal?: AbortSignal): Promise<Paged<Transaction>> {
  const { data, meta } = await request<Transaction[]>('/report/payment/new', { method: 'POST', body: params, signal })
  const rows = Array.isArray(data) ? data : []
  return { rows, meta: { page: meta.page ?? 1, limit: meta.limit ?? rows.length, total: meta.total ?? rows.length } }
}

export function useTransactions(params: Query) {
  return useQuery({
    queryKey: walletKeys.transactions(params),
    queryFn: ({ signal }) => fetchTransactions(params, signal),
    placeholderData: keepPreviousData,
  })
}

/** Streams the filtered ledger as Excel (POST /report/payment/export/new, export_type «financial»). */
export function exportTransactions(filters: Query, onProgress: DownloadProgress): Promise<void> {
  return downloadFile('/report/payment/export/new', {}, 'transactions.xlsx', onProgress, {
    body: { export_type: 'financial', ...filters },
  })
}

/** The owner's low-balance alert (GET/POST /user/setting/low_balance). */
export interface LowBalanceSetting {
  enabled: boolean
  threshold: number
  minimum: number
  balance: number
  below: boolean
}

export function useLowBalance() {
  return useQuery({
    queryKey: walletKeys.lowBalance,
    queryFn: ({ signal }) => api.get<LowBalanceSetting>('/user/setting/low_balance', undefined, signal),
    retry: false,
  })
}

export function useSaveLowBalance() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: { enabled: boolean; threshold: number }) => api.post<LowBalanceSetting>('/user/setting/low_balance', body),
    onSuccess: (data) => qc.setQueryData(walletKeys.lowBalance, data),
  })
}
