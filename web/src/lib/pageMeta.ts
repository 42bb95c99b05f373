import { useMatches } from 'react-router'

export interface RouteHandle {
  title?: string
  /** Hide the mobile back icon (top-level pages). */
  root?: boolean
}

/** Title and flags of the deepest route that declares them (route `handle`). */
export function usePageMeta(): RouteHandle {
  const matches = useMatches()
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined
    if (handle?.title) return handle
  }
  return {}
}
