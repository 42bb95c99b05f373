import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LIVE_TIMING, LiveClient, parseLiveMessage, type ChannelLike, type SocketLike } from './live'

/** In-memory BroadcastChannel: delivers to every other member asynchronously, never to the sender. */
class FakeChannel implements ChannelLike {
  onmessage: ((e: { data: unknown }) => void) | null = null
  constructor(private hub: Set<FakeChannel>) {
    hub.add(this)
  }
  postMessage(msg: unknown) {
    if (!this.hub.has(this)) return // closed channels are silent
    const copy = structuredClone(msg)
    for (const other of this.hub) {
      if (other !== this) setTimeout(() => other.onmessage?.({ data: copy }), 0)
    }
  }
  close() {
    this.hub.delete(this)
  }
}

class FakeSocket implements SocketLike {
  sent: string[] = []
  closed = false
  onopen: (() => void) | null = null
  onclose: (() => void) | null = null
  onerror: (() => void) | null = null
  onmessage: ((e: { data: unknown }) => void) | null = null
  constructor(public url: string) {}
  send(data: string) {
    this.sent.push(data)
  }
  close() {
    this.closed = true
  }
}

let hub: Set<FakeChannel>
let sockets: FakeSocket[]
let token: string | null
/** Every ticket fetched, and whether fetches fail. */
let tickets: string[]
let ticketFails: boolean

function makeTab(id: string, log = vi.fn()) {
  return new LiveClient({
    id,
    channel: () => new FakeChannel(hub),
    socket: (url) => {
      const s = new FakeSocket(url)
      sockets.push(s)
      return s
    },
    url: (t) => `ws://test/v1/ws?ticket=${t}`,
    ticket: async () => {
      if (ticketFails) throw new Error('ticket refused')
      const t = `tk${tickets.length + 1}`
      tickets.push(t)
      return t
    },
    getToken: () => token,
    log,
  })
}

beforeEach(() => {
  vi.useFakeTimers()
  hub = new Set()
  sockets = []
  token = 'tok'
  tickets = []
  ticketFails = false
})
afterEach(() => {
  vi.useRealTimers()
})

describe('leader election', () => {
  it('a lone tab becomes master after the election wait and connects after the start delay', async () => {
    const a = makeTab('a')
    a.start()
    expect(a.role).toBe('electing')
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.electionWaitMs - 1)
    expect(a.role).toBe('electing')
    await vi.advanceTimersByTimeAsync(1)
    expect(a.role).toBe('master')
    expect(sockets).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.startDelayMs)
    expect(sockets).toHaveLength(1)
    expect(sockets[0].url).toBe('ws://test/v1/ws?ticket=tk1')
    expect(a.status).toBe('CONNECTING')
    sockets[0].onopen?.()
    expect(a.status).toBe('OPEN')
  })

  it('a second tab stays passive when a master answers, and mirrors its status', async () => {
    const a = makeTab('a')
    a.start()
    await vi.advanceTimersByTimeAsync(500)
    sockets[0].onopen?.()
    const b = makeTab('b')
    b.start()
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.electionWaitMs + 50)
    expect(b.role).toBe('passive')
    expect(b.status).toBe('OPEN')
    expect(sockets).toHaveLength(1)
  })

  it('a passive tab takes over when the master tab closes', async () => {
    const a = makeTab('a')
    const b = makeTab('b')
    a.start()
    await vi.advanceTimersByTimeAsync(500)
    b.start()
    await vi.advanceTimersByTimeAsync(500)
    expect(b.role).toBe('passive')
    a.stop()
    expect(sockets[0].closed).toBe(true)
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.electionWaitMs + LIVE_TIMING.startDelayMs + 10)
    expect(b.role).toBe('master')
    expect(sockets).toHaveLength(2)
  })

  it('a passive tab re-elects when the master goes silent (crashed tab)', async () => {
    const a = makeTab('a')
    const b = makeTab('b')
    a.start()
    await vi.advanceTimersByTimeAsync(500)
    b.start()
    await vi.advanceTimersByTimeAsync(500)
    // The master vanishes without saying goodbye.
    ;(a as unknown as { channel: FakeChannel }).channel.close()
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.masterTimeoutMs + LIVE_TIMING.heartbeatMs + LIVE_TIMING.electionWaitMs)
    expect(b.role).toBe('master')
  })

  it('two tabs elected at once settle on exactly one master', async () => {
    const a = makeTab('a')
    const b = makeTab('b')
    a.start()
    b.start()
    await vi.advanceTimersByTimeAsync(2000)
    const roles = [a.role, b.role].sort()
    expect(roles).toEqual(['master', 'passive'])
    expect(a.role).toBe('master') // the smaller id wins
    const open = sockets.filter((s) => !s.closed)
    expect(open).toHaveLength(1)
  })
})

