import { useSyncExternalStore } from 'react'

/** Spec §9: the mobile layout applies below 768 px. */
export const MOBILE_QUERY = '(max-width: 767.98px)'

function subscribe(fn: () => void) {
  const mq = window.matchMedia(MOBILE_QUERY)
  mq.addEventListener('change', fn)
  return () => mq.removeEventListener('change', fn)
}

function snapshot() {
  return typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches
}

export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false)
}
