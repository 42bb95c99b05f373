import { describe, expect, it } from 'vitest'
import { percentOf, progressSegments } from './progress'

describe('progressSegments', () => {
  it('derives the in-flight part from the counters', () => {
    const { total, processed, segments } = progressSegments({
      requested: 10, delivered: 4, undelivered: 1, blacklisted: 1, pending: 2, sent: 8,
    })
    expect(total).toBe(10)
    expect(processed).toBe(8)
    expect(Object.fromEntries(segments.map((s) => [s.key, s.value]))).toEqual({
      delivered: 4, inflight: 2, undelivered: 1, blacklisted: 1, pending: 2,
    })
  })
  it('counts distinct recipients (not the requested numbers) and folds rejections into undelivered', () => {
    const { total, segments } = progressSegments({
      requested: 4, recipients: 3, delivered: 1, undelivered: 1, rejected: 1, blacklisted: 0, pending: 0,
    })
    expect(total).toBe(3)
    expect(segments.find((s) => s.key === 'inflight')?.value).toBe(0)
    expect(segments.find((s) => s.key === 'undelivered')?.value).toBe(2)
  })

  it('shows the recipients dropped for lack of credit apart, only when there are some', () => {
    const { total, processed, segments } = progressSegments({
      requested: 31, recipients: 5, delivered: 5, undelivered: 0, blacklisted: 0, unpaid: 26, pending: 0,
    })
    expect(total).toBe(31)
    expect(processed).toBe(31)
    expect(segments.find((s) => s.key === 'unpaid')?.value).toBe(26)
    expect(progressSegments({ requested: 2, delivered: 2 }).segments.some((s) => s.key === 'unpaid')).toBe(false)
  })

  it('shows the recipients a stop left unsent as their own segment, out of «نرسیده»', () => {
    const { total, processed, segments } = progressSegments({
      requested: 10, recipients: 10, delivered: 3, undelivered: 1, rejected: 6, stopped: 5, blacklisted: 0, pending: 0,
    })
    const by = Object.fromEntries(segments.map((s) => [s.key, s.value]))
    expect(total).toBe(10)
    expect(processed).toBe(10)
    expect(by).toEqual({ delivered: 3, inflight: 0, undelivered: 2, blacklisted: 0, stopped: 5, pending: 0 })
    expect(segments.find((s) => s.key === 'stopped')?.label).toBe('متوقف‌شده')
    expect(progressSegments({ requested: 2, delivered: 2 }).segments.some((s) => s.key === 'stopped')).toBe(false)
  })

  it('a send stopped before its recipients existed is all «متوقف‌شده»', () => {
    const { total, segments } = progressSegments({ requested: 40, recipients: 0, stopped: 40, pending: 0 })
    expect(total).toBe(40)
    expect(segments.find((s) => s.key === 'inflight')?.value).toBe(0)
    expect(segments.find((s) => s.key === 'stopped')?.value).toBe(40)
  })

  it('never goes negative and tolerates missing counters', () => {
    const { total, segments } = progressSegments({ requested: 2, delivered: 3 })
    expect(total).toBe(3)
    expect(segments.every((s) => s.value >= 0)).toBe(true)
  })
  it('percentOf caps at 100 and handles zero', () => {
    expect(percentOf(1, 3)).toBe(33.3)
    expect(percentOf(5, 0)).toBe(0)
    expect(percentOf(7, 5)).toBe(100)
  })
})

describe('pollInterval', () => {
  it('polls every 3 s while the socket is not open and the send moves, every 15 s while receipts are due', async () => {
    const { pollInterval } = await import('../../lib/reports')
    const settled = { recipients: 2, delivered: 1, undelivered: 1, pending: 0 }
    expect(pollInterval(false, { status: 'sending', ...settled })).toBe(3000)
    expect(pollInterval(false, { status: 'queued' })).toBe(3000)
    expect(pollInterval(true, { status: 'sending', ...settled })).toBe(15_000)
    expect(pollInterval(true, { status: 'done', ...settled })).toBe(false)
    expect(pollInterval(false, { status: 'done', ...settled })).toBe(false)
    expect(pollInterval(false, undefined)).toBe(false)
    // Closed, with a receipt still to come: checked again until it is in.
    expect(pollInterval(true, { status: 'done', recipients: 2, delivered: 1, pending: 0 })).toBe(15_000)
    expect(pollInterval(false, { status: 'stopped', recipients: 2, delivered: 1, pending: 0 })).toBe(15_000)
  })
})
