import { useCallback, useEffect, useRef } from 'react'
import { useTheme } from 'next-themes'

/** Spec §3/§4: "true" under `dark` means dark; light removes the key. */
export const DARK_KEY = 'dark'
/** next-themes keeps its own copy here; the `dark` key stays the source of truth. */
export const NEXT_THEMES_KEY = 'chapar-theme'

export type Mode = 'light' | 'dark'

export function readMode(storage: Storage = localStorage): Mode {
  try {
    return storage.getItem(DARK_KEY) === 'true' ? 'dark' : 'light'
  } catch {
    return 'light'
  }
}

export function writeMode(mode: Mode, storage: Storage = localStorage) {
  try {
    if (mode === 'dark') storage.setItem(DARK_KEY, 'true')
    else storage.removeItem(DARK_KEY)
  } catch {
    /* storage unavailable (private mode): the theme still applies for this page */
  }
}

/** The mode another tab chose, or null when the storage event is about something else. */
export function modeFromStorageEvent(e: Pick<StorageEvent, 'key' | 'newValue'>): Mode | null {
  if (e.key === DARK_KEY) return e.newValue === 'true' ? 'dark' : 'light'
  if (e.key === null) return 'light' // localStorage.clear() in another tab
  return null
}

/** Before React renders: make next-themes start from the `dark` key (no flash of the wrong theme). */
export function primeThemeStorage(storage: Storage = localStorage) {
  try {
    storage.setItem(NEXT_THEMES_KEY, readMode(storage))
  } catch {
    /* ignore */
  }
}

/**
 * Keeps next-themes and the `dark` key in step: on mount and on other tabs' changes the key
 * drives next-themes; a change made through `useColorMode` writes the key.
 */
export function useDarkKeySync() {
  const { resolvedTheme, setTheme } = useTheme()
  const seen = useRef(resolvedTheme)

  useEffect(() => {
    setTheme(readMode())
    const onStorage = (e: StorageEvent) => {
      const mode = modeFromStorageEvent(e)
      if (mode) setTheme(mode)
    }
    window.addEventListener('storage', onStorage)
    return () => window.removeEventListener('storage', onStorage)
  }, [setTheme])

  useEffect(() => {
    if (resolvedTheme === seen.current) return // not a change: the key already leads
    seen.current = resolvedTheme
    if (resolvedTheme === 'dark' || resolvedTheme === 'light') writeMode(resolvedTheme)
  }, [resolvedTheme])
}

/** The colour mode for components: read it and switch it (persisted under `dark`). */
export function useColorMode() {
  const { resolvedTheme, setTheme } = useTheme()
  const mode: Mode = resolvedTheme === 'dark' ? 'dark' : 'light'
  const set = useCallback(
    (next: Mode) => {
      writeMode(next)
      setTheme(next)
    },
    [setTheme],
  )
  const toggle = useCallback(() => set(mode === 'dark' ? 'light' : 'dark'), [mode, set])
  return { mode, setMode: set, toggle }
}
