import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, buildUrl, ApiError, type Paged } from '../../lib/api'
import { getAdminToken } from '../../lib/auth'
import { keepDeviceToken, withDeviceToken } from '../../lib/device'

/** The back office's API (/v1/api/admin/*): staff login, review queues, accounts. */

export type StaffLoginResult = { token?: string; otp_required?: boolean; login_token?: string; mobile_hint?: string }

export interface Queue {
  kind: string
  title: string
  pending: number
}

export type ReviewStatus = 'pending' | 'approved' | 'rejected'

export interface ReviewItem {
  id: number
  kind: string
  account_id: number
  account_name: string
  subject_id: number
  status: ReviewStatus
  reasons: string[]
  summary: string
  decision: string
  decided_by?: string
  decided_at?: string
  created_at: string
}

export interface AdminAccount {
  id: number
  name: string
  status: 'active' | 'suspended'
  username: string
  mobile: string
  balance: number
  sends: number
  created_at: string
}

export interface Tariff {
  operator: string
  part_price: number
  surcharge_pct: number
  send_fee: number
  own: boolean
}

export type ContentKind = 'news' | 'banner' | 'quick_access' | 'faq' | 'contact' | 'charge_package' | 'today_gift'

export interface ContentItem {
  id: number
  kind: ContentKind
  title: string
  body: string
  link: string
  amount: number
  /** A charge package's bonus credit (rials). */
  bonus?: number
  position: number
  active: boolean
  starts_at: string | null
  ends_at: string | null
  placement: 'strip' | 'carousel'
  action: 'popup' | 'same_window' | 'new_tab'
  /** A banner's pictures (panel paths); the mobile one falls back to image, none keeps the text face. */
  image: string
  image_mobile: string
}

/** An offline payment under review (GET /admin/offline-payments/:id). */
export interface AdminOfflinePayment {
  id: number
  account_id: number
  method: 'card' | 'bank'
  amount: number
  tax: number
  credit: number
  source: string
  tracking_number: string
  transferred_at: string
  receipt_name: string
  receipt_type: string
  state: 'pending' | 'approved' | 'rejected'
  reason: string
  created_at: string
  /** Other reports of the same transfer (destination and tracking number), any account and state. */
  others?: OfflineTransferReport[]
}

/** Another report of the same transfer, as the reviewer sees it. */
export interface OfflineTransferReport {
  id: number
  account_id: number
  account_name: string
  amount: number
  state: 'pending' | 'approved' | 'rejected'
  created_at: string
}

/** The receipt of an offline payment as a Blob (staff-only route, so fetched with the staff token). */
async function offlineReceipt(id: number): Promise<Blob> {
  const res = await fetch(buildUrl(`/admin/offline-payments/${id}/receipt`), { headers: { Authorization: `Bearer ${getAdminToken() ?? ''}` } })
  if (!res.ok) throw new ApiError({ status: res.status })
  return res.blob()
}
export interface StaffUser {
  id: number
  username: string
  name: string
  mobile: string
  status: 'active' | 'disabled'
  last_login: string | null
  created_at: string
  /** May read the operations page (staff.operations). */
  operations: boolean
}

export type StaffUserInput = { username: string; name: string; mobile: string; password: string }

export interface ModerationRules {
  words: string[]
  links: boolean
  new_account_sends: number
  new_account_size: number
}

/** A pattern version under review with the one before it (GET /admin/patterns/versions/:id). */
export interface PatternVersionReview {
  pattern_id: number
  code: string
  kind: string
  account: string
  version: PatternVersion
  previous?: PatternVersion
}

export interface PatternVersion {
  id: number
  version: number
  status: ReviewStatus
  title: string
  description: string
  text: string
  variables: { name: string; type: string; length: number }[]
  kind: string
}

/** A systemic pattern: the platform's own, read by every customer. */
export interface SystemicPattern {
  id: number
  code: string
  kind: 'otp' | 'transactional' | 'normal'
  title: string
  description: string
  text: string
  variables: PatternVersion['variables']
  version: number
  updated_at: string
}

export type SystemicInput = Pick<SystemicPattern, 'kind' | 'title' | 'description' | 'text' | 'variables'>

/** One SMPP bind on the operations page: its state at the gateway holding it ("" when none does). */
export interface OperationsBind {
  name: string
  operator: string
  state: string
  bound: boolean
  gateway: string
}

/** One asynq task queue on the operations page. */
export interface OperationsQueue {
  name: string
  pending: number
  active: number
  scheduled: number
  retry: number
  archived: number
  latency_seconds: number
  paused: boolean
}

/** GET /admin/operations: the binds, the gateways' rates per second and the task queues, now. */
export interface OperationsOverview {
  at: string
  gateways: number
  throughput: { submits: number; receipts: number }
  binds: OperationsBind[]
  queues: OperationsQueue[]
}

