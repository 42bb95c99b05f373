import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, downloadFile, type Query } from './api'
import { queryKeys } from './queryKeys'
import { isFinalStatus } from './statuses'

export interface ReportRow {
  id: number | string
  sender: string
  type: string
  status: string
  requested: number
  sent: number
  delivered: number
  price: number
  created_at: string
  /** With a mobile searched: that number's recipient in this send. */
  match?: { mobile: string; status: number; pending?: boolean; rejected?: boolean; updated_at: string }
}

export interface BulkStats {
  id: number | string
  status: string
  /** Staff's reason on a send blocked in review. */
  review_note?: string
  /** A send paused outside its sending hours: when it resumes, and the Persian note saying so. */
  window_resume_at?: string
  window_note?: string
  /** A gradual send: its pace (an hour), expected end and the Persian line «ارسال تدریجی: … در ساعت، پایان تقریبی …». */
  pace_per_hour?: number
  pace_end_at?: string
  pace_note?: string
  requested: number
  /** Distinct recipients after normalising and de-duplicating the requested numbers. */
  recipients?: number
  sent: number
  delivered: number
  undelivered: number
  blacklisted: number
  /** Refused by the carrier; shown with «نرسیده به گوشی». */
  rejected?: number
  /** Found after pricing and not paid for by the credit: dropped, never sent nor charged. */
  unpaid?: number
  /** Recipients sent with a part not accepted (lost answer, refused or never submitted): the handset may get an incomplete message. */
  partial?: number
  /** Left unsent by a stop (also counted in rejected); its own «متوقف‌شده» segment. */
  stopped?: number
  pending: number
  /** Whether the recipients exist yet (before that there is nothing to analyse). */
  expanded?: boolean
  /** All parts of the send; message_parts is the count of one message. */
  parts: number
  message_parts?: number
  price: number
  refunded: number
  text?: string
  sender?: string
  created_at?: string
}

export interface RecipientRow {
  mobile: string
  operator: string
  parts: number
  status: number
  /** Refused before submission (rejected) rather than by the handset. */
  rejected?: boolean
  /** The carrier's or the engine's reason, e.g. a recipient dropped for lack of credit. */
  error?: string
  /** Why the message did not reach the handset, in Persian (from the carrier's state). */
  reason?: string
  /** Each part's state, in order; absent before the recipient was submitted. */
  part_states?: PartState[]
  updated_at: string
}

/** A part's state in the recipients list (report API). */
export type PartState = 'accepted' | 'delivered' | 'undelivered' | 'rejected' | 'unsent' | 'unknown'

export function useReportList(params: Query, enabled = true) {
  return useQuery({
    enabled,
    queryKey: queryKeys.reportList(params),
    queryFn: ({ signal }) => api.page<ReportRow>('/report/new_list', params, signal),
    placeholderData: keepPreviousData,
  })
}

/** Poll fallback: every 3 s while the live socket is not open and the send is still moving. */
export const POLL_MS = 3000

/** With the live socket open, a send still moving is read again this often all the
 * same, so that an event missed (a socket that reconnected) is never the last word. */
export const LIVE_CHECK_MS = 15_000

/**
 * How often a report is read again: every POLL_MS while the socket is closed and the send
 * still moves, every LIVE_CHECK_MS with it open; a send closed (final status) while some
 * of its recipients still wait for the queue or a receipt is read every LIVE_CHECK_MS
 * too, so a receipt's event lost or overtaken by an older answer is never the last word.
 */
export function pollInterval(liveOpen: boolean, stats: Partial<BulkStats> | undefined): number | false {
  if (stats?.status === undefined) return false
  if (isFinalStatus(stats.status)) {
    const c = recipientCounts(stats)
    return c.pending + c.inflight > 0 ? LIVE_CHECK_MS : false
  }
  return liveOpen ? LIVE_CHECK_MS : POLL_MS
}

/** A send's recipients by where they are (the progress bar's segments). */
export interface RecipientCounts {
  total: number
  delivered: number
  /** Submitted, the final receipt not in yet. */
  inflight: number
  /** Refused or not reached (without those a stop left unsent). */
  undelivered: number
  blacklisted: number
  unpaid: number
  stopped: number
  pending: number
}

/**
 * Splits a send's recipients by state. "stopped" are counted by the API in rejected too,
 * so they leave undelivered; "inflight" is what no other count holds.
 */
export function recipientCounts(s: Partial<BulkStats>): RecipientCounts {
  const n = (v: unknown) => Math.max(0, Number(v) || 0)
  const delivered = n(s.delivered)
  const stopped = n(s.stopped)
  const undelivered = n(s.undelivered) + Math.max(0, n(s.rejected) - stopped)
  const blacklisted = n(s.blacklisted)
  const pending = n(s.pending)
  const unpaid = n(s.unpaid)
  const known = delivered + undelivered + blacklisted + unpaid + stopped + pending
  const base = s.recipients !== undefined && s.recipients !== null ? n(s.recipients) : n(s.requested)
  const total = Math.max(base, known)
  return { total, delivered, inflight: total - known, undelivered, blacklisted, unpaid, stopped, pending }
}

/** One send's counters; live events update the cache, polling covers a closed socket. */
export function useReport(id: string, liveOpen: boolean) {
  return useQuery({
    queryKey: queryKeys.report(id),
    queryFn: ({ signal }) => api.get<BulkStats>('/report/bulk_stats', { id }, signal),
    refetchInterval: (q) => pollInterval(liveOpen, q.state.data),
  })
}

export function useRecipients(id: string, params: Query, pollMs: number | false) {
  return useQuery({
    queryKey: queryKeys.recipients(id, params),
    queryFn: ({ signal }) => api.page<RecipientRow>('/report/recipients', { id, ...params }, signal),
    placeholderData: keepPreviousData,
    refetchInterval: pollMs,
  })
}

export function downloadRecipients(id: string) {
  return downloadFile('/report/download_recipients', { id }, `report-${id}.xlsx`)
}
