/** Per-field Persian messages of a validation error (meta.errors). */
export type FieldErrors = Record<string, string[]>

/** An error answer of the API: HTTP status, the envelope's Persian message, its code and field errors. */
export class ChaparError extends Error {
  constructor(status: number, message: string, opts?: { code?: string; errors?: FieldErrors; data?: unknown; retryAfter?: number | null })
  /** HTTP status (0 for a network error). */
  readonly status: number
  /** meta.message_code: a stable code such as "422", "low-credit", "403-8", "local-id-taken". */
  readonly code: string
  readonly errors: FieldErrors
  readonly data: unknown
  /** Seconds of the answer's Retry-After, when it had one. */
  readonly retryAfter: number | null
}

/** The API could not be reached (after the retries). */
export class ChaparNetworkError extends ChaparError {
  constructor(message: string, cause?: unknown)
}

export interface ClientOptions {
  timeoutMs?: number
  /** Retries after the first try on network errors, 5xx and 429 (default 3). */
  maxRetries?: number
  backoffMs?: number
  maxBackoffMs?: number
  fetch?: typeof globalThis.fetch
}

export interface Accepted {
  id: number
  status: 'queued' | 'scheduled' | 'held' | 'done'
  price: number
  sender?: string
  cancel11?: boolean
  sandbox?: boolean
}

export interface PatternSent extends Accepted {
  local_id?: string
  type: string
  held?: boolean
}

export interface Recipient {
  mobile: string
  operator: string
  parts: number
  /** 0 waiting, 1 sent, 2 delivered, 3 not delivered, 4 blacklisted (spec §4). */
  status: number
  pending?: boolean
  rejected?: boolean
  error?: string
}

export interface SendStatus {
  id: number
  status: string
  local_id: string
  requested: number
  recipients: number
  sent: number
  delivered: number
  undelivered: number
  blacklisted: number
  rejected: number
  pending: number
  parts: number
  price: number
  refunded: number
  recipient?: Recipient
  [key: string]: unknown
}

export interface InboxMessage {
  id: number
  sender: string
  line: string
  text: string
  operator: string
  received_at: string
}

export interface Line {
  id: number
  number: string
  kind: 'advertising' | 'service'
  is_default: boolean
}

export interface SendInput {
  sender: string
  numbers: string[]
  text: string
  localId?: string
  sendAt?: string | null
  cancel11?: boolean
  idempotencyKey?: string
  [extra: string]: unknown
}

export interface PatternInput {
  code: string
  recipient?: string
  values?: Record<string, string | number>
  recipients?: { mobile: string; values?: Record<string, string> }[]
  sender?: string
  localId?: string
  idempotencyKey?: string
}

export class Client {
  constructor(baseUrl: string, apiKey: string, options?: ClientOptions)
  readonly baseUrl: string
  send(input: SendInput): Promise<Accepted>
  sendPattern(input: PatternInput): Promise<PatternSent>
  status(id: number, opts?: { mobile?: string }): Promise<SendStatus>
  statusByLocalId(localId: string, opts?: { mobile?: string }): Promise<SendStatus>
  credit(): Promise<number>
  lines(): Promise<Line[]>
  inboxSince(afterId?: number, opts?: { limit?: number }): Promise<InboxMessage[]>
  request<T = unknown>(method: string, path: string, opts?: { body?: unknown; query?: Record<string, unknown>; idempotencyKey?: string }): Promise<T>
}

export const HEADER_TIMESTAMP: 'X-Chapar-Timestamp'
export const HEADER_SIGNATURE: 'X-Chapar-Signature'
export const HEADER_DELIVERY: 'X-Chapar-Delivery'

export function signWebhook(secret: string, timestamp: string | number, body: string | Uint8Array): string
export function verifyWebhook(
  secret: string, timestamp: string, signature: string, body: string | Uint8Array,
  opts?: { toleranceSec?: number; now?: number },
): boolean
