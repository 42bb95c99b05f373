import type { QueryClient } from '@tanstack/react-query'

/**
 * What the panel can start before it is needed: the code of the first page after
 * sign-in, fetched while the visitor is still typing, and its data, asked for the
 * moment the token arrives instead of after the layout and the page have loaded
 * one after the other. The app registers them; the sign-in page only calls these
 * functions, so no feature reaches into another.
 */
export interface Warmer {
  /** Starts loading code chunks (dynamic imports); called once. */
  chunks?: () => void
  /** Starts the signed-in queries of the first page. */
  data?: (qc: QueryClient) => void
}

const warmers: Warmer[] = []
let chunksStarted = false

/** Adds a warmer (the app does, at start). */
export function registerWarmer(w: Warmer) {
  warmers.push(w)
}

/** Loads the registered chunks, once per page load. */
export function warmChunks() {
  if (chunksStarted) return
  chunksStarted = true
  for (const w of warmers) w.chunks?.()
}

/** Starts the first page's data right after sign-in (the chunks too, if not yet). */
export function warmSignedIn(qc: QueryClient) {
  warmChunks()
  for (const w of warmers) w.data?.(qc)
}

/** For tests: forgets the registered warmers. */
export function resetWarmers() {
  warmers.length = 0
  chunksStarted = false
}
