import { toLatinDigits, toPersianDigits } from './digits'

/**
 * A stored number (98…) as the local «09…» form people read and dial, Latin digits;
 * any other value (a masked number, a short code, a line) is kept as it is. The
 * panel's one formatter of mobile numbers: chips, tables, reports and details all
 * show numbers through it (or displayMobile).
 */
export function localMobile(stored: string): string {
  const digits = toLatinDigits(stored ?? '')
  return /^98\d{10}$/.test(digits) ? `0${digits.slice(2)}` : digits
}

/** A stored number shown on screen: «۰۹۱۲…» in Persian digits. */
export function displayMobile(stored: string): string {
  return toPersianDigits(localMobile(stored))
}
