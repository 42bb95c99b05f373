import { ApiError } from './apiError'
import { getAdminToken, getToken } from './auth'

export { ApiError, errorText, errorDisplay, isApiError } from './apiError'

export const API_BASE = '/v1/api'

export interface Meta {
  status?: number
  message?: string
  message_code?: string
  errors?: Record<string, unknown>
  page?: number
  limit?: number
  total?: number
  /** The contact list only: the name search is still catching up with an import. */
  indexing?: boolean
}

export interface PageMeta {
  page: number
  limit: number
  total: number
  /** Set by the contact list (meta.indexing). */
  indexing?: boolean
}

export interface Paged<T> {
  rows: T[]
  meta: PageMeta
}

/**
 * Calls whose 401 means "wrong credentials or code", not "session expired":
 * they must not log the user out (spec §4 Session).
 */
export const UNAUTHORIZED_EXEMPT = [
  '/acl/auth/login',
  '/acl/auth/login_otp',
  '/acl/auth/send_sms_otp',
  '/acl/auth/confirm_otp',
  '/acl/auth/forgot_password_check_otp',
  '/acl/auth/change_password_by_token',
  '/user/check_exist',
  '/user/register/verify',
  '/acl/auth/external_login',
  '/acl/auth/external_login/preview',
] as const

export function isUnauthorizedExempt(path: string): boolean {
  const clean = path.split('?')[0].replace(/\/+$/, '')
  return isAdminPath(clean) || (UNAUTHORIZED_EXEMPT as readonly string[]).includes(clean)
}

/** Back-office calls carry the staff token and never touch the customer's session. */
export function isAdminPath(path: string): boolean {
  return path.startsWith('/admin/')
}

let unauthorizedHandler: (() => void) | null = null

/** Registers what happens on a 401 from a non-exempt call (app wires: clear token + cache, go to /login). */
export function setUnauthorizedHandler(fn: (() => void) | null) {
  unauthorizedHandler = fn
}

type QueryValue = string | number | boolean | null | undefined
export type Query = Record<string, QueryValue | QueryValue[]>

export function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    const list = Array.isArray(value) ? value : [value]
    for (const v of list) if (v !== undefined && v !== null && v !== '') params.append(key, String(v))
  }
  const qs = params.toString()
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  query?: Query
  body?: unknown
  headers?: Record<string, string>
  signal?: AbortSignal
  /** Handle a 401 at the call site instead of logging out (e.g. checking a token from a link). */
  noAuthRedirect?: boolean
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers }
  const token = isAdminPath(path) ? getAdminToken() : getToken()
  if (token) headers.Authorization = `Bearer ${token}`
  let body: BodyInit | undefined
  if (opts.body instanceof FormData) body = opts.body
  else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(opts.body)
  }
  let res: Response
  try {
    res = await fetch(buildUrl(path, opts.query), { method: opts.method ?? 'GET', headers, body, signal: opts.signal })
  } catch (err) {
    if ((err as Error)?.name === 'AbortError') throw err
    throw new ApiError({ status: 0 })
  }
  if (res.status === 401 && !opts.noAuthRedirect && !isUnauthorizedExempt(path)) unauthorizedHandler?.()
  return res
}

async function readEnvelope(res: Response): Promise<{ data: unknown; meta: Meta }> {
  try {
    const json = (await res.json()) as { data?: unknown; meta?: Meta } | null
    return { data: json?.data ?? null, meta: json?.meta ?? {} }
  } catch {
    return { data: null, meta: {} }
  }
}

function toError(status: number, meta: Meta, data?: unknown): ApiError {
  return new ApiError({ status, message: meta.message, messageCode: meta.message_code, errors: meta.errors, data })
}

/** Performs a call and unwraps the `{data, meta}` envelope; throws ApiError on failure. */
export async function request<T>(path: string, opts: RequestOptions = {}): Promise<{ data: T; meta: Meta }> {
  const res = await send(path, opts)
  const { data, meta } = await readEnvelope(res)
  if (!res.ok) throw toError(res.status, meta, data)
  return { data: data as T, meta }
}

export const api = {
  get: async <T>(path: string, query?: Query, signal?: AbortSignal) =>
    (await request<T>(path, { query, signal })).data,
  post: async <T>(path: string, body?: unknown, headers?: Record<string, string>) =>
    (await request<T>(path, { method: 'POST', body, headers })).data,
  put: async <T>(path: string, body?: unknown) => (await request<T>(path, { method: 'PUT', body })).data,
  delete: async <T>(path: string, body?: unknown) => (await request<T>(path, { method: 'DELETE', body })).data,
  /** A paged list: rows from data, page/limit/total from meta. */
  page: async <T>(path: string, query?: Query, signal?: AbortSignal): Promise<Paged<T>> => {
    const { data, meta } = await request<T[]>(path, { query, signal })
    const rows = Array.isArray(data) ? data : []
    return {
      rows,
      meta: {
        page: meta.page ?? 1,
        limit: meta.limit ?? rows.length,
        total: meta.total ?? rows.length,
        ...(meta.indexing === undefined ? {} : { indexing: meta.indexing }),
      },
    }
  },
}

/** Download progress: bytes received and the total (0 when the server streams without a length). */
export type DownloadProgress = (received: number, total: number) => void

/**
 * Downloads a file through the API with the auth header and saves it in the browser.
 * onProgress, when given, hears every chunk as it arrives.
 */
export async function downloadFile(
  path: string,
  query: Query,
  fallbackName: string,
  onProgress?: DownloadProgress,
  /** A POST export (e.g. /report/payment/export/new) sends its filters as the body. */
  post?: { body: unknown },
): Promise<void> {
  const res = await send(path, { query, headers: { Accept: '*/*' }, ...(post ? { method: 'POST' as const, body: post.body } : {}) })
  if (!res.ok) throw toError(res.status, (await readEnvelope(res)).meta)
  const blob = onProgress ? await readWithProgress(res, onProgress) : await res.blob()
  const name = fileNameFrom(res.headers.get('Content-Disposition')) ?? fallbackName
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

async function readWithProgress(res: Response, onProgress: DownloadProgress): Promise<Blob> {
  const total = Number(res.headers.get('Content-Length')) || 0
  if (!res.body) return res.blob()
  const reader = res.body.getReader()
  const parts: BlobPart[] = []
  let received = 0
  onProgress(0, total)
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parts.push(value)
    received += value.byteLength
    onProgress(received, total)
  }
  return new Blob(parts, { type: res.headers.get('Content-Type') ?? undefined })
}

export function fileNameFrom(disposition: string | null): string | undefined {
  if (!disposition) return undefined
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition)
  if (star) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''))
  const plain = /filename="?([^";]+)"?/i.exec(disposition)
  return plain?.[1]
}
