import { createElement, lazy, useState, type ComponentType } from 'react'

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

/** A lazy page whose code can be loaded ahead (`preload`) and then renders without suspending. */
export type LazyPage<P extends object> = ComponentType<P> & { preload: () => Promise<unknown> }

/**
 * React.lazy over a module's default export, with the reload-on-failure rule. A page
 * whose code is already loaded (preload, or an earlier visit) renders synchronously:
 * React.lazy alone suspends once on its first render even then, and React reveals a
 * Suspense boundary's content at most every 300 ms after its fallback showed, which
 * held the dashboard back that long after sign-in.
 */
export function lazyPage<P extends object>(factory: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  let loaded: ComponentType<P> | undefined
  let loading: Promise<unknown> | undefined
  const load = () => {
    loading ??= importWithReload(factory).then((m) => {
      loaded = m.default
      return m
    })
    return loading as Promise<{ default: ComponentType<P> }>
  }
  const Lazy = lazy(load)
  function Page(props: P) {
    // Chosen once per mount: switching the type later would remount the page.
    const [Comp] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>))
    return createElement(Comp, props)
  }
  Page.preload = load
  return Page
}
