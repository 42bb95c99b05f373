import { useQuery } from '@tanstack/react-query'
import { api } from './api'
import { getToken } from './auth'

/** Permission keys of the API (pkg/acl). */
export type Permission =
  | 'send.create'
  | 'send.cancel'
  | 'report.view'
  | 'number.view'
  | 'number.manage'
  | 'wallet.view'
  | 'profile.manage'
  | 'partner.manage'
  | 'phonebook.view'
  | 'phonebook.manage'
  | 'file.manage'
  | 'wallet.pay'
  | 'apikey.manage'
  | 'predefined.view'
  | 'predefined.manage'
  | 'support.manage'
  | 'audit.view'
  | 'inbox.manage'
  | 'secretary.view'
  | 'secretary.manage'
  | 'pattern.manage'
  | 'wallet.alert'

/** Persian names of the permissions, as the role editor shows them (pkg/acl Titles). */
export const PERMISSION_TITLES: Record<Permission, string> = {
  'send.create': 'ارسال پیامک',
  'send.cancel': 'توقف و لغو ارسال',
  'report.view': 'مشاهده گزارش‌ها',
  'number.view': 'مشاهده خطوط ارسال',
  'number.manage': 'مدیریت خطوط ارسال',
  'wallet.view': 'مشاهده کیف پول',
  'profile.manage': 'مدیریت پروفایل',
  'partner.manage': 'مدیریت همکاران و نقش‌ها',
  'phonebook.view': 'مشاهده دفترچه تلفن',
  'phonebook.manage': 'مدیریت دفترچه تلفن و لیست سیاه',
  'file.manage': 'بارگذاری و مدیریت فایل‌ها',
  'wallet.pay': 'پرداخت و افزایش اعتبار',
  'apikey.manage': 'مدیریت کلیدهای API',
  'predefined.view': 'مشاهده پیام‌های از پیش تعریف‌شده',
  'predefined.manage': 'مدیریت پیام‌های از پیش تعریف‌شده',
  'support.manage': 'ثبت و پیگیری درخواست‌های پشتیبانی',
  'audit.view': 'مشاهده گزارش فعالیت‌ها',
  'inbox.manage': 'خوانده‌شده و حذف پیامک‌های دریافتی',
  'secretary.view': 'مشاهده منشی‌ها و کلیدخوان‌ها',
  'secretary.manage': 'مدیریت منشی‌ها و کلیدخوان‌ها',
  'pattern.manage': 'ایجاد و ویرایش الگوها',
  'wallet.alert': 'تنظیم هشدار کمبود اعتبار',
}

/**
 * What a closed page needs, in Persian: the permission the caller's role lacks, or
 * the owner; undefined when the page names no requirement.
 */
export function missingAccessText(perm: Permission | 'owner' | undefined): string | undefined {
  if (perm === 'owner') return 'این صفحه فقط در دسترس مالک حساب است.'
  const title = perm ? PERMISSION_TITLES[perm] : undefined
  return title ? `این صفحه به دسترسی «${title}» نیاز دارد که در نقش شما نیست.` : undefined
}

/** The caller's access list (GET /acl/list, spec §6). */
export interface Acl {
  is_owner: boolean
  reseller_id: number
  permissions: Permission[]
}

export const ACL_KEY = ['auth', 'acl'] as const

/** The access list of the logged-in user; the layout filters the menu and routes with it. */
export function useAcl() {
  return useQuery({
    queryKey: ACL_KEY,
    queryFn: ({ signal }) => api.get<Acl>('/acl/list', undefined, signal),
    enabled: !!getToken(),
    staleTime: 60_000,
  })
}

/**
 * Whether the access list allows a permission. Owners hold everything; `'owner'` marks
 * owner-only pages; no permission means any member. Until the list arrives only what
 * needs no permission is allowed (the menu does not flash items a colleague lacks).
 */
export function allows(acl: Acl | undefined, perm: Permission | 'owner' | undefined): boolean {
  if (!perm) return true
  if (!acl) return false
  if (acl.is_owner) return true
  if (perm === 'owner') return false
  return acl.permissions.includes(perm)
}
