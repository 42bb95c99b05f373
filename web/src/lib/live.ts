/** Spec §4 "Live connection" and docs/architecture.md §5: one tab holds the socket, the others listen. */
export type LiveStatus = 'CLOSED' | 'CONNECTING' | 'OPEN' | 'ERROR'
export type LiveRole = 'idle' | 'electing' | 'master' | 'passive'

export interface LiveMessage {
  event: string
  data?: unknown
  [key: string]: unknown
}

export interface ChannelLike {
  postMessage(msg: unknown): void
  onmessage: ((e: { data: unknown }) => void) | null
  close(): void
}

export interface SocketLike {
  send(data: string): void
  close(): void
  onopen: (() => void) | null
  onclose: (() => void) | null
  onerror: (() => void) | null
  onmessage: ((e: { data: unknown }) => void) | null
}

export interface LiveDeps {
  channel: () => ChannelLike | null
  socket: (url: string) => SocketLike
  /** The socket URL for a ticket: the session token itself never goes in a URL. */
  url: (ticket: string) => string
  /** Fetches a fresh single-use ticket (POST /live/ticket), before every (re)connect. */
  ticket: () => Promise<string>
  getToken: () => string | null
  id?: string
  log?: (...args: unknown[]) => void
}

export const LIVE_CHANNEL = 'chapar-live'
export const LIVE_TIMING = {
  electionWaitMs: 300,
  startDelayMs: 100,
  reconnectMs: 1000,
  pingMs: 5000,
  heartbeatMs: 2000,
  masterTimeoutMs: 6500,
}

type Wire =
  | { t: 'who'; from: string }
  | { t: 'master'; from: string; status: LiveStatus }
  | { t: 'status'; from: string; status: LiveStatus }
  | { t: 'leaving'; from: string }
  | { t: 'event'; from: string; msg: LiveMessage }

/** Parses a socket frame; null for anything that is not JSON with a string `event`. */
export function parseLiveMessage(raw: unknown): LiveMessage | null {
  if (typeof raw !== 'string') return null
  try {
    const v = JSON.parse(raw) as unknown
    if (v && typeof v === 'object' && typeof (v as LiveMessage).event === 'string') return v as LiveMessage
  } catch {
    /* fall through */
  }
  return null
}

export class LiveClient {
  readonly id: string
  role: LiveRole = 'idle'
  status: LiveStatus = 'CLOSED'
  private deps: LiveDeps
  private channel: ChannelLike | null = null
  private ws: SocketLike | null = null
  private timers = new Map<string, ReturnType<typeof setTimeout>>()
  private lastHeard = 0
  /** Bumped by closeSocket, so a ticket that arrives after it opens nothing. */
  private attempt = 0
  private fetching = false
  private eventFns = new Set<(m: LiveMessage) => void>()
  private statusFns = new Set<(s: LiveStatus) => void>()

  constructor(deps: LiveDeps) {
    this.deps = deps
    this.id = deps.id ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
  }

  /** Joins the tab group: asks for a master, stays passive if one answers, else takes over. */
  start() {
    if (this.role !== 'idle') return
    this.channel = this.deps.channel()
    if (!this.channel) return this.becomeMaster()
    this.channel.onmessage = (e) => this.onWire(e.data as Wire)
    this.elect()
  }

  /** Leaves the group (tab closing or app unmounting); a master hands over by saying so. */
  stop() {
    if (this.role === 'master') this.post({ t: 'leaving', from: this.id })
    this.closeSocket()
    this.timers.forEach((t) => clearTimeout(t))
    this.timers.clear()
    this.channel?.close()
    this.channel = null
    this.role = 'idle'
    this.setStatus('CLOSED')
  }

  /** Call when the token changes: a master connects after login and disconnects after logout. */
  refresh() {
    if (this.role !== 'master') return
    if (!this.deps.getToken()) this.closeSocket()
    else if (!this.ws && !this.fetching && !this.timers.has('connect') && !this.timers.has('reconnect')) this.scheduleConnect()
  }

  /** Sends JSON over the socket when this tab holds it and it is open. */
  send(payload: unknown): boolean {
    if (this.role !== 'master' || this.status !== 'OPEN' || !this.ws) return false
    this.ws.send(JSON.stringify(payload))
    return true
  }

  onEvent(fn: (m: LiveMessage) => void): () => void {
    this.eventFns.add(fn)
    return () => this.eventFns.delete(fn)
  }

  onStatus(fn: (s: LiveStatus) => void): () => void {
    this.statusFns.add(fn)
    return () => this.statusFns.delete(fn)
  }

  private elect() {
    this.role = 'electing'
    this.clear('watchdog')
    this.post({ t: 'who', from: this.id })
    this.later('election', LIVE_TIMING.electionWaitMs, () => this.becomeMaster())
  }

