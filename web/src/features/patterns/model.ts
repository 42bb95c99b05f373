import type { Draft, PatternKind, Variable, VersionStatus } from './api'

/** The default variable length (spec §9). */
export const DEFAULT_LENGTH = 20

export const KIND_LABELS: Record<PatternKind, string> = {
  otp: 'کد یک‌بارمصرف (OTP)',
  transactional: 'اطلاع‌رسانی (تراکنشی)',
  normal: 'عادی',
}

export const STATUS_LABELS: Record<VersionStatus, { label: string; color: string }> = {
  pending: { label: 'در انتظار بررسی', color: 'yellow' },
  approved: { label: 'تایید شده', color: 'green' },
  rejected: { label: 'رد شده', color: 'red' },
}

const PLACEHOLDER = /%([^%\s]{1,64})%/g
const VAR_NAME = /^[A-Za-z][A-Za-z0-9_]*$/
const LINK = /(?:[a-z][a-z0-9+.-]*:\/\/|www\.)\S+|\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:ir|com|net|org|info|xyz|io|me|co|app|site|online|link|top|club|shop|biz)\b\S*/gi

/** The variable names marked %name% in a text, once each, in order. */
export function placeholders(text: string): string[] {
  const out: string[] = []
  for (const m of text.matchAll(PLACEHOLDER)) if (!out.includes(m[1])) out.push(m[1])
  return out
}

/** Fills %name% markers with values (a missing value keeps its marker). */
export function render(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (m, name: string) => values[name] || m)
}

/** A sample value for a preview: digits for integers, a word for strings, cut to the length. */
export function sample(v: Variable): string {
  const s = v.type === 'integer' ? '123456789012345678901234567890' : 'نمونه'
  return s.slice(0, Math.max(1, v.length))
}

/** Normalised brand comparison: Arabic letter forms, case, punctuation and spacing do not matter. */
function norm(s: string): string {
  return ` ${s.replace(/[يى]/g, 'ی').replace(/ك/g, 'ک').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `
}

/**
 * The pattern rules of spec §5, checked as the user types (the server checks them again):
 * the brand in the text, https links outside variables, readable Latin variable names, every %var% declared.
 */
export function checkDraft(d: Draft, brand: string): Record<string, string[]> {
  const errs: Record<string, string[]> = {}
  const add = (f: string, m: string) => (errs[f] ??= []).includes(m) || errs[f].push(m)
  const text = d.text.trim()
  if (!d.title.trim()) add('title', 'عنوان الگو را وارد کنید')
  if (!text) add('text', 'متن الگو را وارد کنید')
  if (text && brand && !norm(text).includes(norm(brand))) add('text', `نام برند («${brand}») باید در متن الگو آمده باشد`)
  for (const [l] of text.matchAll(LINK)) {
    if (l.includes('%')) add('text', 'پیوند نباید متغیر باشد یا متغیری در خود داشته باشد')
    else if (!l.toLowerCase().startsWith('https://')) add('text', 'پیوندهای متن الگو باید با https:// شروع شوند')
  }
  const names = d.variables.map((v) => v.name)
  for (const v of d.variables) {
    if (!VAR_NAME.test(v.name)) add('variables', `نام متغیر «${v.name}» معتبر نیست؛ فقط حروف لاتین، رقم و _ بدون فاصله و با یک حرف در آغاز`)
    if (v.length < 1 || v.length > 100) add('variables', `طول متغیر «${v.name}» باید بین ۱ و ۱۰۰ باشد`)
  }
  const used = placeholders(text)
  if (text && used.length === 0) add('variables', 'الگو دست‌کم یک متغیر مانند %code% لازم دارد')
  for (const u of used) if (!names.includes(u)) add('text', `متغیر «${u}» در متن آمده اما تعریف نشده است`)
  for (const n of names) if (VAR_NAME.test(n) && !used.includes(n)) add('variables', `متغیر «${n}» تعریف شده اما در متن نیامده است`)
  return errs
}

/** Checks one value against its variable as the server does (types and lengths). */
export function checkValue(v: Variable, value: string): string | undefined {
  const val = value.trim()
  if (!val) return `مقدار متغیر «${v.name}» را وارد کنید`
  if (v.type === 'integer' && !/^[0-9۰-۹٠-٩]+$/.test(val)) return `مقدار متغیر «${v.name}» باید عدد باشد`
  if ([...val].length > v.length) return `مقدار متغیر «${v.name}» حداکثر ${v.length.toLocaleString('fa-IR')} کاراکتر است`
  return undefined
}

/**
 * A pasted list, one recipient a line: the mobile, then the values in the variables' order,
 * separated by commas or tabs. Returns the recipients and the 1-based lines that lack values.
 */
export function parseList(text: string, vars: Variable[]): { recipients: { mobile: string; values: Record<string, string> }[]; bad: number[] } {
  const recipients: { mobile: string; values: Record<string, string> }[] = []
  const bad: number[] = []
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return
    const cells = line.split(/[,\t،]/).map((c) => c.trim())
    if (cells.length < vars.length + 1 || !cells[0]) {
      bad.push(i + 1)
      return
    }
    recipients.push({ mobile: cells[0], values: Object.fromEntries(vars.map((v, j) => [v.name, cells[j + 1]])) })
  })
  return { recipients, bad }
}
