// Client for the Chapar SMS API (no dependencies: fetch and node:crypto).
// Types: index.d.ts beside this file.
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'

const USER_AGENT = 'chapar-js/0.1.0'

/** An error answer of the API: HTTP status, the envelope's Persian message, its code and field errors. */
export class ChaparError extends Error {
  constructor(status, message, { code = '', errors = {}, data = null, retryAfter = null } = {}) {
    super(message)
    this.name = 'ChaparError'
    this.status = status
    this.code = code
    this.errors = errors
    this.data = data
    this.retryAfter = retryAfter
  }
}

/** The API could not be reached (after the retries). */
export class ChaparNetworkError extends ChaparError {
  constructor(message, cause) {
    super(0, message, { code: 'network' })
    this.name = 'ChaparNetworkError'
    this.cause = cause
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function retryAfterSeconds(value) {
  if (!value) return null
  const n = Number(value)
  if (Number.isFinite(n)) return Math.max(0, n)
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, (at - Date.now()) / 1000)
}

const retryable = (err) =>
  err instanceof ChaparNetworkError || err.status >= 500 || err.status === 429 || err.code === 'idempotency-key-busy'

/**
 * A client of one account, authenticated with an API key. Calls are retried on network
 * errors, 5xx and 429 (waiting Retry-After when given); each POST carries an
 * Idempotency-Key that stays the same on every retry.
 */
export class Client {
  constructor(baseUrl, apiKey, { timeoutMs = 30_000, maxRetries = 3, backoffMs = 500, maxBackoffMs = 30_000, fetch: f } = {}) {
    let url = String(baseUrl).replace(/\/+$/, '')
    if (!url.endsWith('/v1/api')) url += '/v1/api'
    this.baseUrl = url
    this.apiKey = apiKey
    this.timeoutMs = timeoutMs
    this.maxRetries = maxRetries
    this.backoffMs = backoffMs
    this.maxBackoffMs = maxBackoffMs
    this.fetch = f ?? globalThis.fetch
  }

  /** Quick send of text from the line `sender` to `numbers`. */
  send({ sender, numbers, text, localId, sendAt, cancel11, idempotencyKey, ...extra }) {
    const body = { type: 'quick', sender, text, numbers, ...extra }
    if (localId !== undefined) body.local_id = localId
    if (sendAt !== undefined) body.send_at = sendAt
    if (cancel11 !== undefined) body.cancel11 = cancel11
    return this.request('POST', '/send', { body, idempotencyKey })
  }

  /** Sends an approved pattern to `recipient` with `values`, or to `recipients`. */
  sendPattern({ code, recipient, values, recipients, sender, localId, idempotencyKey }) {
    const body = { code }
    if (recipient !== undefined) {
      body.recipient = recipient
      body.values = Object.fromEntries(Object.entries(values ?? {}).map(([k, v]) => [k, String(v)]))
    }
    if (recipients !== undefined) body.recipients = recipients
    if (sender !== undefined) body.sender = sender
    if (localId !== undefined) body.local_id = localId
    return this.request('POST', '/patterns/send', { body, idempotencyKey })
  }

  /** A send by its id; with `mobile`, that recipient's status in `recipient`. */
  status(id, { mobile } = {}) {
    return this.request('GET', '/send/status', { query: { id, mobile } })
  }

  /** A send by the local_id it was sent with. */
  statusByLocalId(localId, { mobile } = {}) {
    return this.request('GET', '/send/status', { query: { local_id: localId, mobile } })
  }

  /** The wallet's credit in rials. */
  async credit() {
    return (await this.request('GET', '/payment/credit/mine')).credit
  }

  /** The account's sender lines, the default first. */
  lines() {
    return this.request('GET', '/number/numbers')
  }

  /** Received messages with an id above `afterId`, oldest first. */
  inboxSince(afterId = 0, { limit = 100 } = {}) {
    return this.request('GET', '/inbox/since', { query: { after_id: afterId, limit } })
  }

  /** One API call with retries; resolves to the envelope's data or rejects with ChaparError. */
  async request(method, path, { body, query, idempotencyKey } = {}) {
    const url = new URL(this.baseUrl + path)
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v))
    const headers = { Authorization: `Bearer ${this.apiKey}`, Accept: 'application/json', 'User-Agent': USER_AGENT }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    if (method === 'POST') headers['Idempotency-Key'] = idempotencyKey ?? randomUUID()
    const payload = body === undefined ? undefined : JSON.stringify(body)
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#once(method, url, headers, payload)
      } catch (err) {
        if (!(err instanceof ChaparError) || attempt >= this.maxRetries || !retryable(err)) throw err
        await sleep(this.#delay(attempt, err.retryAfter))
      }
    }
  }

  #delay(attempt, retryAfter) {
    if (retryAfter !== null && retryAfter !== undefined) return Math.min(retryAfter * 1000, this.maxBackoffMs)
    const base = Math.min(this.backoffMs * 2 ** attempt, this.maxBackoffMs)
    return base * (0.8 + 0.4 * Math.random())
  }

  async #once(method, url, headers, payload) {
    let res, text
    try {
      res = await this.fetch(url, { method, headers, body: payload, signal: AbortSignal.timeout(this.timeoutMs) })
      text = await res.text()
    } catch (err) {
      throw new ChaparNetworkError(`chapar: ${method} ${url}: ${err?.message ?? err}`, err)
    }
    let env = null
    try { env = text ? JSON.parse(text) : null } catch { env = null }
    if (res.ok) return env?.data ?? null
    const meta = env?.meta ?? {}
    throw new ChaparError(res.status, meta.message || `HTTP ${res.status}`, {
      code: String(meta.message_code ?? ''), errors: meta.errors ?? {}, data: env?.data ?? null,
      retryAfter: retryAfterSeconds(res.headers.get('retry-after')),
    })
  }
}

export const HEADER_TIMESTAMP = 'X-Chapar-Timestamp'
export const HEADER_SIGNATURE = 'X-Chapar-Signature'
export const HEADER_DELIVERY = 'X-Chapar-Delivery'

/** The X-Chapar-Signature value of `body` (the raw bytes) sent at `timestamp` (Unix seconds). */
export function signWebhook(secret, timestamp, body) {
  const mac = createHmac('sha256', secret)
  mac.update(`${timestamp}.`)
  mac.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
  return `v1=${mac.digest('hex')}`
}

/**
 * Checks a webhook POST on its raw body: the signature (one or more, comma-separated)
 * matches in constant time and the timestamp is within `toleranceSec` of `now` (ms).
 */
export function verifyWebhook(secret, timestamp, signature, body, { toleranceSec = 300, now = Date.now() } = {}) {
  const ts = String(timestamp ?? '').trim()
  if (!/^-?\d+$/.test(ts)) return false
  if (Math.abs(now / 1000 - Number(ts)) > toleranceSec) return false
  const want = Buffer.from(signWebhook(secret, String(Number(ts)), body))
  return String(signature ?? '').split(',').some((s) => {
    const got = Buffer.from(s.trim())
    return got.length === want.length && timingSafeEqual(got, want)
  })
}
