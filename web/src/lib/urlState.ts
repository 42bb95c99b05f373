import { useCallback, useMemo } from 'react'
import { useSearchParams } from 'react-router'

/** Names and defaults of a URL-driven list (spec §2: page and limit, optional filter prefix). */
export interface ListUrlOptions {
  pageKey?: string
  limitKey?: string
  defaultLimit?: number
  /** Filters live under `{prefix}-{key}` when set. */
  prefix?: string
  tabKey?: string
}

export const DEFAULT_PAGE = 1
export const DEFAULT_LIMIT = 10

function keys(o: ListUrlOptions = {}) {
  return {
    pageKey: o.pageKey ?? 'page',
    limitKey: o.limitKey ?? 'limit',
    defaultLimit: o.defaultLimit ?? DEFAULT_LIMIT,
    tabKey: o.tabKey ?? 'tab',
    prefix: o.prefix,
  }
}

function positiveInt(value: string | null, fallback: number): number {
  const n = Number(value)
  return value && Number.isInteger(n) && n > 0 ? n : fallback
}

/** The URL key of a filter: `key`, or `{prefix}-key` with a prefix. */
export function filterKey(key: string, prefix?: string): string {
  return prefix ? `${prefix}-${key}` : key
}

export function readPaging(params: URLSearchParams, o?: ListUrlOptions): { page: number; limit: number } {
  const k = keys(o)
  return {
    page: positiveInt(params.get(k.pageKey), DEFAULT_PAGE),
    limit: positiveInt(params.get(k.limitKey), k.defaultLimit),
  }
}

/** Filter values by their unprefixed key; only the keys asked for, only non-empty values. */
export function readFilters(params: URLSearchParams, filterKeys: string[], o?: ListUrlOptions): Record<string, string> {
  const out: Record<string, string> = {}
  for (const key of filterKeys) {
    const value = params.get(filterKey(key, o?.prefix))
    if (value) out[key] = value
  }
  return out
}

export function withPage(params: URLSearchParams, page: number, o?: ListUrlOptions): URLSearchParams {
  const next = new URLSearchParams(params)
  next.set(keys(o).pageKey, String(Math.max(1, Math.floor(page))))
  return next
}

/** Sets the page size and goes back to page 1. */
export function withLimit(params: URLSearchParams, limit: number, o?: ListUrlOptions): URLSearchParams {
  const k = keys(o)
  const next = new URLSearchParams(params)
  next.set(k.limitKey, String(limit))
  next.set(k.pageKey, '1')
  return next
}

/** Sets (or with an empty value removes) filters by unprefixed key and goes back to page 1. */
export function withFilters(
  params: URLSearchParams,
  values: Record<string, string | null | undefined>,
  o?: ListUrlOptions,
): URLSearchParams {
  const k = keys(o)
  const next = new URLSearchParams(params)
  for (const [key, value] of Object.entries(values)) {
    const urlKey = filterKey(key, k.prefix)
    if (value === null || value === undefined || value === '') next.delete(urlKey)
    else next.set(urlKey, value)
  }
  next.set(k.pageKey, '1')
  return next
}

/** Removes every parameter except the page size and the tab (spec §2). */
export function clearFilters(params: URLSearchParams, o?: ListUrlOptions): URLSearchParams {
  const k = keys(o)
  const next = new URLSearchParams()
  for (const key of [k.limitKey, k.tabKey]) {
    const value = params.get(key)
    if (value !== null) next.set(key, value)
  }
  return next
}

/** True when any of the given filters has a value. */
export function hasFilters(params: URLSearchParams, filterKeys: string[], o?: ListUrlOptions): boolean {
  return Object.keys(readFilters(params, filterKeys, o)).length > 0
}

export interface UrlListState {
  page: number
  limit: number
  params: URLSearchParams
  /** A filter's value by its unprefixed key ('' when unset). */
  getFilter: (key: string) => string
  filters: (filterKeys: string[]) => Record<string, string>
  setPage: (page: number) => void
  setLimit: (limit: number) => void
  setFilter: (key: string, value: string | null | undefined) => void
  setFilters: (values: Record<string, string | null | undefined>) => void
  clearFilters: () => void
}

/** List state (page, limit, filters) kept in the URL query through react-router. */
export function useUrlListState(options: ListUrlOptions = {}): UrlListState {
  const [params, setParams] = useSearchParams()
  const { pageKey, limitKey, defaultLimit, prefix, tabKey } = options
  const o = useMemo(
    () => ({ pageKey, limitKey, defaultLimit, prefix, tabKey }),
    [pageKey, limitKey, defaultLimit, prefix, tabKey],
  )
  const { page, limit } = readPaging(params, o)
  const update = useCallback(
    (fn: (p: URLSearchParams) => URLSearchParams) => setParams((prev) => fn(prev)),
    [setParams],
  )
  return {
    page,
    limit,
    params,
    getFilter: (key) => params.get(filterKey(key, o.prefix)) ?? '',
    filters: (filterKeys) => readFilters(params, filterKeys, o),
    setPage: (p) => update((prev) => withPage(prev, p, o)),
    setLimit: (l) => update((prev) => withLimit(prev, l, o)),
    setFilter: (key, value) => update((prev) => withFilters(prev, { [key]: value }, o)),
    setFilters: (values) => update((prev) => withFilters(prev, values, o)),
    clearFilters: () => update((prev) => clearFilters(prev, o)),
  }
}
