import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type RefObject } from 'react'
import { SELECT_AFTER_CREATE_MS } from './selectUtils'

/** Below 768 px the panel uses its mobile layout (spec §9). */
export const MOBILE_QUERY = '(max-width: 767.98px)'

function subscribeMobile(onChange: () => void) {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {}
  const mql = window.matchMedia(MOBILE_QUERY)
  mql.addEventListener('change', onChange)
  return () => mql.removeEventListener('change', onChange)
}

function mobileSnapshot() {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return false
  return window.matchMedia(MOBILE_QUERY).matches
}

/** True on viewports narrower than 768 px. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribeMobile, mobileSnapshot, () => false)
}

/** The value after it has stopped changing for `delay` ms. */
export function useDebouncedValue<T>(value: T, delay: number): T {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    const id = setTimeout(() => setDebounced(value), delay)
    return () => clearTimeout(id)
  }, [value, delay])
  return debounced
}

/**
 * Calls `onClose` while `open` when the page (or a scrollable ancestor) scrolls more than
 * `threshold` px; scrolling inside `ignoreRef` (the popup itself) does not count.
 */
export function useCloseOnScroll(open: boolean, onClose: () => void, ignoreRef?: RefObject<HTMLElement | null>, threshold = 40) {
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose
  useEffect(() => {
    if (!open) return
    // Element scrolls are measured from their first event; the page from its position at opening.
    const start = new WeakMap<object, number>([[document, window.scrollY]])
    const onScroll = (event: Event) => {
      const target = event.target
      const el = target instanceof Element ? target : null
      if (el && ignoreRef?.current?.contains(el)) return
      const key: object = el ?? document
      const pos = el ? el.scrollTop : window.scrollY
      if (!start.has(key)) start.set(key, pos)
      if (Math.abs(pos - (start.get(key) ?? 0)) > threshold) onCloseRef.current()
    }
    window.addEventListener('scroll', onScroll, true)
    return () => window.removeEventListener('scroll', onScroll, true)
  }, [open, ignoreRef, threshold])
}

/** Calls `handler` on a pointer-down outside every given element while `active`. */
export function useOutsideClick(active: boolean, refs: Array<RefObject<HTMLElement | null>>, handler: () => void) {
  const handlerRef = useRef(handler)
  handlerRef.current = handler
  const refsRef = useRef(refs)
  refsRef.current = refs
  const listener = useCallback((event: Event) => {
    const target = event.target as Node | null
    if (target && refsRef.current.some((r) => r.current?.contains(target))) return
    handlerRef.current()
  }, [])
  useEffect(() => {
    if (!active) return
    document.addEventListener('pointerdown', listener, true)
    document.addEventListener('mousedown', listener, true)
    return () => {
      document.removeEventListener('pointerdown', listener, true)
      document.removeEventListener('mousedown', listener, true)
    }
  }, [active, listener])
}

/**
 * Returns a function that selects an item created from inside a picker
 * SELECT_AFTER_CREATE_MS later (spec §9: the picker's options are read again first);
 * a later creation replaces a pending one, and unmounting cancels it.
 */
export function useSelectAfterCreate<T>(select: (item: T) => void, delay = SELECT_AFTER_CREATE_MS): (item: T) => void {
  const timer = useRef<number | undefined>(undefined)
  const latest = useRef(select)
  useEffect(() => {
    latest.current = select
  })
  useEffect(() => () => window.clearTimeout(timer.current), [])
  return useCallback((item: T) => {
    window.clearTimeout(timer.current)
    timer.current = window.setTimeout(() => latest.current(item), delay)
  }, [delay])
}
