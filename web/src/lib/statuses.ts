import type { PartState } from './reports'
/** Send statuses (docs/architecture.md §3) in Persian with their badge colours. */
export type SendStatus = 'scheduled' | 'queued' | 'sending' | 'paused' | 'held' | 'done' | 'stopped' | 'failed' | 'blocked'

export const SEND_STATUS: Record<SendStatus, { label: string; color: string }> = {
  scheduled: { label: 'زمان‌بندی‌شده', color: 'purple' },
  queued: { label: 'در صف', color: 'gray' },
  sending: { label: 'در حال ارسال', color: 'blue' },
  paused: { label: 'توقف موقت', color: 'yellow' },
  held: { label: 'در حال بررسی', color: 'cyan' },
  done: { label: 'پایان‌یافته', color: 'green' },
  stopped: { label: 'متوقف‌شده', color: 'orange' },
  failed: { label: 'ناموفق', color: 'red' },
  blocked: { label: 'مسدود', color: 'red' },
}

export const SEND_STATUS_OPTIONS = (Object.keys(SEND_STATUS) as SendStatus[]).map((value) => ({
  value,
  label: SEND_STATUS[value].label,
}))

export function sendStatusInfo(status: string | undefined) {
  return SEND_STATUS[status as SendStatus] ?? { label: status || '—', color: 'gray' }
}

/** A send that can still be stopped (running or paused) or cancelled (scheduled, or held for review). */
export function isStoppable(status: string | undefined): boolean {
  return status === 'scheduled' || status === 'queued' || status === 'sending' || status === 'paused' || status === 'held'
}

export function isFinalStatus(status: string | undefined): boolean {
  return status === 'done' || status === 'stopped' || status === 'failed' || status === 'blocked'
}

/** Recipient statuses 0-4 (spec §4) with the glossary's names. */
export const RECIPIENT_STATUS: Array<{ value: number; label: string; color: string }> = [
  { value: 0, label: 'ارسال شده', color: 'blue' },
  { value: 1, label: 'رسیده به مخابرات', color: 'cyan' },
  { value: 2, label: 'رسیده به گوشی', color: 'green' },
  { value: 3, label: 'نرسیده به گوشی', color: 'red' },
  { value: 4, label: 'لیست سیاه', color: 'gray' },
]

export function recipientStatusInfo(status: number | string | undefined) {
  return RECIPIENT_STATUS.find((s) => s.value === Number(status)) ?? { value: -1, label: 'در صف ارسال', color: 'gray' }
}

/** Send types (spec §3 SMS types) shown in reports. */
export const SEND_TYPES: Record<string, string> = {
  quick: 'ارسال سریع',
  normal: 'ارسال عادی',
  phonebook: 'دفترچه تلفن',
  file: 'فایل',
  keyword: 'کلیدواژه‌ای',
  peer_to_peer: 'نظیر به نظیر',
  business: 'صنف (مشاغل)',
  map: 'نقشه',
  postal_code: 'کد پستی',
  city_province: 'استانی و شهری',
  bts: 'دکل ایرانسل',
  irancellarea: 'دکل ایرانسل',
  webservice: 'وب‌سرویس',
  pattern: 'الگو',
  pattern_otp: 'الگو (کد یک‌بارمصرف)',
  pattern_transactional: 'الگو (اطلاع‌رسانی)',
  secretary: 'منشی',
}

export function sendTypeLabel(type: string | undefined): string {
  return (type && SEND_TYPES[type]) || type || '—'
}

export const OPERATORS: Record<string, string> = {
  mci: 'همراه اول',
  irancell: 'ایرانسل',
  mtn: 'ایرانسل',
  rightel: 'رایتل',
  other: 'سایر',
  sandbox: 'آزمایشی (sandbox)',
}

export function operatorLabel(op: string | undefined): string {
  return (op && OPERATORS[op.toLowerCase()]) || op || '—'
}

/** A part's state (report recipients list) in Persian with its colour, in display order. */
export const PART_STATE: Record<PartState, { label: string; color: string }> = {
  delivered: { label: 'رسیده به گوشی', color: 'green' },
  accepted: { label: 'رسیده به مخابرات', color: 'cyan' },
  undelivered: { label: 'نرسیده به گوشی', color: 'red' },
  rejected: { label: 'ردشده توسط مخابرات (برگشت هزینه)', color: 'orange' },
  unsent: { label: 'ارسال‌نشده (برگشت هزینه)', color: 'gray' },
  unknown: { label: 'نامعلوم (پاسخ مخابرات نرسید)', color: 'yellow' },
}

/** Counts of each part state, in PART_STATE's order, without the absent ones. */
export function summarizeParts(states: PartState[] | undefined): Array<{ state: PartState; count: number }> {
  const counts = new Map<PartState, number>()
  for (const s of states ?? []) counts.set(s, (counts.get(s) ?? 0) + 1)
  return (Object.keys(PART_STATE) as PartState[])
    .filter((s) => counts.has(s))
    .map((state) => ({ state, count: counts.get(state) ?? 0 }))
}

/** Whether some part of a recipient did not reach the carrier for sure (the handset may get an incomplete message). */
export function isPartial(states: PartState[] | undefined): boolean {
  return !!states?.some((s) => s === 'rejected' || s === 'unsent' || s === 'unknown')
}
