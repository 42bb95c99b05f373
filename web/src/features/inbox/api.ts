import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, downloadFile, type DownloadProgress, type Query } from '../../lib/api'
import { useInboxUnread } from '../../lib/inboxUnread'

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
  /** Answered from the inbox (a reply marks the message read and replied). */
  replied_at: string | null
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

/** The unread count, shared with the menu's badge (lib/inboxUnread). */
export const useUnread = () => useInboxUnread()

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
export function useReply() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (r: { id: number; text: string }) => api.post<{ id: number }>('/report/messages-inbox/reply', r),
    onSuccess: () => void qc.invalidateQueries({ queryKey: INBOX_KEY }),
  })
}

/** One entry of a conversation: a received message (in) or a reply sent from the inbox (out). */
export interface ThreadEntry {
  direction: 'in' | 'out'
  id: number
  line: string
  text: string
  at: string
  /** out: the reply's send status. */
  status?: string
}

/** The conversation with the sender of one received message, oldest first. */
export interface Thread {
  sender: string
  masked: boolean
  entries: ThreadEntry[]
}

/** The conversation with a message's sender (GET /report/messages-inbox/thread?id=). */
export function useThread(id: number | null) {
  return useQuery({
    queryKey: [...INBOX_KEY, 'thread', id],
    queryFn: ({ signal }) => api.get<Thread>('/report/messages-inbox/thread', { id: id ?? 0 }, signal),
    enabled: id !== null,
  })
}

export function exportInbox(filters: Query, onProgress: DownloadProgress): Promise<void> {
  return downloadFile('/report/messages-inbox/export', filters, 'inbox.xlsx', onProgress)
}
