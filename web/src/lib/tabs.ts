import { useCallback } from 'react'
import { useSearchParams } from 'react-router'

export const TAB_PARAM = 'tab'

/** Spec §2: the tab query parameter is an index; anything outside the list means the first tab. */
export function parseTabIndex(raw: string | null, count: number): number {
  if (raw === null || !/^\d+$/.test(raw.trim())) return 0
  const n = Number(raw)
  return Number.isInteger(n) && n >= 0 && n < count ? n : 0
}

/** The current tab index from `?tab=` and a setter that keeps the other query parameters. */
export function useTabParam(count: number): [number, (index: number) => void] {
  const [params, setParams] = useSearchParams()
  const index = parseTabIndex(params.get(TAB_PARAM), count)
  const setIndex = useCallback(
    (next: number) => {
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev)
          p.set(TAB_PARAM, String(next))
          return p
        },
        { replace: true },
      )
    },
    [setParams],
  )
  return [index, setIndex]
}