/** An inbound entry (receipt or MO part) the worker quarantined: its raw bytes in hex, why, when. */
export interface QuarantinedEntry {
  id: number
  stream_id: string
  raw_hex: string
  reason: string
  created_at: string
}

export const adminApi = {
  login: (body: { username: string; password: string }) => api.post<StaffLoginResult>('/admin/auth/login', withDeviceToken(body)),
  confirm: (body: { login_token: string; code: string }) =>
    api.post<{ token: string }>('/admin/auth/confirm_otp', withDeviceToken(body)).then(keepDeviceToken),
  resend: (login_token: string) => api.post<unknown>('/admin/auth/send_sms_otp', { login_token, method: 'sms' }),
  logout: () => api.post<unknown>('/admin/auth/logout'),
  me: () => api.get<{ id: number; name: string; user_name: string; operations: boolean }>('/admin/me'),
  operations: () => api.get<OperationsOverview>('/admin/operations'),
  setStaffOperations: (id: number, operations: boolean) => api.post<StaffUser>(`/admin/staff/${id}/operations`, { operations }),
  staffUsers: (q: { page?: number; limit?: number }) => api.page<StaffUser>('/admin/staff', q),
  quarantine: (q: { page?: number; limit?: number }) => api.page<QuarantinedEntry>('/admin/inbound-quarantine', q),
  addStaffUser: (body: StaffUserInput) => api.post<StaffUser>('/admin/staff', body),
  setStaffStatus: (id: number, status: StaffUser['status']) => api.post<StaffUser>(`/admin/staff/${id}/status`, { status }),
  queues: () => api.get<Queue[]>('/admin/reviews'),
  items: (q: { kind?: string; status?: ReviewStatus; page?: number; limit?: number }) =>
    api.page<ReviewItem>('/admin/reviews/items', q),
  approve: (id: number) => api.post<ReviewItem>(`/admin/reviews/${id}/approve`, {}),
  reject: (id: number, reason: string) => api.post<ReviewItem>(`/admin/reviews/${id}/reject`, { reason }),
  accounts: (q: { q?: string; page?: number; limit?: number }) => api.page<AdminAccount>('/admin/accounts', q),
  adjustCredit: (id: number, body: { amount: number; reason: string }) =>
    api.post<{ balance: number }>(`/admin/accounts/${id}/credit`, body),
  setStatus: (id: number, status: AdminAccount['status']) => api.post<unknown>(`/admin/accounts/${id}/status`, { status }),
  assignLine: (id: number, body: { number: string; kind: 'advertising' | 'service'; default: boolean }) =>
    api.post<unknown>(`/admin/accounts/${id}/lines`, body),
  tariffs: (id: number) => api.get<Tariff[]>(`/admin/accounts/${id}/tariffs`),
  setTariff: (id: number, t: Omit<Tariff, 'own'>) => api.post<unknown>(`/admin/accounts/${id}/tariffs`, t),
  content: (kind: ContentKind) => api.get<ContentItem[]>('/admin/content', { kind }),
  saveContent: (it: Omit<ContentItem, 'id'> & { id?: number }) => api.post<ContentItem>('/admin/content', it),
  deleteContent: (id: number) => api.post<unknown>(`/admin/content/${id}/delete`),
  moderation: () => api.get<ModerationRules>('/admin/moderation'),
  saveModeration: (r: ModerationRules) => api.post<ModerationRules>('/admin/moderation', r),
  loginSetting: () => api.get<{ title: string; description: string; old_panel_url?: string }>('/acl/auth/login_setting'),
  saveOldPanel: (body: { url: string }) => api.post<{ url: string }>('/admin/old_panel', body),
  systemicPatterns: (q: { page?: number; limit?: number }) => api.page<SystemicPattern>('/admin/patterns/systemic', q),
  saveSystemic: ({ id, ...body }: SystemicInput & { id?: number }) =>
    id ? api.put<SystemicPattern>(`/admin/patterns/systemic/${id}`, body) : api.post<SystemicPattern>('/admin/patterns/systemic', body),
  patternVersion: (id: number) => api.get<PatternVersionReview>(`/admin/patterns/versions/${id}`),
  offlinePayment: (id: number) => api.get<AdminOfflinePayment>(`/admin/offline-payments/${id}`),
  offlineReceipt,
  impersonate: (id: number) => api.post<{ code: string; path: string; expires_in: number }>(`/admin/accounts/${id}/impersonate`),
}

const keys = {
  all: ['admin'] as const,
  me: ['admin', 'me'] as const,
  queues: ['admin', 'queues'] as const,
  items: (q: object) => ['admin', 'items', q] as const,
  accounts: (q: object) => ['admin', 'accounts', q] as const,
}

export const useTariffs = (id: number) =>
  useQuery({ queryKey: ['admin', 'tariffs', id], queryFn: () => adminApi.tariffs(id) })
