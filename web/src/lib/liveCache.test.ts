import { describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { RECIPIENTS_REFRESH_MS, applyLiveEvent } from './liveCache'
import { queryKeys } from './queryKeys'

describe('applyLiveEvent', () => {
  it('credit.changed replaces the credit query', () => {
    const qc = new QueryClient()
    expect(applyLiveEvent(qc, { event: 'credit.changed', data: { credit: 1200 } })).toBe(true)
    expect(qc.getQueryData(queryKeys.credit)).toEqual({ credit: 1200 })
  })

  it('send.progress merges into the report and the matching list row', () => {
    const qc = new QueryClient()
    qc.setQueryData(queryKeys.report(7), { id: 7, status: 'queued', sent: 0, text: 'سلام' })
    qc.setQueryData(queryKeys.reportList({ page: 1 }), {
      rows: [
        { id: 7, status: 'queued', sent: 0 },
        { id: 8, status: 'done', sent: 3 },
      ],
      meta: { page: 1, limit: 10, total: 2 },
    })
    applyLiveEvent(qc, { event: 'send.progress', data: { id: 7, status: 'sending', sent: 2, delivered: 1, pending: 1 } })
    expect(qc.getQueryData(queryKeys.report(7))).toEqual({
      id: 7, status: 'sending', sent: 2, delivered: 1, pending: 1, text: 'سلام',
    })
    const list = qc.getQueryData<{ rows: unknown[] }>(queryKeys.reportList({ page: 1 }))
    expect(list?.rows).toEqual([
      { id: 7, status: 'sending', sent: 2, delivered: 1 },
      { id: 8, status: 'done', sent: 3 },
    ])
  })

  it('refetches the recipients of a send at most once per interval, after the events', () => {
    vi.useFakeTimers()
    const qc = new QueryClient()
    const spy = vi.spyOn(qc, 'invalidateQueries')
    for (let i = 0; i < 5; i++) applyLiveEvent(qc, { event: 'send.progress', data: { id: 9, sent: i } })
    expect(spy).not.toHaveBeenCalled()
    vi.advanceTimersByTime(RECIPIENTS_REFRESH_MS)
    expect(spy).toHaveBeenCalledTimes(1)
    expect(spy).toHaveBeenCalledWith({ queryKey: ['report', '9', 'recipients'] })
    applyLiveEvent(qc, { event: 'send.status', data: { id: 9, status: 'done' } })
    expect(spy).toHaveBeenCalledWith({ queryKey: ['credit'] })
    vi.advanceTimersByTime(RECIPIENTS_REFRESH_MS)
    expect(spy).toHaveBeenCalledTimes(3)
    vi.useRealTimers()
  })

  it('ignores unknown events and malformed data', () => {
    const qc = new QueryClient()
    expect(applyLiveEvent(qc, { event: 'inbox.received', data: {} })).toBe(false)
    expect(applyLiveEvent(qc, { event: 'credit.changed', data: { credit: 'x' } })).toBe(false)
    expect(applyLiveEvent(qc, { event: 'send.progress', data: {} })).toBe(false)
  })
})