describe('socket behaviour', () => {
  it('pings "9" every 5 s while open', async () => {
    const a = makeTab('a')
    a.start()
    await vi.advanceTimersByTimeAsync(400)
    sockets[0].onopen?.()
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.pingMs * 2)
    expect(sockets[0].sent).toEqual(['9', '9'])
  })

  it('reconnects 1 s after a close while logged in, not after logout', async () => {
    const a = makeTab('a')
    a.start()
    await vi.advanceTimersByTimeAsync(400)
    sockets[0].onopen?.()
    sockets[0].onclose?.()
    expect(a.status).toBe('CLOSED')
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.reconnectMs)
    expect(sockets).toHaveLength(2)
    token = null
    sockets[1].onclose?.()
    await vi.advanceTimersByTimeAsync(5000)
    expect(sockets).toHaveLength(2)
  })

  it('fetches a fresh ticket before every (re)connect and never puts the session token in the URL', async () => {
    const a = makeTab('a')
    a.start()
    await vi.advanceTimersByTimeAsync(400)
    sockets[0].onopen?.()
    sockets[0].onclose?.()
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.reconnectMs)
    expect(tickets).toEqual(['tk1', 'tk2'])
    expect(sockets.map((s) => s.url)).toEqual(['ws://test/v1/ws?ticket=tk1', 'ws://test/v1/ws?ticket=tk2'])
    expect(sockets.some((s) => s.url.includes('tok'))).toBe(false)
  })

  it('retries 1 s after a refused ticket, and stops once logged out', async () => {
    ticketFails = true
    const a = makeTab('a')
    a.start()
    await vi.advanceTimersByTimeAsync(400)
    expect(sockets).toHaveLength(0)
    expect(a.status).toBe('CLOSED')
    ticketFails = false
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.reconnectMs)
    expect(sockets).toHaveLength(1)
    ticketFails = true
    token = null // a 401 on the ticket logs the panel out
    sockets[0].onclose?.()
    await vi.advanceTimersByTimeAsync(5000)
    expect(sockets).toHaveLength(1)
    expect(tickets).toEqual(['tk1'])
  })

  it('a ticket that arrives after logout opens no socket', async () => {
    let release: (t: string) => void = () => undefined
    const a = new LiveClient({
      id: 'a',
      channel: () => null,
      socket: (url) => {
        const s = new FakeSocket(url)
        sockets.push(s)
        return s
      },
      url: (t) => `ws://test/v1/ws?ticket=${t}`,
      ticket: () => new Promise<string>((resolve) => (release = resolve)),
      getToken: () => token,
    })
    a.start()
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.startDelayMs)
    expect(a.status).toBe('CONNECTING')
    token = null
    a.refresh()
    release('late')
    await vi.advanceTimersByTimeAsync(5000)
    expect(sockets).toHaveLength(0)
    expect(a.status).toBe('CLOSED')
  })

  it('goes to ERROR on failure', async () => {
    const a = makeTab('a')
    a.start()
    await vi.advanceTimersByTimeAsync(400)
    sockets[0].onerror?.()
    expect(a.status).toBe('ERROR')
  })

  it('does not connect without a token, and connects on refresh after login', async () => {
    token = null
    const a = makeTab('a')
    a.start()
    await vi.advanceTimersByTimeAsync(1000)
    expect(sockets).toHaveLength(0)
    token = 'new'
    a.refresh()
    await vi.advanceTimersByTimeAsync(LIVE_TIMING.startDelayMs)
    expect(sockets).toHaveLength(1)
    expect(sockets[0].url).toBe('ws://test/v1/ws?ticket=tk1')
  })

  it('broadcasts events to local listeners and other tabs; unparseable frames are only logged', async () => {
    const log = vi.fn()
    const a = makeTab('a', log)
    const b = makeTab('b')
    a.start()
    await vi.advanceTimersByTimeAsync(500)
    b.start()
    await vi.advanceTimersByTimeAsync(500)
    sockets[0].onopen?.()
    const gotA = vi.fn()
    const gotB = vi.fn()
    a.onEvent(gotA)
    b.onEvent(gotB)
    sockets[0].onmessage?.({ data: '{"event":"credit.changed","data":{"credit":5}}' })
    sockets[0].onmessage?.({ data: 'not json' })
    sockets[0].onmessage?.({ data: '{"no_event":1}' })
    await vi.advanceTimersByTimeAsync(10)
    expect(gotA).toHaveBeenCalledTimes(1)
    expect(gotB).toHaveBeenCalledTimes(1)
    expect(gotB.mock.calls[0][0]).toEqual({ event: 'credit.changed', data: { credit: 5 } })
    expect(log).toHaveBeenCalledTimes(2)
  })

  it('send() only works for the master with an open socket', async () => {
    const a = makeTab('a')
    a.start()
    expect(a.send({ x: 1 })).toBe(false)
    await vi.advanceTimersByTimeAsync(400)
    sockets[0].onopen?.()
    expect(a.send({ x: 1 })).toBe(true)
    expect(sockets[0].sent).toContain('{"x":1}')
  })
})

describe('parseLiveMessage', () => {
  it('accepts JSON objects with a string event only', async () => {
    expect(parseLiveMessage('{"event":"send.progress","data":{"id":1}}')).toEqual({
      event: 'send.progress',
      data: { id: 1 },
    })
    expect(parseLiveMessage('9')).toBeNull()
    expect(parseLiveMessage('{"event":3}')).toBeNull()
    expect(parseLiveMessage(new ArrayBuffer(2))).toBeNull()
  })
})
