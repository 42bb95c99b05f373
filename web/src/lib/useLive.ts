import { useEffect, useRef, useSyncExternalStore } from 'react'
import { api } from './api'
import { getToken } from './auth'
import { LIVE_CHANNEL, LiveClient, type ChannelLike, type SocketLike, type LiveDeps, type LiveMessage, type LiveStatus } from './live'

function browserDeps(): LiveDeps {
  return {
    channel: () => (typeof BroadcastChannel === 'undefined' ? null : (new BroadcastChannel(LIVE_CHANNEL) as unknown as ChannelLike)),
    socket: (url) => new WebSocket(url) as unknown as SocketLike,
    url: (ticket) => {
      const proto = window.location.protocol === 'https:' ? 'wss' : 'ws'
      return `${proto}://${window.location.host}/v1/ws?ticket=${encodeURIComponent(ticket)}`
    },
    ticket: async () => (await api.post<{ ticket: string }>('/live/ticket')).ticket,
    getToken,
  }
}

let shared: LiveClient | null = null

/** The page's single live client. */
export function liveClient(): LiveClient {
  shared ??= new LiveClient(browserDeps())
  return shared
}

export function useLiveStatus(): LiveStatus {
  const client = liveClient()
  return useSyncExternalStore(
    (fn) => client.onStatus(fn),
    () => client.status,
    () => 'CLOSED',
  )
}

/** Calls fn for every live message (from this tab's socket or another tab's). */
export function useLiveEvent(fn: (m: LiveMessage) => void) {
  const ref = useRef(fn)
  ref.current = fn
  useEffect(() => liveClient().onEvent((m) => ref.current(m)), [])
}
