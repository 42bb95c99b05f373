import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, downloadFile, type DownloadProgress, type Query } from '../../lib/api'

/** One received message (GET /report/messages-inbox). */
export interface InboxItem {
  id: number
  line: string
  sender: string
  /** The sender is a number of the bank, shown masked (0912*****67). */
  masked?: boolean
  text: string
  operator: string
  received_at: string
  read_at: string | null
  parts: number
  incomplete: boolean
  reader_id: number | null
  reader_title: string
}

/** A secretary or keyword reader, as the inbox filter lists it. */
export interface ReaderOption {
  id: number
  title: string
}

export const INBOX_KEY = ['inbox'] as const

export function useInbox(query: Query) {
  return useQuery({
    queryKey: [...INBOX_KEY, 'list', query],
    queryFn: ({ signal }) => api.page<InboxItem>('/report/messages-inbox', query, signal),
    placeholderData: (prev) => prev,
  })
}

export function useUnread() {
  return useQuery({
    queryKey: [...INBOX_KEY, 'unread'],
    queryFn: ({ signal }) => api.get<{ unread: number }>('/report/messages-inbox/unread', undefined, signal),
  })
}

/** The account's secretaries and readers for the «منشی» filter. */
export function useReaderOptions() {
  return useQuery({
    queryKey: [...INBOX_KEY, 'readers'],
    queryFn: ({ signal }) => api.page<ReaderOption>('/phonebooks/advanced-services/advanced-reader', { kind: 'all', limit: 200 }, signal),
    staleTime: 60_000,
  })
}

function useInboxMutation<In, Out>(fn: (input: In) => Promise<Out>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: INBOX_KEY }) })
}

export const useMarkRead = () =>
  useInboxMutation((ids: number[]) => api.post<{ changed: number }>('/report/messages-inbox/read', { ids, read: true }))

export const deleteInbox = (ids: number[]) => api.post<{ deleted: number }>('/report/messages-inbox/delete-list', { ids })

/**
 * A reply to the sender by the message's id: a quick send from the line the message
 * came to. A sender from the number bank is masked and never reaches the panel.
 */
export const useReply = () =>
  useMutation({
    mutationFn: (r: { id: number; text: string }) => api.post<{ id: number }>('/report/messages-inbox/reply', r),
  })

export function exportInbox(filters: Query, onProgress: DownloadProgress): Promise<void> {
  return downloadFile('/report/messages-inbox/export', filters, 'inbox.xlsx', onProgress)
}