  private becomeMaster() {
    this.role = 'master'
    this.clear('watchdog')
    this.post({ t: 'master', from: this.id, status: this.status })
    this.every('heartbeat', LIVE_TIMING.heartbeatMs, () =>
      this.post({ t: 'master', from: this.id, status: this.status }),
    )
    this.scheduleConnect()
  }

  private becomePassive(status: LiveStatus) {
    const wasMaster = this.role === 'master'
    this.role = 'passive'
    this.clear('election')
    this.clear('heartbeat')
    if (wasMaster) this.closeSocket()
    this.lastHeard = Date.now()
    this.setStatus(status)
    this.every('watchdog', LIVE_TIMING.heartbeatMs, () => {
      if (Date.now() - this.lastHeard > LIVE_TIMING.masterTimeoutMs) this.elect()
    })
  }

  private onWire(msg: Wire) {
    if (!msg || typeof msg !== 'object' || msg.from === this.id) return
    switch (msg.t) {
      case 'who':
        if (this.role === 'master') this.post({ t: 'master', from: this.id, status: this.status })
        break
      case 'master':
        if (this.role === 'master') {
          // Two masters (both elected at once): the smaller id keeps the socket.
          if (msg.from < this.id) this.becomePassive(msg.status)
          else this.post({ t: 'master', from: this.id, status: this.status })
        } else if (this.role === 'electing' || this.role === 'passive') this.becomePassive(msg.status)
        break
      case 'status':
        if (this.role === 'passive') {
          this.lastHeard = Date.now()
          this.setStatus(msg.status)
        }
        break
      case 'leaving':
        if (this.role === 'passive') {
          this.setStatus('CLOSED')
          this.elect()
        }
        break
      case 'event':
        if (this.role !== 'master') this.emit(msg.msg)
        break
    }
  }

  private scheduleConnect() {
    this.later('connect', LIVE_TIMING.startDelayMs, () => this.connect())
  }

  /** Fetches a ticket, then opens the socket with it; a failed fetch retries later. */
  private connect() {
    if (this.role !== 'master' || !this.deps.getToken() || this.ws || this.fetching) return
    this.setStatus('CONNECTING')
    const attempt = this.attempt
    this.fetching = true
    const settle = (ticket: string | null) => {
      if (attempt !== this.attempt) return // closed (logout, tab handover) meanwhile
      this.fetching = false
      if (ticket !== null && this.role === 'master' && this.deps.getToken() && !this.ws) return this.open(ticket)
      this.setStatus('CLOSED')
      this.scheduleReconnect()
    }
    this.deps.ticket().then(settle, () => settle(null))
  }

  private scheduleReconnect() {
    if (this.role === 'master' && this.deps.getToken()) {
      this.later('reconnect', LIVE_TIMING.reconnectMs, () => this.connect())
    }
  }

  private open(ticket: string) {
    const ws = this.deps.socket(this.deps.url(ticket))
    this.ws = ws
    ws.onopen = () => {
      this.setStatus('OPEN')
      this.every('ping', LIVE_TIMING.pingMs, () => ws.send('9'))
    }
    ws.onmessage = (e) => this.onFrame(e.data)
    ws.onerror = () => this.setStatus('ERROR')
    ws.onclose = () => {
      this.clear('ping')
      if (this.ws === ws) this.ws = null
      this.setStatus('CLOSED')
      this.scheduleReconnect()
    }
  }

  private closeSocket() {
    this.attempt++
    this.fetching = false
    this.clear('connect')
    this.clear('reconnect')
    this.clear('ping')
    const ws = this.ws
    this.ws = null
    if (ws) {
      ws.onclose = ws.onerror = ws.onmessage = ws.onopen = null
      ws.close()
    }
    if (this.role === 'master' || this.role === 'idle') this.setStatus('CLOSED')
  }

  private onFrame(raw: unknown) {
    const msg = parseLiveMessage(raw)
    if (!msg) {
      ;(this.deps.log ?? console.warn)('live: ignored an unparseable message', raw)
      return
    }
    this.emit(msg)
    this.post({ t: 'event', from: this.id, msg })
  }

  private emit(msg: LiveMessage) {
    this.eventFns.forEach((fn) => fn(msg))
  }

  private setStatus(status: LiveStatus) {
    if (this.status === status) return
    this.status = status
    if (this.role === 'master') this.post({ t: 'status', from: this.id, status })
    this.statusFns.forEach((fn) => fn(status))
  }

  private post(msg: Wire) {
    this.channel?.postMessage(msg)
  }

  private later(name: string, ms: number, fn: () => void) {
    this.clear(name)
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name)
        fn()
      }, ms),
    )
  }

  private every(name: string, ms: number, fn: () => void) {
    this.later(name, ms, () => {
      fn()
      if (this.role !== 'idle') this.every(name, ms, fn)
    })
  }

  private clear(name: string) {
    const t = this.timers.get(name)
    if (t !== undefined) clearTimeout(t)
    this.timers.delete(name)
  }
}
