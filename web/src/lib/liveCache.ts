import type { QueryClient, QueryKey } from '@tanstack/react-query'
import type { LiveMessage } from './live'
import { queryKeys } from './queryKeys'

type Row = Record<string, unknown> & { id?: unknown }

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v)
}

/** Live events → react-query cache (docs/architecture.md §5). Returns whether the event was applied. */
export function applyLiveEvent(qc: QueryClient, msg: LiveMessage): boolean {
  const data = isObject(msg.data) ? msg.data : {}
  switch (msg.event) {
    case 'credit.changed': {
      const credit = Number(data.credit)
      if (!Number.isFinite(credit)) return false
      qc.setQueryData(queryKeys.credit, { credit })
      return true
    }
    case 'send.progress':
    case 'send.status': {
      if (data.id === undefined || data.id === null) return false
      const id = String(data.id)
      const key = queryKeys.report(id)
      const held = qc.getQueryState(key)
      qc.setQueryData<Row>(key, (old) => (old ? { ...old, ...data } : old))
      // An event for a report not loaded yet is not applied, and an answer on its way
      // may be older than the event and replace it: the final status of a short send,
      // or its last receipts, would then never show. A status change (a few per send)
      // therefore reloads the report, as does an event for a report shown but not
      // loaded and not loading; an event that lands while the report loads reloads it
      // once more soon after (throttled: a busy send emits many).
      if (msg.event === 'send.status' || (held && held.data === undefined && held.fetchStatus === 'idle')) {
        void qc.invalidateQueries({ queryKey: key, exact: true })
      } else if (held?.fetchStatus === 'fetching') {
        refreshSoon(qc, key, `report:${id}`, { exact: true })
      }
      qc.setQueriesData<{ rows: Row[] }>({ queryKey: [...queryKeys.reports, 'list'] }, (old) => {
        if (!old?.rows?.some((r) => String(r.id) === id)) return old
        return { ...old, rows: old.rows.map((r) => (String(r.id) === id ? { ...r, ...pickRow(data) } : r)) }
      })
      refreshSoon(qc, ['report', id, 'recipients'], `recipients:${id}`)
      if (msg.event === 'send.status' || isFinal(data.status)) void qc.invalidateQueries({ queryKey: queryKeys.credit })
      return true
    }
    default:
      return false
  }
}

/** Recipient rows are refetched at most once per this interval per send while events flow,
 * and so is a report whose events landed while it was loading. */
export const RECIPIENTS_REFRESH_MS = 1500
const pendingRefresh = new Map<string, ReturnType<typeof setTimeout>>()

function isFinal(status: unknown) {
  return status === 'done' || status === 'stopped' || status === 'failed' || status === 'blocked'
}

/** Throttled (trailing) refetch of the queries under key, one timer per name: a busy send emits many events. */
function refreshSoon(qc: QueryClient, key: QueryKey, name: string, opts: { exact?: boolean } = {}) {
  if (pendingRefresh.has(name)) return
  pendingRefresh.set(
    name,
    setTimeout(() => {
      pendingRefresh.delete(name)
      void qc.invalidateQueries({ queryKey: key, ...opts })
    }, RECIPIENTS_REFRESH_MS),
  )
}

/** Fields of a live send update that a report list row shows. */
function pickRow(data: Record<string, unknown>) {
  const out: Record<string, unknown> = {}
  for (const k of ['status', 'requested', 'sent', 'delivered', 'price']) if (k in data) out[k] = data[k]
  return out
}
