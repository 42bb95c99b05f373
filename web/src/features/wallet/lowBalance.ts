import { toLatinDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'

/** The lowest alert threshold (spec §9), in rials. */
export const MIN_ALERT_THRESHOLD = 200_000

export const MSG_ALERT_MIN = 'حداقل مبلغ هشدار کمبود اعتبار ۲۰۰٬۰۰۰ ریال است'
export const MSG_ALERT_REQUIRED = 'مبلغ هشدار را وارد کنید'

/** Reads a typed amount (Persian digits, separators) as rials; NaN when it holds no digits. */
export function parseRials(text: string): number {
  const digits = toLatinDigits(text).replace(/[^0-9]/g, '')
  return digits ? Number(digits) : Number.NaN
}

/** «۲۰۰٬۰۰۰» while typing: digits grouped with the Persian separator. */
export function formatTyped(text: string): string {
  const n = parseRials(text)
  return Number.isNaN(n) ? '' : formatNumber(n)
}

/** The client-side check of the threshold (the server checks it again). */
export function thresholdError(enabled: boolean, text: string): string | null {
  if (!enabled) return null
  const n = parseRials(text)
  if (Number.isNaN(n)) return MSG_ALERT_REQUIRED
  return n < MIN_ALERT_THRESHOLD ? MSG_ALERT_MIN : null
}
