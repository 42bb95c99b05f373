import { toLatinDigits } from '../../lib/digits'

/** Colleague statuses (spec §4): invited until the first login, active, deactivated. */
export type ColleagueStatus = 'pending' | 'active' | 'disabled'

export const STATUS: Record<ColleagueStatus, { label: string; palette: string }> = {
  pending: { label: 'در انتظار تأیید', palette: 'orange' },
  active: { label: 'فعال', palette: 'green' },
  disabled: { label: 'غیرفعال', palette: 'gray' },
}

export const MESSAGES = {
  required: 'این فیلد الزامی است',
  nationalId10: 'کد ملی باید ۱۰ رقم باشد',
  nationalIdInvalid: 'کد ملی معتبر نیست',
  mobile: 'لطفا شماره موبایل صحیح وارد کنید',
  role: 'نقش دسترسی همکار را انتخاب کنید',
  roleName: 'نام نقش را وارد کنید',
  noPermissions: 'دست‌کم یک دسترسی برای نقش انتخاب کنید',
} as const

/**
 * Checks an Iranian national code: 10 digits (Persian digits allowed), not one digit
 * repeated, and the check digit: with s = Σ d[i]·(10−i) over the first nine digits and
 * r = s mod 11, the last digit is r when r < 2, else 11 − r. Returns the error or null.
 */
export function nationalIdError(raw: string): string | null {
  const d = toLatinDigits(raw.trim())
  if (!/^\d{10}$/.test(d)) return MESSAGES.nationalId10
  if (/^(\d)\1{9}$/.test(d)) return MESSAGES.nationalIdInvalid
  let sum = 0
  for (let i = 0; i < 9; i++) sum += Number(d[i]) * (10 - i)
  const r = sum % 11
  return Number(d[9]) === (r < 2 ? r : 11 - r) ? null : MESSAGES.nationalIdInvalid
}

/** An Iranian mobile as 09XXXXXXXXX (also from +98 / 98 / 9… and Persian digits), or null. */
export function normalMobile(raw: string): string | null {
  const d = toLatinDigits(raw).replace(/[\s\-()]/g, '').replace(/^\+?98/, '0').replace(/^9/, '09')
  return /^09\d{9}$/.test(d) ? d : null
}

export interface PermissionItem {
  key: string
  title: string
  group: string
  group_title: string
}

export interface PermissionGroup {
  key: string
  title: string
  items: PermissionItem[]
}

/** The permission list grouped by feature, in the API's order. */
export function groupPermissions(list: PermissionItem[]): PermissionGroup[] {
  const out: PermissionGroup[] = []
  for (const p of list) {
    let g = out.find((x) => x.key === p.group)
    if (!g) {
      g = { key: p.group, title: p.group_title, items: [] }
      out.push(g)
    }
    g.items.push(p)
  }
  return out
}
