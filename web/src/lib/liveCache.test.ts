import { describe, expect, it, vi } from 'vitest'
import { QueryClient, QueryObserver } from '@tanstack/react-query'
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
    expect(spy).toHaveBeenCalledWith({ queryKey: ['report', '9'], exact: true })
    vi.advanceTimersByTime(RECIPIENTS_REFRESH_MS)
    expect(spy).toHaveBeenCalledTimes(4)
    vi.useRealTimers()
  })

  it('reloads a report on a status change, and one shown before it was loaded', async () => {
    const qc = new QueryClient()
    let answers = 0
    const fetchReport = async () => ({ id: 5, status: ++answers > 1 ? 'done' : 'sending' })
    const observer = new QueryObserver(qc, { queryKey: queryKeys.report(5), queryFn: fetchReport })
    const stop = observer.subscribe(() => {})
    await vi.waitFor(() => expect(qc.getQueryData(queryKeys.report(5))).toEqual({ id: 5, status: 'sending' }))
    // The last events of a short send: progress merges, the status change reloads.
    applyLiveEvent(qc, { event: 'send.progress', data: { id: 5, status: 'done' } })
    applyLiveEvent(qc, { event: 'send.status', data: { id: 5, status: 'done' } })
    await vi.waitFor(() => expect(answers).toBe(2))
    expect(qc.getQueryData(queryKeys.report(5))).toEqual({ id: 5, status: 'done' })
    stop()

    // A report page whose first answer failed (no data) reloads on the next event.
    const spy = vi.spyOn(qc, 'invalidateQueries')
    qc.getQueryCache().build(qc, { queryKey: queryKeys.report(6) })
    applyLiveEvent(qc, { event: 'send.progress', data: { id: 6, sent: 1 } })
    expect(spy).toHaveBeenCalledWith({ queryKey: queryKeys.report('6'), exact: true })
  })

  it('reads a report again when an event landed while an older answer was on its way', async () => {
    const qc = new QueryClient()
    // The server's state moves on while the first answer is slow to come.
    let delivered = 1
    let answers = 0
    let release: () => void = () => {}
    const fetchReport = async () => {
      const snapshot = { id: 4, status: 'done', delivered }
      answers++
      if (answers === 1) await new Promise<void>((r) => (release = r))
      return snapshot
    }
    const observer = new QueryObserver(qc, { queryKey: queryKeys.report(4), queryFn: fetchReport })
    const stop = observer.subscribe(() => {})
    await vi.waitFor(() => expect(answers).toBe(1))
    // The last receipt's event lands while that answer is on its way, and the answer replaces it.
    delivered = 2
    applyLiveEvent(qc, { event: 'send.progress', data: { id: 4, status: 'done', delivered: 2 } })
    release()
    await vi.waitFor(() => expect(qc.getQueryData(queryKeys.report(4))).toEqual({ id: 4, status: 'done', delivered: 1 }))
    // One more read, soon after, shows the newer state.
    await vi.waitFor(() => expect(qc.getQueryData(queryKeys.report(4))).toEqual({ id: 4, status: 'done', delivered: 2 }), {
      timeout: RECIPIENTS_REFRESH_MS + 1500,
    })
    expect(answers).toBe(2)
    stop()
  })

  it('ignores unknown events and malformed data', () => {
    const qc = new QueryClient()
    expect(applyLiveEvent(qc, { event: 'inbox.received', data: {} })).toBe(false)
    expect(applyLiveEvent(qc, { event: 'credit.changed', data: { credit: 'x' } })).toBe(false)
    expect(applyLiveEvent(qc, { event: 'send.progress', data: {} })).toBe(false)
  })
})
