import { toLatinDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'

/** The smallest online payment in rials (spec §9). */
export const MIN_ONLINE_PAYMENT = 1_000_000

/** The tax added on online payments (spec §9), in percent. */
export const ONLINE_TAX_PERCENT = 10

/** Quick choices on the credit page, in rials. */
export const PAYMENT_PRESETS = [1_000_000, 2_000_000, 5_000_000, 10_000_000, 20_000_000]

/** The spec's payment messages (§4, §8). */
export const PAYMENT_MESSAGES = {
  min: 'حداقل مبلغ پرداخت ۱٬۰۰۰٬۰۰۰ ریال است',
  paid: 'پرداخت با موفقیت انجام شد و کیف پول شما شارژ شد',
  failed: 'پرداخت ناموفق بود؛ در صورت کسر وجه، مبلغ کسرشده حداکثر تا ۷۲ ساعت آینده به حساب شما بازمی‌گردد',
  pending: 'پرداخت در انتظار تأیید است؛ نتیجه حداکثر تا ۱۵ دقیقه دیگر مشخص می‌شود',
  expired: 'مهلت پرداخت به پایان رسید و پرداخت انجام نشد',
} as const

/** The amount typed by the payer (Persian, Arabic or Latin digits, separators ignored); 0 when empty. */
export function parseAmount(text: string): number {
  const digits = toLatinDigits(text).replace(/\D/g, '').replace(/^0+/, '')
  return digits ? Number(digits.slice(0, 12)) : 0
}

/** The tax of an online payment, rounded to the nearest rial as the server does. */
export function onlineTax(amount: number): number {
  return Math.floor((amount * ONLINE_TAX_PERCENT + 50) / 100)
}

/** Amount, tax and total of an online payment, and the error to show for the amount. */
export function paymentSummary(amount: number) {
  const tax = onlineTax(amount)
  return { amount, tax, total: amount + tax, error: amount > 0 && amount < MIN_ONLINE_PAYMENT ? PAYMENT_MESSAGES.min : null }
}

/** Toman (تومان) of a rial amount: ریال ÷ ۱۰, the unit people say aloud. */
export function toman(rial: number): number {
  return Math.floor(Math.max(0, rial) / 10)
}

/** «۱۰۰٬۰۰۰ تومان». */
export const formatToman = (rial: number) => `${formatNumber(toman(rial))} تومان`

/**
 * How many one-part messages an amount of wallet credit buys at the account's
 * prices of one message (one per operator, rials): the range from the dearest
 * operator to the cheapest; null without a price.
 */
export function smsFor(amount: number, onePartPrices: number[]): { min: number; max: number } | null {
  const prices = onePartPrices.filter((p) => Number.isFinite(p) && p > 0)
  if (!prices.length || amount <= 0) return null
  return { min: Math.floor(amount / Math.max(...prices)), max: Math.floor(amount / Math.min(...prices)) }
}

/** «حدود ۵٬۵۰۰ پیامک» or «حدود ۵٬۰۰۰ تا ۵٬۵۰۰ پیامک» (one-part messages). */
export function smsText(range: { min: number; max: number }): string {
  const n = range.min === range.max ? formatNumber(range.min) : `${formatNumber(range.min)} تا ${formatNumber(range.max)}`
  return `حدود ${n} پیامک یک‌بخشی`
}
