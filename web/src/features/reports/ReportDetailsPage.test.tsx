import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { QueryClient } from '@tanstack/react-query'
import { Route, Routes } from 'react-router'
import { renderWithProviders } from '../../testing/render'
import { applyLiveEvent } from '../../lib/liveCache'
import ReportDetailsPage from './ReportDetailsPage'

// The live socket's state as the page sees it: closed (the page polls every 3 s) unless a test opens it.
const live = vi.hoisted(() => ({ status: 'CLOSED' }))
vi.mock('../../lib/useLive', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../lib/useLive')>()),
  useLiveStatus: () => live.status,
}))

const STATS = {
  id: 42, status: 'sending', requested: 3, sent: 0, delivered: 0, undelivered: 0, blacklisted: 0, pending: 3,
  parts: 1, price: 4230, refunded: 0, text: 'سلام', sender: '3000', created_at: '2025-03-21T06:30:00Z',
}

/** Answers the report's API calls with stats; with status ≠ 200, every call fails with it. */
function mockFetch(stats: Record<string, unknown> = STATS, status = 200) {
  const calls: Array<{ url: string; body?: unknown }> = []
  vi.stubGlobal('fetch', vi.fn(async (url: string, init?: RequestInit) => {
    calls.push({ url: String(url), body: init?.body ? JSON.parse(String(init.body)) : undefined })
    const path = String(url).split('?')[0]
    let data: unknown = null
    let meta: Record<string, unknown> = {}
    if (path.endsWith('/report/bulk_stats')) data = stats
    if (path.endsWith('/report/analytics')) data = { send_id: 42, curve: [], operators: [], reasons: [] }
    if (path.endsWith('/report/recipients')) {
      data = [{ mobile: '989121234567', operator: 'mci', parts: 1, status: 2, updated_at: '2025-03-21T06:31:00Z' }]
      meta = { page: 1, limit: 10, total: 1 }
    }
    if (status !== 200) return new Response(JSON.stringify({ data: null, meta: { status, message: 'unavailable' } }), { status })
    return new Response(JSON.stringify({ data, meta: { status: 200, ...meta } }), { status: 200 })
  }))
  return calls
}

function renderReport(queryClient?: QueryClient) {
  renderWithProviders(
    <Routes>
      <Route path="/reports/:id" element={<ReportDetailsPage />} />
    </Routes>,
    { route: '/reports/42', queryClient },
  )
}

function seg(key: string) {
  return screen.getByTestId(`seg-${key}`).getAttribute('data-value')
}

describe('ReportDetailsPage', () => {
  it('moves the progress bar on live events without refetching, and reloads on a status change', async () => {
    // With the socket open the page reads the report again only every 15 s: any second read here is the events'.
    live.status = 'OPEN'
    onTestFinished(() => void (live.status = 'CLOSED'))
    const calls = mockFetch()
    const statsCalls = () => calls.filter((c) => c.url.includes('/report/bulk_stats')).length
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    renderReport(queryClient)
    await screen.findByTestId('send-progress')
    expect(seg('pending')).toBe('3')
    expect(screen.getByTestId('stop-send')).toBeInTheDocument()
    expect(await screen.findByText('۰۹۱۲۱۲۳۴۵۶۷')).toBeInTheDocument()

    act(() => {
      applyLiveEvent(queryClient, { event: 'send.progress', data: { id: 42, status: 'sending', sent: 3, delivered: 1, pending: 0 } })
    })
    await waitFor(() => expect(seg('delivered')).toBe('1'))
    expect(seg('inflight')).toBe('2')
    expect(statsCalls()).toBe(1)

    // The server's answer after the send ended (the status change reloads the report).
    mockFetch({ ...STATS, status: 'done', sent: 3, delivered: 2, undelivered: 1, pending: 0 })
    act(() => {
      applyLiveEvent(queryClient, { event: 'send.status', data: { id: 42, status: 'done', sent: 3, delivered: 2, undelivered: 1, pending: 0 } })
    })
    await waitFor(() => expect(seg('inflight')).toBe('0'))
    expect(screen.getAllByTestId('send-status')[0]).toHaveAttribute('data-status', 'done')
    expect(screen.queryByTestId('stop-send')).not.toBeInTheDocument()
  })

  it('keeps the report on screen when a refresh fails, with a note', async () => {
    mockFetch()
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    renderReport(queryClient)
    await screen.findByTestId('send-progress')
    mockFetch(STATS, 503)
    await act(async () => {
      await queryClient.refetchQueries({ queryKey: ['report', '42'] }).catch(() => undefined)
    })
    expect(await screen.findByTestId('report-stale')).toBeInTheDocument()
    expect(screen.getByTestId('send-progress')).toBeInTheDocument()
    expect(screen.getByTestId('stop-send')).toBeInTheDocument()
    expect(screen.getByTestId('report-header')).toBeInTheDocument()
  })

  it('stops a running send after confirmation', async () => {
    const calls = mockFetch()
    renderReport()
    fireEvent.click(await screen.findByTestId('stop-send'))
    fireEvent.click(await screen.findByTestId('stop-confirm'))
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/send/cancel'))?.body).toEqual({ id: 42 }))
  })

  it('pauses a running send after confirmation', async () => {
    const calls = mockFetch()
    renderReport()
    fireEvent.click(await screen.findByTestId('pause-send'))
    expect(calls.some((c) => c.url.endsWith('/send/pause'))).toBe(false)
    fireEvent.click(await screen.findByTestId('pause-confirm'))
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/send/pause'))?.body).toEqual({ id: 42 }))
  })

  it('a paused send shows its badge, resume and stop, and who paused it', async () => {
    const calls = mockFetch({
      ...STATS,
      status: 'paused',
      paused: true,
      controls: [{ action: 'pause', by: 'مریم رضایی', at: '2025-03-21T06:35:00Z' }],
    })
    renderReport()
    await screen.findByTestId('controls-history')
    expect(screen.getAllByTestId('send-status')[0]).toHaveAttribute('data-status', 'paused')
    expect(screen.getAllByTestId('send-status')[0].textContent).toBe('توقف موقت')
    expect(screen.queryByTestId('pause-send')).not.toBeInTheDocument()
    expect(screen.getByTestId('stop-send')).toBeInTheDocument()
    const entry = screen.getByTestId('control-entry')
    expect(entry).toHaveAttribute('data-action', 'pause')
    expect(entry.textContent).toContain('مریم رضایی')
    expect(entry.textContent).toContain('۱۴۰۴/۰۱/۰۱ ۱۰:۰۵')

    fireEvent.click(screen.getByTestId('resume-send'))
    fireEvent.click(await screen.findByTestId('resume-confirm'))
    await waitFor(() => expect(calls.find((c) => c.url.endsWith('/send/resume'))?.body).toEqual({ id: 42 }))
  })
})
