/** Error texts of the spec §8 display rule (glossary wording). */
export const GENERIC_ERROR = 'خطا در ارسال اطلاعات'
export const RECEIVE_ERROR = 'خطا در دریافت اطلاعات'
export const ACCESS_LIMITED = 'دسترسی شما محدود است؛ برای افزایش سطح دسترسی با مدیر خود هماهنگ کنید'
export const ACCESS_LIMITED_CODE = '403-8'

export type FieldErrors = Record<string, string[]>

export interface ApiErrorInit {
  status: number
  message?: string
  messageCode?: string
  errors?: Record<string, unknown>
  /** The envelope's data of the failure (e.g. the next allowed time of a send refused outside its hours). */
  data?: unknown
}

/** A failed API call. status 0 means the request got no response (network failure). */
export class ApiError extends Error {
  readonly status: number
  readonly messageCode: string
  readonly errors: FieldErrors
  readonly serverMessage: string
  readonly data: unknown

  constructor(init: ApiErrorInit) {
    super(init.message || GENERIC_ERROR)
    this.name = 'ApiError'
    this.status = init.status
    this.messageCode = init.messageCode ?? ''
    this.errors = normaliseErrors(init.errors)
    this.serverMessage = init.message ?? ''
    this.data = init.data ?? null
  }

  /** The first message for one field, for showing under a form input. */
  fieldError(field: string): string | undefined {
    return this.errors[field]?.[0]
  }
}

function normaliseErrors(raw: Record<string, unknown> | undefined): FieldErrors {
  const out: FieldErrors = {}
  if (!raw || typeof raw !== 'object') return out
  for (const [key, value] of Object.entries(raw)) {
    const list = Array.isArray(value) ? value : [value]
    const texts = list.filter((v): v is string => typeof v === 'string' && v.trim() !== '')
    if (texts.length) out[key] = texts
  }
  return out
}

export interface ErrorDisplay {
  text: string
  /** true when text came from the server and may hold HTML (spec §8). */
  html: boolean
}

/** Spec §8 display rule, with the 403-8 access message of spec §6. */
export function errorDisplay(err: unknown): ErrorDisplay {
  if (typeof err === 'string') return { text: err, html: false }
  if (!(err instanceof ApiError)) return { text: GENERIC_ERROR, html: false }
  if (err.status === 0 || err.status === 500) return { text: GENERIC_ERROR, html: false }
  if (err.status === 403 && err.messageCode === ACCESS_LIMITED_CODE) {
    return { text: ACCESS_LIMITED, html: false }
  }
  const unique = [...new Set(Object.values(err.errors).flat())]
  if (unique.length) return { text: unique.join('\n'), html: true }
  if (err.serverMessage) return { text: err.serverMessage, html: true }
  return { text: GENERIC_ERROR, html: false }
}

export function errorText(err: unknown): string {
  return errorDisplay(err).text
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.status === status)
}