export const useContent = (kind: ContentKind) =>
  useQuery({ queryKey: ['admin', 'content', kind], queryFn: () => adminApi.content(kind) })
export const useModeration = (enabled: boolean) =>
  useQuery({ queryKey: ['admin', 'moderation'], queryFn: adminApi.moderation, enabled })
export const useStaffMe = (enabled: boolean) => useQuery({ queryKey: keys.me, queryFn: adminApi.me, enabled, retry: false })
export const useOfflinePayment = (id: number) =>
  useQuery({ queryKey: ['admin', 'offline', id], queryFn: () => adminApi.offlinePayment(id) })
export const useOfflineReceipt = (id: number) =>
  useQuery({ queryKey: ['admin', 'offline-receipt', id], queryFn: () => adminApi.offlineReceipt(id), staleTime: Infinity })
export const useStaffUsers = (q: Parameters<typeof adminApi.staffUsers>[0]) =>
  useQuery({ queryKey: ['admin', 'staff', q], queryFn: () => adminApi.staffUsers(q) })
export const useQuarantine = (q: Parameters<typeof adminApi.quarantine>[0]) =>
  useQuery({ queryKey: ['admin', 'inbound-quarantine', q], queryFn: () => adminApi.quarantine(q) })
/** The operations page, read again every two seconds (the gateways' heartbeat); a 403 is not retried. */
export const useOperations = () =>
  useQuery({
    queryKey: ['admin', 'operations'], queryFn: adminApi.operations, refetchInterval: OPERATIONS_POLL_MS,
    retry: (n, err) => !(err instanceof ApiError && err.status === 403) && n < 2,
  })

/** How often the operations page is read again. */
export const OPERATIONS_POLL_MS = 2000

export const useQueues = () => useQuery({ queryKey: keys.queues, queryFn: adminApi.queues })
export const useReviewItems = (q: Parameters<typeof adminApi.items>[0]) =>
  useQuery({ queryKey: keys.items(q), queryFn: () => adminApi.items(q) })
export const usePatternVersion = (id: number) =>
  useQuery({ queryKey: ['admin', 'pattern-version', id], queryFn: () => adminApi.patternVersion(id) })
export const useSystemicPatterns = (q: Parameters<typeof adminApi.systemicPatterns>[0]) =>
  useQuery({ queryKey: ['admin', 'systemic', q], queryFn: () => adminApi.systemicPatterns(q) })
export const useAdminAccounts = (q: Parameters<typeof adminApi.accounts>[0]) =>
  useQuery({ queryKey: keys.accounts(q), queryFn: () => adminApi.accounts(q) })

/** A back-office change that refreshes every back-office query; `silent`: the form shows its errors itself (no toast). */
export function useAdminMutation<A, R>(fn: (a: A) => Promise<R>, { silent = false }: { silent?: boolean } = {}) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, meta: { silent }, onSuccess: () => qc.invalidateQueries({ queryKey: keys.all }) })
}

export type { Paged }

/** The seller's details printed on every invoice (GET/POST /admin/invoice-seller); all required. */
export interface InvoiceSeller {
  name: string
  national_id: string
  economic_code: string
  registration_number: string
  address: string
  postal_code: string
  phone: string
}

export const EMPTY_SELLER: InvoiceSeller = { name: '', national_id: '', economic_code: '', registration_number: '', address: '', postal_code: '', phone: '' }

export const invoiceSellerApi = {
  get: () => api.get<{ seller: InvoiceSeller; complete: boolean }>('/admin/invoice-seller'),
  save: (s: InvoiceSeller) => api.post<{ seller: InvoiceSeller; complete: boolean }>('/admin/invoice-seller', s),
}

export const useInvoiceSeller = () => useQuery({ queryKey: [...keys.all, 'invoice-seller'], queryFn: invoiceSellerApi.get })

/** One online payment gateway staff may choose; `ready` when its merchant or terminal id is set. */
export interface GatewayOption {
  name: 'sandbox' | 'zarinpal' | 'sep'
  title: string
  ready: boolean
}

/** The active online gateway and its ids as the API shows them: masked, never in full. */
export interface PaymentGatewaySettings {
  active: string
  gateways: GatewayOption[]
  zarinpal_merchant_id: string
  sep_terminal_id: string
  updated_at: string | null
}

/** What staff submit; an empty id keeps the stored one. */
export interface PaymentGatewayChange {
  active: string
  zarinpal_merchant_id: string
  sep_terminal_id: string
}

export const paymentGatewayApi = {
  get: () => api.get<PaymentGatewaySettings>('/admin/payment-gateway'),
  save: (c: PaymentGatewayChange) => api.post<PaymentGatewaySettings>('/admin/payment-gateway', c),
}

export const usePaymentGateway = () => useQuery({ queryKey: [...keys.all, 'payment-gateway'], queryFn: paymentGatewayApi.get })
