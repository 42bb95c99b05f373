import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from './api'
import { toPersianDigits } from './digits'
import { useLiveEvent } from './useLive'

/** The cache key of the account's unread received messages (the inbox page reads it too). */
export const INBOX_UNREAD_KEY = ['inbox', 'unread'] as const

/**
 * The account's unread received messages (GET /report/messages-inbox/unread), read
 * again whenever a message arrives (the live inbox.received event) — the menu's
 * badge and the inbox page's count.
 */
export function useInboxUnread(enabled = true) {
  const qc = useQueryClient()
  useLiveEvent((m) => {
    if (m.event === 'inbox.received') void qc.invalidateQueries({ queryKey: INBOX_UNREAD_KEY })
  })
  return useQuery({
    queryKey: INBOX_UNREAD_KEY,
    queryFn: ({ signal }) => api.get<{ unread: number }>('/report/messages-inbox/unread', undefined, signal),
    enabled,
    staleTime: 30_000,
  })
}

/** The badge text of an unread count: Persian digits, «۹۹+» above 99, empty at 0. */
export function unreadBadge(n: number | undefined): string {
  if (!n || n < 0) return ''
  return n > 99 ? '۹۹+' : toPersianDigits(n)
}
