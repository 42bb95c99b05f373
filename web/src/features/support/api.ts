import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, type Query } from '../../lib/api'
import { postFormWithProgress } from '../../lib/files'

/** A request's state (spec §4 «Ticket and suggestion», 1–6). */
export type TicketState = 1 | 2 | 3 | 4 | 5 | 6
export type TicketKind = 'ticket' | 'suggestion'

export interface Category {
  id: number
  parent_id: number | null
  title: string
}

export interface Ticket {
  id: number
  number: number
  kind: TicketKind
  category_id: number | null
  category: string
  sub_category_id: number | null
  sub_category: string
  title: string
  state: TicketState
  state_label: string
  rating: number | null
  rating_comment: string
  assigned_to: number | null
  assigned_name: string
  account_id: number
  account_name: string
  created_at: string
  updated_at: string
  closed_at: string | null
}

export interface Attachment {
  id: number
  name: string
  content_type: string
  size: number
}

export interface Interaction {
  id: number
  staff: boolean
  author: string
  text: string
  rating: number | null
  created_at: string
  attachments: Attachment[]
}

export interface TicketDetail extends Ticket {
  interactions: Interaction[]
  notice: string
}

export interface StateCount {
  state: TicketState
  label: string
  count: number
}

export interface FAQCategory {
  id: number
  title: string
  position: number
  count: number
}

export interface FAQ {
  id: number
  category_id: number
  category: string
  question: string
  answer: string
  position: number
  active: boolean
}

export interface ContactItem {
  id: number
  title: string
  body: string
  link: string
}

export interface Canned {
  id: number
  title: string
  text: string
}

export interface TicketSettings {
  sms_on_answer: boolean
}

export interface NewTicket {
  kind: TicketKind
  category_id?: number | null
  sub_category_id?: number | null
  title: string
  text: string
  files: File[]
}

export const supportKeys = {
  all: ['support'] as const,
  list: (q: Query) => ['support', 'list', q] as const,
  detail: (id: string | number) => ['support', 'ticket', String(id)] as const,
  summary: ['support', 'summary'] as const,
  admin: ['admin', 'support'] as const,
}

export const useCategories = (parent?: number | null) =>
  useQuery({
    queryKey: ['support', 'categories', parent ?? 0],
    queryFn: ({ signal }) =>
      parent ? api.get<Category[]>('/ticket/sub_category', { category_id: parent }, signal) : api.get<Category[]>('/ticket/category', undefined, signal),
    enabled: parent !== null,
    staleTime: 300_000,
  })

export const useTickets = (q: Query) =>
  useQuery({ queryKey: supportKeys.list(q), queryFn: ({ signal }) => api.page<Ticket>('/ticket', q, signal) })

export const useTicketSummary = () =>
  useQuery({ queryKey: supportKeys.summary, queryFn: ({ signal }) => api.get<StateCount[]>('/ticket/summary', undefined, signal) })

export const useTicket = (id: string | undefined) =>
  useQuery({
    queryKey: supportKeys.detail(id ?? ''),
    queryFn: ({ signal }) => api.get<TicketDetail>(`/ticket/show/${id}`, undefined, signal),
    enabled: !!id && /^\d+$/.test(id),
    retry: false,
  })

function ticketForm(fields: Record<string, string | number | null | undefined>, files: File[]): FormData {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) if (v !== undefined && v !== null && v !== '') form.append(k, String(v))
  for (const f of files) form.append('attachments', f)
  return form
}

const totalSize = (files: File[]) => files.reduce((n, f) => n + f.size, 0) || 1

/** A support mutation that refreshes every support query on success. */
function useSupportMutation<In, Out>(fn: (input: In) => Promise<Out>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: supportKeys.all }) })
}

/** A ticket suggested from a free-text problem (POST /ticket/ai): category, sub-category and title. */
export interface TicketDraft {
  category_id: number
  category: string
  sub_category_id: number
  sub_category: string
  title: string
  text: string
}

/** Asks the writing assistant for a ticket draft; nothing is stored until the form is sent. */
export const useDraftTicket = () => useMutation({ mutationFn: (text: string) => api.post<TicketDraft>('/ticket/ai', { text }) })

export const useCreateTicket = (onProgress: (loaded: number, total: number) => void) =>
  useSupportMutation((t: NewTicket) =>
    postFormWithProgress<TicketDetail>('/ticket', ticketForm({ kind: t.kind, category_id: t.category_id, sub_category_id: t.sub_category_id, title: t.title, text: t.text }, t.files), totalSize(t.files), onProgress).promise,
  )

export const useReply = (onProgress: (loaded: number, total: number) => void) =>
  useSupportMutation((r: { ticket_id: number; text: string; files: File[] }) =>
    postFormWithProgress<TicketDetail>('/ticket/interaction', ticketForm({ ticket_id: r.ticket_id, text: r.text }, r.files), totalSize(r.files), onProgress).promise,
  )

export const useCloseTicket = () => useSupportMutation((id: number) => api.post<TicketDetail>('/ticket/close', { id }))
export const useRateInteraction = () => useSupportMutation((r: { id: number; rating: number }) => api.post<TicketDetail>('/interaction/rate', r))
export const useRateTicket = () =>
  useSupportMutation((r: { id: number; rating: number; comment: string }) => api.post<TicketDetail>('/ticket/rate', r))

