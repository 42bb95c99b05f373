import { useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { subscribeToken } from '../lib/auth'
import { applyLiveEvent } from '../lib/liveCache'
import { lowBalanceNotice } from '../lib/lowBalance'
import { toaster } from '../lib/toaster'
import { liveClient, useLiveEvent } from '../lib/useLive'

/** Starts this tab's live client (leader election), follows login/logout and feeds events into the cache. */
export function LiveBridge() {
  const queryClient = useQueryClient()

  useEffect(() => {
    const client = liveClient()
    client.start()
    const unsubscribe = subscribeToken(() => client.refresh())
    const leave = () => client.stop()
    const back = (e: PageTransitionEvent) => e.persisted && client.start() // restored from the back/forward cache
    window.addEventListener('pagehide', leave)
    window.addEventListener('pageshow', back)
    return () => {
      unsubscribe()
      window.removeEventListener('pagehide', leave)
      window.removeEventListener('pageshow', back)
    }
  }, [])

  useLiveEvent((msg) => {
    applyLiveEvent(queryClient, msg)
    const notice = lowBalanceNotice(msg)
    if (notice) toaster.create({ type: 'warning', title: 'کمبود اعتبار', description: notice, duration: 15_000 })
  })
  return null
}
