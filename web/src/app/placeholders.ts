/**
 * Spec §2 routes whose pages are not built yet: they render «این بخش به‌زودی فعال می‌شود»
 * inside the layout instead of a 404. `mobileOnly` pages still go to /404 on desktop.
 */
export interface PlaceholderRoute {
  path: string
  title: string
  mobileOnly?: boolean
}

const SEND_METHODS: Array<[string, string]> = [
]

const PROFILE: Array<[string, string]> = [
  ['account-info', 'اطلاعات حساب'],
  ['security-setting', 'تنظیمات امنیتی'],
  ['tariffs', 'تعرفه‌ها'],
  ['settings', 'تنظیمات حساب'],
  ['documents', 'مدارک'],
  ['personal-info', 'اطلاعات شخصی'],
  ['contact-info', 'اطلاعات تماس'],
  ['address-info', 'اطلاعات نشانی'],
  ['change-phone-number', 'تغییر شماره موبایل'],
]

export const PLACEHOLDER_ROUTES: PlaceholderRoute[] = [
  ...SEND_METHODS.map(([p, title]) => ({ path: `send-sms/${p}`, title })),
  { path: 'reports/archive-details/:id', title: 'جزئیات گزارش بایگانی' },
  { path: 'facilities', title: 'امکانات' },
  { path: 'inbox', title: 'پیامک‌های دریافتی' },
  { path: 'settings', title: 'تنظیمات' },
  { path: 'plans', title: 'طرح‌ها' },
  { path: 'profile', title: 'پروفایل' },
  ...PROFILE.map(([p, title]) => ({ path: `profile/${p}`, title })),
  { path: 'support', title: 'پشتیبانی' },
  { path: 'support/tickets', title: 'تیکت‌ها' },
  { path: 'support/tickets/:id', title: 'جزئیات تیکت' },
  { path: 'support/create-ticket', title: 'ثبت تیکت' },
  { path: 'support/contact-info', title: 'اطلاعات تماس' },
  { path: 'support/create-suggestion-request', title: 'ثبت درخواست پیشنهاد' },
  { path: 'support/suggestion-request/:id', title: 'جزئیات درخواست پیشنهاد' },
  { path: 'file-management', title: 'مدیریت فایل' },
  { path: 'secretary/received-message/inbox', title: 'منشی پیام دریافتی' },
  { path: 'secretary/received-message/create', title: 'ایجاد منشی پیام دریافتی' },
  { path: 'secretary/received-message/update/:id', title: 'ویرایش منشی پیام دریافتی' },
  { path: 'secretary/received-message/recipients/:id/:inbox_type', title: 'دریافت‌کنندگان منشی' },
  { path: 'secretary/keywords/list', title: 'کلیدخوان' },
  { path: 'secretary/keywords/create', title: 'ایجاد کلیدخوان' },
  { path: 'secretary/keywords/:id', title: 'جزئیات کلیدخوان' },
]