export const useTicketSettings = () =>
  useQuery({ queryKey: ['support', 'settings'], queryFn: ({ signal }) => api.get<TicketSettings>('/ticket/settings', undefined, signal) })
export const useSaveTicketSettings = () => useSupportMutation((s: TicketSettings) => api.post<TicketSettings>('/ticket/settings', s))

export const useSendFeedback = () => useMutation({ mutationFn: (f: { rating: number; text: string; page: string }) => api.post('/ticket/feedback', f) })

export const useFAQCategories = () =>
  useQuery({ queryKey: ['support', 'faq-categories'], queryFn: ({ signal }) => api.get<FAQCategory[]>('/faq/category', undefined, signal) })

export const useFAQs = (categoryId: number, search: string) =>
  useQuery({
    queryKey: ['support', 'faq', categoryId, search],
    queryFn: ({ signal }) => api.get<FAQ[]>('/faq/list', { category_id: categoryId || undefined, search: search || undefined }, signal),
  })

export const useContactInfo = () =>
  useQuery({ queryKey: ['support', 'contact'], queryFn: ({ signal }) => api.get<ContactItem[]>('/panel/contact_info', undefined, signal) })

/** An attachment's download path (customer or staff). */
export const attachmentPath = (id: number, staff: boolean) => (staff ? `/admin/support/attachments/${id}` : `/ticket/attachment/${id}`)

// Back office.

export const useAdminCategories = () =>
  useQuery({ queryKey: [...supportKeys.admin, 'categories'], queryFn: ({ signal }) => api.get<Category[]>('/admin/support/categories', undefined, signal), staleTime: 300_000 })

export const useAdminQueue = (q: Query) =>
  useQuery({ queryKey: [...supportKeys.admin, 'queue', q], queryFn: ({ signal }) => api.page<Ticket>('/admin/support/tickets', q, signal) })

export const useAdminTicket = (id: string | undefined) =>
  useQuery({
    queryKey: [...supportKeys.admin, 'ticket', id],
    queryFn: ({ signal }) => api.get<TicketDetail>(`/admin/support/tickets/${id}`, undefined, signal),
    enabled: !!id && /^\d+$/.test(id),
    retry: false,
  })

function useAdminMutation<In, Out>(fn: (input: In) => Promise<Out>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: supportKeys.admin }) })
}

export const useAdminAnswer = () =>
  useAdminMutation((a: { id: number; text: string; action: 'staff_answer' | 'staff_ask'; files: File[] }) =>
    api.post<TicketDetail>(`/admin/support/tickets/${a.id}/answer`, ticketForm({ text: a.text, action: a.action }, a.files)),
  )
export const useAdminState = () =>
  useAdminMutation((a: { id: number; state: TicketState }) => api.post<TicketDetail>(`/admin/support/tickets/${a.id}/state`, { state: a.state }))
export const useAdminAssign = () =>
  useAdminMutation((a: { id: number; staff_id: number }) => api.post<TicketDetail>(`/admin/support/tickets/${a.id}/assign`, { staff_id: a.staff_id }))

export interface StaffUser {
  id: number
  username: string
  name: string
  status: string
}
export const useStaffUsers = () =>
  useQuery({ queryKey: [...supportKeys.admin, 'staff'], queryFn: async ({ signal }) => (await api.page<StaffUser>('/admin/staff', { limit: 100 }, signal)).rows })

export const useCanned = () =>
  useQuery({ queryKey: [...supportKeys.admin, 'canned'], queryFn: ({ signal }) => api.get<Canned[]>('/admin/support/canned', undefined, signal) })
export const useSaveCanned = () => useAdminMutation((c: Partial<Canned>) => api.post<Canned>('/admin/support/canned', c))
export const useDeleteCanned = () => useAdminMutation((id: number) => api.post(`/admin/support/canned/${id}/delete`))

export const useAdminFAQs = () =>
  useQuery({ queryKey: [...supportKeys.admin, 'faq'], queryFn: ({ signal }) => api.get<FAQ[]>('/admin/support/faq', undefined, signal) })
export const useAdminFAQCategories = () =>
  useQuery({ queryKey: [...supportKeys.admin, 'faq-categories'], queryFn: ({ signal }) => api.get<FAQCategory[]>('/admin/support/faq/categories', undefined, signal) })
export const useSaveFAQ = () => useAdminMutation((f: Partial<FAQ>) => api.post<FAQ>('/admin/support/faq', f))
export const useDeleteFAQ = () => useAdminMutation((id: number) => api.post(`/admin/support/faq/${id}/delete`))
export const useSaveFAQCategory = () => useAdminMutation((c: Partial<FAQCategory>) => api.post<FAQCategory>('/admin/support/faq/categories', c))

export interface FeedbackRow {
  id: number
  account_id: number
  account_name: string
  rating: number
  text: string
  page: string
  created_at: string
}
export const useAdminFeedback = (q: Query) =>
  useQuery({ queryKey: [...supportKeys.admin, 'feedback', q], queryFn: ({ signal }) => api.page<FeedbackRow>('/admin/support/feedback', q, signal) })
