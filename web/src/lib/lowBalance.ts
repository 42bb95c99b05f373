import { formatRial } from './format'
import type { LiveMessage } from './live'

/**
 * The panel notice of a low-balance alert: the server sends `credit.changed` with
 * `low_balance: true` once when the credit falls below the owner's threshold.
 * Returns null for every other message.
 */
export function lowBalanceNotice(msg: LiveMessage): string | null {
  if (msg.event !== 'credit.changed' || !msg.data || typeof msg.data !== 'object') return null
  const d = msg.data as { credit?: unknown; low_balance?: unknown; threshold?: unknown }
  if (d.low_balance !== true) return null
  const credit = Number(d.credit)
  const threshold = Number(d.threshold)
  if (!Number.isFinite(credit) || !Number.isFinite(threshold)) return null
  return `اعتبار حساب شما ${formatRial(credit)} است و از حد هشدار ${formatRial(threshold)} کمتر شده است. برای ادامه ارسال، حساب را شارژ کنید.`
}
