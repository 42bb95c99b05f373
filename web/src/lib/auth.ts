import { useSyncExternalStore } from 'react'

/** localStorage key that holds the session token (spec §3 "Browser storage"). */
export const TOKEN_KEY = 'token'

const listeners = new Set<() => void>()

function emit() {
  listeners.forEach((fn) => fn())
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY)
  } catch {
    return null
  }
}

export function setToken(token: string) {
  try {
    localStorage.setItem(TOKEN_KEY, token)
  } finally {
    emit()
  }
}

export function clearToken() {
  try {
    localStorage.removeItem(TOKEN_KEY)
  } finally {
    emit()
  }
}

/** Subscribes to token changes in this tab and in other tabs (storage event). */
export function subscribeToken(fn: () => void): () => void {
  listeners.add(fn)
  const onStorage = (e: StorageEvent) => {
    if (e.key === TOKEN_KEY || e.key === ADMIN_TOKEN_KEY || e.key === null) fn()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(fn)
    window.removeEventListener('storage', onStorage)
  }
}

/** The current token, re-rendering when it changes. */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken, () => null)
}

/** localStorage key of the back office's staff session, kept apart from the customer's. */
export const ADMIN_TOKEN_KEY = 'admin_token'

export function getAdminToken(): string | null {
  try {
    return localStorage.getItem(ADMIN_TOKEN_KEY)
  } catch {
    return null
  }
}

export function setAdminToken(token: string) {
  try {
    localStorage.setItem(ADMIN_TOKEN_KEY, token)
  } finally {
    emit()
  }
}

export function clearAdminToken() {
  try {
    localStorage.removeItem(ADMIN_TOKEN_KEY)
  } finally {
    emit()
  }
}

/** The staff token, re-rendering when it changes. */
export function useAdminToken(): string | null {
  return useSyncExternalStore(subscribeToken, getAdminToken, () => null)
}
