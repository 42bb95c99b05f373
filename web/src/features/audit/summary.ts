import { toPersianDigits } from '../../lib/digits'
import { formatRial } from '../../lib/format'

/** Persian names of the summary keys the log writes; others are shown as is. */
export const KEY_LABELS: Record<string, string> = {
  name: 'نام',
  title: 'عنوان',
  enabled: 'فعال',
  on: 'فعال',
  method: 'روش',
  number: 'شماره خط',
  count: 'تعداد',
  ids: 'شناسه‌ها',
  recipients: 'گیرندگان',
  price: 'هزینه',
  refunded: 'بازگشت هزینه',
  status: 'وضعیت',
  from: 'از',
  to: 'به',
  added: 'افزوده',
  deleted: 'حذف‌شده',
  size: 'حجم',
  purpose: 'کاربرد',
  title_en: 'عنوان لاتین',
  code: 'کد',
  fields: 'فیلدهای تغییرکرده',
  phonebook_from: 'از دفترچه',
  phonebook_to: 'به دفترچه',
  all: 'همه',
  price_from: 'هزینه قبلی',
  price_to: 'هزینه جدید',
  held: 'در انتظار بازبینی',
  role_id: 'نقش دسترسی',
  permissions: 'دسترسی‌ها',
  action: 'عملیات',
  actor: 'انجام‌دهنده',
  amount: 'مبلغ',
  assigned_to: 'ارجاع به',
  bytes: 'حجم (بایت)',
  default: 'پیش‌فرض',
  entrants: 'شرکت‌کنندگان',
  events: 'رویدادها',
  group_id: 'گروه',
  kind: 'نوع',
  line_kind: 'نوع خط',
  mobile: 'موبایل',
  new_mobile: 'موبایل جدید',
  numbers: 'شماره‌ها',
  operator: 'اپراتور',
  rating: 'امتیاز',
  reason: 'علت',
  seed: 'بذر قرعه‌کشی',
  sessions: 'نشست‌ها',
  sessions_closed: 'نشست‌های بسته‌شده',
  staff: 'کارشناس',
  tracking_number: 'شماره پیگیری',
  type: 'نوع',
  url: 'نشانی',
  user: 'کاربر',
  username: 'نام کاربری',
  version: 'نسخه',
  winners: 'برندگان',
  sender: 'خط ارسال',
  text: 'متن',
  parts: 'تعداد بخش',
  send_id: 'شناسه ارسال',
  item: 'مورد',
}

/** Persian names of the send statuses a summary may hold («from», «to», «status»). */
const STATUS_WORDS: Record<string, string> = {
  scheduled: 'زمان‌بندی‌شده',
  queued: 'در صف ارسال',
  sending: 'در حال ارسال',
  paused: 'متوقف موقت',
  stopped: 'متوقف‌شده',
  done: 'پایان‌یافته',
  failed: 'ناموفق',
}

function valueText(v: unknown): string {
  if (typeof v === 'string' && STATUS_WORDS[v]) return STATUS_WORDS[v]
  if (v === true) return 'بله'
  if (v === false) return 'خیر'
  if (v === null || v === undefined || v === '') return '—'
  if (Array.isArray(v)) return toPersianDigits(v.join('، '))
  if (typeof v === 'object') return toPersianDigits(JSON.stringify(v))
  return toPersianDigits(String(v))
}

/** Persian words of the values of a few keys (fields changed, two-step method). */
const VALUE_WORDS: Record<string, Record<string, string>> = {
  fields: { number: 'شماره', name: 'نام', gender: 'جنسیت', birth_date: 'تاریخ تولد', tags: 'برچسب‌ها', features: 'ویژگی‌ها' },
  method: { sms: 'پیامک', voice: 'تماس صوتی', app: 'اپلیکیشن' },
}

function keyedValue(k: string, v: unknown): unknown {
  const words = VALUE_WORDS[k]
  if (!words) return v
  if (Array.isArray(v)) return v.map((x) => words[String(x)] ?? x)
  return typeof v === 'string' ? (words[v] ?? v) : v
}

/** Keys holding an amount in rials. */
const MONEY_KEYS = new Set(['price', 'refunded', 'price_from', 'price_to'])

/** A summary object as «نام: مشتریان، تعداد: ۳»; empty for nothing. */
export function summaryText(s: Record<string, unknown> | null | undefined): string {
  if (!s) return ''
  return Object.entries(s)
    .map(([k, v]) => `${KEY_LABELS[k] ?? k}: ${MONEY_KEYS.has(k) && typeof v === 'number' ? formatRial(v) : valueText(keyedValue(k, v))}`)
    .join('، ')
}

/** The change of an entry: «before ← after» when both are known, else the details. */
export function changeText(row: { before: Record<string, unknown> | null; after: Record<string, unknown> | null; details: Record<string, unknown> | null }): string {
  const before = summaryText(row.before)
  const after = summaryText(row.after)
  const details = summaryText(row.details)
  const change = before && after ? `${before} ← ${after}` : before || after
  return [change, details].filter(Boolean).join(' | ')
}

const BROWSERS: Array<[RegExp, string]> = [
  [/Edg\/(\d+)/, 'Edge'],
  [/OPR\/(\d+)/, 'Opera'],
  [/Firefox\/(\d+)/, 'Firefox'],
  [/Chrome\/(\d+)/, 'Chrome'],
  [/Version\/(\d+).*Safari/, 'Safari'],
]

/** A short browser name from a user agent. */
export function browserName(ua: string): string {
  if (!ua) return '—'
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua)
    if (m) return `${name} ${m[1]}`
  }
  return ua.slice(0, 40)
}
