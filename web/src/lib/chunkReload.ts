import { lazy, type ComponentType } from 'react'

/** Spec §2/§9: a failed dynamic import reloads the page, up to 3 times. */
export const CHUNK_RELOAD_KEY = 'chunk-reloads'
export const MAX_CHUNK_RELOADS = 3

interface Deps {
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  reload: () => void
}

function defaultDeps(): Deps {
  return { storage: sessionStorage, reload: () => window.location.reload() }
}

/** Wraps an import(): success resets the counter; failure reloads while the counter allows. */
export function importWithReload<T>(factory: () => Promise<T>, deps: Deps = defaultDeps()): Promise<T> {
  return factory().then(
    (mod) => {
      deps.storage.removeItem(CHUNK_RELOAD_KEY)
      return mod
    },
    (err: unknown) => {
      const count = Number(deps.storage.getItem(CHUNK_RELOAD_KEY) ?? 0) || 0
      if (count >= MAX_CHUNK_RELOADS) throw err
      deps.storage.setItem(CHUNK_RELOAD_KEY, String(count + 1))
      deps.reload()
      return new Promise<T>(() => {}) // the page is going away
    },
  )
}

/** React.lazy over a module's default export, with the reload-on-failure rule. */
export function lazyPage<P extends object>(factory: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(() => importWithReload(factory))
}
