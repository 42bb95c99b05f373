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

function makeTab(id: string, log = vi.fn()) {
  return new LiveClient({
    id,
    channel: () => new FakeChannel(hub),
    socket: (url) => {
      const s = new FakeSocket(url)
      sockets.push(s)
      return s
    },
    url: (t) => `ws://test/v1/ws?token=${t}`,
    getToken: () => token,
    log,
  })
}

beforeEach(() => {
  vi.useFakeTimers()
  hub = new Set()
  sockets = []
  token = 'tok'
})
afterEach(() => {
  vi.useRealTimers()
})

describe('leader election', () => {
  it('a lone tab becomes master after the election wait and connects after the start delay', () => {
    const a = makeTab('a')
    a.start()
    expect(a.role).toBe('electing')
    vi.advanceTimersByTime(LIVE_TIMING.electionWaitMs - 1)
    expect(a.role).toBe('electing')
    vi.advanceTimersByTime(1)
    expect(a.role).toBe('master')
    expect(sockets).toHaveLength(0)
    vi.advanceTimersByTime(LIVE_TIMING.startDelayMs)
    expect(sockets).toHaveLength(1)
    expect(sockets[0].url).toBe('ws://test/v1/ws?token=tok')
    expect(a.status).toBe('CONNECTING')
    sockets[0].onopen?.()
    expect(a.status).toBe('OPEN')
  })

  it('a second tab stays passive when a master answers, and mirrors its status', () => {
    const a = makeTab('a')
    a.start()
    vi.advanceTimersByTime(500)
    sockets[0].onopen?.()
    const b = makeTab('b')
    b.start()
    vi.advanceTimersByTime(LIVE_TIMING.electionWaitMs + 50)
    expect(b.role).toBe('passive')
    expect(b.status).toBe('OPEN')
    expect(sockets).toHaveLength(1)
  })

  it('a passive tab takes over when the master tab closes', () => {
    const a = makeTab('a')
    const b = makeTab('b')
    a.start()
    vi.advanceTimersByTime(500)
    b.start()
    vi.advanceTimersByTime(500)
    expect(b.role).toBe('passive')
    a.stop()
    expect(sockets[0].closed).toBe(true)
    vi.advanceTimersByTime(LIVE_TIMING.electionWaitMs + LIVE_TIMING.startDelayMs + 10)
    expect(b.role).toBe('master')
    expect(sockets).toHaveLength(2)
  })

  it('a passive tab re-elects when the master goes silent (crashed tab)', () => {
    const a = makeTab('a')
    const b = makeTab('b')
    a.start()
    vi.advanceTimersByTime(500)
    b.start()
    vi.advanceTimersByTime(500)
    // The master vanishes without saying goodbye.
    ;(a as unknown as { channel: FakeChannel }).channel.close()
    vi.advanceTimersByTime(LIVE_TIMING.masterTimeoutMs + LIVE_TIMING.heartbeatMs + LIVE_TIMING.electionWaitMs)
    expect(b.role).toBe('master')
  })

  it('two tabs elected at once settle on exactly one master', () => {
    const a = makeTab('a')
    const b = makeTab('b')
    a.start()
    b.start()
    vi.advanceTimersByTime(2000)
    const roles = [a.role, b.role].sort()
    expect(roles).toEqual(['master', 'passive'])
    expect(a.role).toBe('master') // the smaller id wins
    const open = sockets.filter((s) => !s.closed)
    expect(open).toHaveLength(1)
  })
})

describe('socket behaviour', () => {
  it('pings "9" every 5 s while open', () => {
    const a = makeTab('a')
    a.start()
    vi.advanceTimersByTime(400)
    sockets[0].onopen?.()
    vi.advanceTimersByTime(LIVE_TIMING.pingMs * 2)
    expect(sockets[0].sent).toEqual(['9', '9'])
  })

  it('reconnects 1 s after a close while logged in, not after logout', () => {
    const a = makeTab('a')
    a.start()
    vi.advanceTimersByTime(400)
    sockets[0].onopen?.()
    sockets[0].onclose?.()
    expect(a.status).toBe('CLOSED')
    vi.advanceTimersByTime(LIVE_TIMING.reconnectMs)
    expect(sockets).toHaveLength(2)
    token = null
    sockets[1].onclose?.()
    vi.advanceTimersByTime(5000)
    expect(sockets).toHaveLength(2)
  })

  it('goes to ERROR on failure', () => {
    const a = makeTab('a')
    a.start()
    vi.advanceTimersByTime(400)
    sockets[0].onerror?.()
    expect(a.status).toBe('ERROR')
  })

  it('does not connect without a token, and connects on refresh after login', () => {
    token = null
    const a = makeTab('a')
    a.start()
    vi.advanceTimersByTime(1000)
    expect(sockets).toHaveLength(0)
    token = 'new'
    a.refresh()
    vi.advanceTimersByTime(LIVE_TIMING.startDelayMs)
    expect(sockets).toHaveLength(1)
    expect(sockets[0].url).toContain('token=new')
  })

  it('broadcasts events to local listeners and other tabs; unparseable frames are only logged', () => {
    const log = vi.fn()
    const a = makeTab('a', log)
    const b = makeTab('b')
    a.start()
    vi.advanceTimersByTime(500)
    b.start()
    vi.advanceTimersByTime(500)
    sockets[0].onopen?.()
    const gotA = vi.fn()
    const gotB = vi.fn()
    a.onEvent(gotA)
    b.onEvent(gotB)
    sockets[0].onmessage?.({ data: '{"event":"credit.changed","data":{"credit":5}}' })
    sockets[0].onmessage?.({ data: 'not json' })
    sockets[0].onmessage?.({ data: '{"no_event":1}' })
    vi.advanceTimersByTime(10)
    expect(gotA).toHaveBeenCalledTimes(1)
    expect(gotB).toHaveBeenCalledTimes(1)
    expect(gotB.mock.calls[0][0]).toEqual({ event: 'credit.changed', data: { credit: 5 } })
    expect(log).toHaveBeenCalledTimes(2)
  })

  it('send() only works for the master with an open socket', () => {
    const a = makeTab('a')
    a.start()
    expect(a.send({ x: 1 })).toBe(false)
    vi.advanceTimersByTime(400)
    sockets[0].onopen?.()
    expect(a.send({ x: 1 })).toBe(true)
    expect(sockets[0].sent).toContain('{"x":1}')
  })
})

describe('parseLiveMessage', () => {
  it('accepts JSON objects with a string event only', () => {
    expect(parseLiveMessage('{"event":"send.progress","data":{"id":1}}')).toEqual({
      event: 'send.progress',
      data: { id: 1 },
    })
    expect(parseLiveMessage('9')).toBeNull()
    expect(parseLiveMessage('{"event":3}')).toBeNull()
    expect(parseLiveMessage(new ArrayBuffer(2))).toBeNull()
  })
})
