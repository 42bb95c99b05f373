import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, downloadFile, request, type DownloadProgress, type Paged, type Query } from '../../lib/api'
import { postFormWithProgress } from '../../lib/files'

// ---- Online payment: the credit page and the payment result (GET /payment/generate-url, /payment/online/:id) ----

/** A created online payment and the bank page to send the payer to. */
export interface PaymentLink {
  url: string
  payment_id: number
  amount: number
  tax: number
  total: number
  /** The charge package's bonus and the today gift promised to this payment (rials). */
  bonus?: number
  gift?: number
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

/** The account's price of a one-part message per operator (GET /user/get_tariff), for the top-up form's count. */
export function useOnePartPrices() {
  return useQuery({
    queryKey: ['wallet', 'one-part-prices'],
    queryFn: async ({ signal }) => {
      const t = await api.get<{ operators: Array<{ operator: string; encodings: Array<{ one_part: number }> }> }>('/user/get_tariff', undefined, signal)
      return t.operators.map((o) => o.encodings[0]?.one_part ?? 0)
    },
    staleTime: 5 * 60_000,
  })
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

// --- Offline payments, charge packages and the today gift (/wallet/credit) ---

/** The platform's card and account offline payments go to (GET /user/setting/parent_account_contact). */
export interface Destination {
  card_number: string
  card_owner: string
  bank_name: string
  sheba: string
  account_number: string
  account_owner: string
}

export interface PaymentMethod {
  key: 'online' | 'card' | 'bank'
  title: string
  enabled: boolean
}

export interface CardOwner {
  card_number: string
  owner: string
  bank_name: string
}

export type OfflineState = 'pending' | 'approved' | 'rejected'

/** One card-to-card or bank transfer report. */
export interface OfflinePayment {
  id: number
  method: 'card' | 'bank'
  amount: number
  tax: number
  credit: number
  source: string
  tracking_number: string
  transferred_at: string
  receipt_name: string
  state: OfflineState
  reason: string
  created_at: string
  decided_at: string | null
}

/** A staff-configured charge package: paying amount (plus tax) credits amount, then bonus. */
export interface ChargePackage {
  id: number
  title: string
  description: string
  amount: number
  bonus: number
  tax: number
  total: number
}

export interface TodayGift {
  available: boolean
  received: boolean
  id?: number
  title?: string
  description?: string
  amount?: number
  ends_at?: string | null
}

export const offlineKeys = {
  destination: ['wallet', 'destination'] as const,
  methods: ['wallet', 'payment-methods'] as const,
  cardOwner: ['wallet', 'card-owner'] as const,
  list: (page: number) => ['wallet', 'offline', page] as const,
  all: ['wallet', 'offline'] as const,
  packages: ['wallet', 'charge-packages'] as const,
  todayGift: ['wallet', 'today-gift'] as const,
}

export const useDestination = () =>
  useQuery({ queryKey: offlineKeys.destination, queryFn: ({ signal }) => api.get<Destination>('/user/setting/parent_account_contact', undefined, signal) })

export const usePaymentMethods = () =>
  useQuery({ queryKey: offlineKeys.methods, queryFn: ({ signal }) => api.get<PaymentMethod[]>('/user/setting/payment_method_list', undefined, signal) })

/** The destination card's owner, kept 60 seconds (spec §7). */
export const useCardOwner = () =>
  useQuery({
    queryKey: offlineKeys.cardOwner,
    queryFn: ({ signal }) => api.get<CardOwner>('/payment/offline/card-owner', undefined, signal),
    staleTime: 60_000,
  })

export const useOfflinePayments = (page: number) =>
  useQuery({
    queryKey: offlineKeys.list(page),
    queryFn: ({ signal }) => api.page<OfflinePayment>('/payment/offline/list', { page, limit: 10 }, signal),
    placeholderData: keepPreviousData,
  })

/** The fields of a report; the receipt travels as the multipart file «receipt». */
export interface OfflineReport {
  method: 'card' | 'bank'
  amount: number
  source: string
  tracking_number: string
  transferred_at: Date
  receipt: File
}

/**
 * Sends a report with upload progress; on success the offline list and the transactions
 * list are refreshed (spec §4 Payment).
 */
export function useSubmitOffline(onProgress: (loaded: number, total: number) => void) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (r: OfflineReport) => {
      const form = new FormData()
      form.append('amount', String(r.amount))
      form.append(r.method === 'card' ? 'card_number' : 'sheba', r.source)
      form.append('tracking_number', r.tracking_number)
      form.append('transferred_at', r.transferred_at.toISOString().replace(/\.\d{3}Z$/, 'Z'))
      form.append('receipt', r.receipt)
      const path = r.method === 'card' ? '/payment/offline/card-to-card-create' : '/payment/offline/bank-pay-create'
      return postFormWithProgress<OfflinePayment>(path, form, r.receipt.size, onProgress).promise
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: offlineKeys.all })
      void qc.invalidateQueries({ queryKey: walletKeys.allTransactions })
    },
  })
}

export const useChargePackages = () =>
  useQuery({ queryKey: offlineKeys.packages, queryFn: ({ signal }) => api.get<ChargePackage[]>('/payment/charge-packages/dynamics', undefined, signal) })

export const useTodayGift = () =>
  useQuery({ queryKey: offlineKeys.todayGift, queryFn: ({ signal }) => api.get<TodayGift>('/payment/promotion/today-charge', undefined, signal) })

/** Starts the online payment of a charge package and returns the bank link. */
export function useSelectPackage() {
  return useMutation({
    mutationFn: (packageId: number) =>
      api.post<PaymentLink>('/payment/charge-packages/select', {
        package_id: packageId,
        callbackUrl: `${window.location.origin}/wallet/payment-result`,
      }),
    retry: false,
  })
}
