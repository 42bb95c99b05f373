import { toLatinDigits } from '../../lib/digits'

/** Spec §5 Mobile: optional 0, 98, +98 or 0098, then 9 and nine digits; Persian/Arabic digits allowed. */
const IRAN_MOBILE = /^(?:\+98|0098|98|0)?9\d{9}$/

export const MOBILE_ERROR = 'لطفا شماره موبایل صحیح وارد کنید'
export const PASSWORD_MIN = 8

export function cleanMobile(raw: string): string {
  return toLatinDigits(raw).replace(/[\s\-()]/g, '')
}

export function isIranMobile(raw: string): boolean {
  return IRAN_MOBILE.test(cleanMobile(raw))
}

/** The mobile as 09xxxxxxxxx for the API, or '' when invalid. */
export function toLocalMobile(raw: string): string {
  const m = cleanMobile(raw)
  if (!IRAN_MOBILE.test(m)) return ''
  return `0${m.slice(-10)}`
}

/** Spec §5 Password: ≥ 8 chars, digits + lowercase + uppercase, not containing the username. */
export function passwordError(password: string, username = ''): string | null {
  if (!password) return 'رمز عبور را وارد کنید'
  if (password.length < PASSWORD_MIN) return 'رمز عبور باید حداقل ۸ کاراکتر باشد'
  if (!/\d/.test(password) || !/[a-z]/.test(password) || !/[A-Z]/.test(password)) {
    return 'رمز عبور باید شامل عدد، حرف کوچک و حرف بزرگ انگلیسی باشد'
  }
  const user = username.trim().toLowerCase()
  if (user && password.toLowerCase().includes(user)) return 'رمز عبور نباید شامل نام کاربری باشد'
  return null
}

export function confirmationError(password: string, confirmation: string): string | null {
  if (!confirmation) return 'تکرار رمز عبور را وارد کنید'
  return password === confirmation ? null : 'رمز عبور و تکرار آن یکسان نیستند'
}

/** Latin letters, digits, dot, underscore and hyphen; 3–32 characters. */
export function usernameError(username: string): string | null {
  const u = username.trim()
  if (!u) return 'نام کاربری را وارد کنید'
  if (!/^[A-Za-z0-9._-]{3,32}$/.test(u)) return 'نام کاربری باید ۳ تا ۳۲ حرف انگلیسی، عدد، نقطه، خط تیره یا زیرخط باشد'
  return null
}

/** Whether the password uses one of the recommended special characters (@!$%&). */
export function hasRecommendedSymbol(password: string): boolean {
  return /[@!$%&]/.test(password)
}
