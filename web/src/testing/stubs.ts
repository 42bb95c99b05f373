import { vi } from 'vitest'
import { act } from '@testing-library/react'
import type { QueryClient, QueryKey } from '@tanstack/react-query'

/** A stand-in for XMLHttpRequest that lets a test drive upload progress and the answer. */
export class FakeXhr {
  static last: FakeXhr | null = null
  method = ''
  url = ''
  headers: Record<string, string> = {}
  body: FormData | null = null
  status = 0
  responseText = ''
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  constructor() {
    FakeXhr.last = this
  }
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v
  }
  send(body: FormData) {
    this.body = body
  }
  abort() {
    this.onabort?.()
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true })
  }
  answer(status: number, envelope: unknown) {
    this.status = status
    this.responseText = JSON.stringify(envelope)
    this.onload?.()
  }
}

export function stubXhr() {
  FakeXhr.last = null
  vi.stubGlobal('XMLHttpRequest', FakeXhr)
}

/** Thrown by a stubApi route: the call fails with this HTTP status. */
export class StubStatus extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`)
  }
}

/** A fetch stub answering `{data, meta}` envelopes from a route table keyed by path
 * (no query); a route that throws StubStatus fails the call with its status. */
export function stubApi(routes: Record<string, (body: unknown, url: string) => unknown>) {
  const calls: Array<{ path: string; url: string; body?: unknown }> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = String(url).split('?')[0].replace('/v1/api', '')
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      calls.push({ path, url: String(url), body })
      const route = routes[path]
      const fail = (status: number, message: string) => new Response(JSON.stringify({ data: null, meta: { status, message } }), { status })
      if (!route) return fail(404, 'یافت نشد')
      try {
        return new Response(JSON.stringify({ data: route(body, String(url)), meta: { status: 200 } }), { status: 200 })
      } catch (e) {
        if (e instanceof StubStatus) return fail(e.status, 'unavailable')
        throw e
      }
    }),
  )
  return calls
}

/** From now on `path` fails (503), and the queries under queryKey are read again: a
 * background refresh that fails, for the tests of pages that keep their data. */
export async function failRefresh(client: QueryClient, path: string, queryKey: QueryKey) {
  stubApi({ [path]: () => { throw new StubStatus(503) } })
  await act(async () => {
    await client.refetchQueries({ queryKey }).catch(() => undefined)
  })
}

/** jsdom has no matchMedia (a desktop viewport here) nor scrolling. */
export function stubDesktop() {
  vi.stubGlobal('scrollTo', () => {})
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} }))
}
