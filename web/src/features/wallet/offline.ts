import { toLatinDigits } from '../../lib/digits'
import { MIN_ONLINE_PAYMENT, onlineTax } from './payment'

/** The spec's messages of the offline forms (§5 Wallet), as the server answers them. */
export const OFFLINE_MESSAGES = {
  card: 'شماره کارت اشتباه است',
  account: 'شماره حساب اشتباه است',
  tracking: 'شماره پیگیری را به صورت عددی (۴ تا ۳۰ رقم) وارد کنید',
  time: 'تاریخ و ساعت واریز را وارد کنید',
  future: 'تاریخ واریز نمی‌تواند در آینده باشد',
  receipt: 'تصویر رسید را بارگذاری کنید',
  receiptType: 'رسید باید تصویر JPEG یا PNG یا فایل PDF باشد',
  receiptSize: 'حجم رسید حداکثر ۲ مگابایت است',
} as const

/** The largest receipt, in bytes (spec §9 image: 2 MB). */
export const MAX_RECEIPT_BYTES = 2 * 1024 * 1024

/** What the receipt input accepts; the server checks the content itself. */
export const RECEIPT_ACCEPT = 'image/jpeg,image/png,application/pdf,.jpg,.jpeg,.png,.pdf'

/** Digits only (Persian and Arabic digits become Latin; spaces and dashes go). */
export function digitsOf(text: string): string {
  return toLatinDigits(text).replace(/[\s\-\u200c]/g, '')
}

/** A card number is 16 digits whose Luhn checksum holds. */
export function isValidCard(text: string): boolean {
  const s = digitsOf(text)
  if (!/^\d{16}$/.test(s)) return false
  let sum = 0
  for (let i = 0; i < 16; i++) {
    let d = Number(s[15 - i])
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

/** The Sheba number in its IR + 24 digits form (IR may be left out when typed). */
export function normalizeSheba(text: string): string {
  const s = digitsOf(text).toUpperCase()
  return s.startsWith('IR') ? s : `IR${s}`
}

/** A Sheba (IBAN) number is IR and 24 digits whose ISO 7064 mod 97-10 check holds. */
export function isValidSheba(text: string): boolean {
  const s = normalizeSheba(text)
  if (!/^IR\d{24}$/.test(s)) return false
  // The country letters move behind the number as digits (I=18, R=27); mod 97 piece by piece.
  const digits = s.slice(4) + '1827' + s.slice(2, 4)
  let rest = 0
  for (const c of digits) rest = (rest * 10 + Number(c)) % 97
  return rest === 1
}

export type OfflineMethod = 'card' | 'bank'

/** Amount, the tax deducted (10% on card-to-card only, spec §9) and what the wallet receives. */
export function offlineSummary(method: OfflineMethod, amount: number) {
  const tax = method === 'card' ? onlineTax(amount) : 0
  return { amount, tax, credit: Math.max(0, amount - tax), error: amount > 0 && amount < MIN_ONLINE_PAYMENT ? 'حداقل مبلغ پرداخت ۱٬۰۰۰٬۰۰۰ ریال است' : null }
}

/** The receipt's error, checked before upload (the server checks the content again). */
export function receiptError(file: File | null): string | null {
  if (!file) return OFFLINE_MESSAGES.receipt
  if (file.size > MAX_RECEIPT_BYTES) return OFFLINE_MESSAGES.receiptSize
  if (!/\.(jpe?g|png|pdf)$/i.test(file.name)) return OFFLINE_MESSAGES.receiptType
  return null
}
