import { EMPTY_SCHEDULE, gradualOf, scheduleError, sendAtValue, type ScheduleDraft } from '../../../lib/schedule'
import { gradualError } from '../../../lib/gradual'
import type { BankCounts, BankTarget, TargetedKind, TargetedSendBody } from '../api'
import { EMPTY_SENDER, type SenderDraft } from '../wizard/sender'

/** What a targeted wizard collects: the line, the audience, the text and the schedule. */
export interface TargetedDraft extends SenderDraft, ScheduleDraft {
  text: string
  target: BankTarget
  /** «all» numbers of the audience, or a random «count» of them. */
  pick: 'all' | 'count'
}

export const EMPTY_TARGETED: TargetedDraft = { ...EMPTY_SENDER, ...EMPTY_SCHEDULE, text: '', target: {}, pick: 'all' }

/** The five methods: route, send type, title and what their audience step asks for. */
export const TARGETED_METHODS: Record<TargetedKind, { path: string; title: string; need: string }> = {
  city_province: { path: 'city-province', title: 'ارسال استانی و شهری', need: 'لطفا استان، شهرستان یا شهر را انتخاب کنید' },
  business: { path: 'business', title: 'ارسال بر اساس صنف (مشاغل)', need: 'لطفا صنف یا زیرصنف را انتخاب کنید' },
  postal_code: { path: 'postalcode', title: 'ارسال بر اساس کد پستی', need: 'لطفا دست‌کم یک پیش‌شماره کد پستی وارد کنید' },
  map: { path: 'map', title: 'ارسال روی نقشه', need: 'لطفا روی نقشه یک چندضلعی یا دایره رسم کنید' },
  tower_irancell: { path: 'tower-irancell', title: 'ارسال بر اساس دکل ایرانسل', need: 'لطفا دست‌کم یک دکل ایرانسل انتخاب کنید' },
}

export const TARGETED_STEPS = ['مخاطبان و خط ارسال', 'متن و تنظیمات', 'بررسی نهایی'] as const

/** The smallest audience of a targeted send (spec §5 «minimum 5,000»). */
export const MIN_RECIPIENTS = 5000

/** Whether the audience names what its method needs (a place, a business, a prefix, a shape or a tower). */
export function hasAudience(kind: TargetedKind, t: BankTarget): boolean {
  switch (kind) {
    case 'city_province':
      return !!(t.provinces?.length || t.counties?.length || t.cities?.length)
    case 'business':
      return !!(t.categories?.length || t.subcategories?.length)
    case 'postal_code':
      return !!t.postal_codes?.length
    case 'map':
      return !!(t.circle || (t.polygon && t.polygon.length >= 3))
    case 'tower_irancell':
      return !!t.towers?.length
  }
}

export type TargetedErrors = Partial<Record<'sender' | 'target' | 'count' | 'text' | 'sendAt' | 'gradual', string>>

/** Field errors of one step (0: line and audience, 1: text and schedule). */
export function targetedStepErrors(kind: TargetedKind, step: number, d: TargetedDraft, counts?: BankCounts, now = new Date()): TargetedErrors {
  const e: TargetedErrors = {}
  if (step === 0) {
    if (!d.sender) e.sender = 'خط ارسال را انتخاب کنید'
    if (!hasAudience(kind, d.target)) e.target = TARGETED_METHODS[kind].need
    else if (counts && !counts.enough) e.target = 'ارسال منطقه‌ای دست‌کم به ۵٬۰۰۰ گیرنده نیاز دارد؛ محدوده را بزرگ‌تر کنید'
    if (d.pick === 'count' && !(Number(d.target.count) >= MIN_RECIPIENTS)) e.count = 'تعداد گیرندگان باید دست‌کم ۵٬۰۰۰ باشد'
  }
  if (step === 1) {
    if (!d.text.trim()) e.text = 'متن پیامک را وارد کنید'
    const at = scheduleError(d, now)
    if (at) e.sendAt = at
    const g = gradualError(d)
    if (g) e.gradual = g
  }
  return e
}

/** The audience as sent: the random count only when one was asked for. */
export function targetOf(d: TargetedDraft): BankTarget {
  const { count, ...rest } = d.target
  return d.pick === 'count' && count ? { ...rest, count } : rest
}

/** A wizard resumed from a draft: its line, text, schedule and audience (a random count picks «count»). */
export function resumed(d: TargetedDraft, state: Partial<TargetedDraft> & { target?: BankTarget }): TargetedDraft {
  const target = state.target ?? {}
  return { ...d, ...state, target, pick: target.count ? 'count' : 'all' }
}

/**
 * The body of POST /send and of POST /send/calculate-price: both carry send_at, so the
 * price's sending hours are those of the send's own time (docs/sending-rules.md).
 */
export function targetedBody(kind: TargetedKind, d: TargetedDraft): TargetedSendBody {
  const body: TargetedSendBody = { type: kind, sender: d.sender, cancel11: d.cancel11, text: d.text, target: targetOf(d) }
  body.send_at = sendAtValue(d)
  body.gradual = gradualOf(d)
  return body
}

/** Postal-code prefixes typed with any separator, Persian digits allowed: 1–10 digits each, unique. */
export function parsePostal(text: string): { prefixes: string[]; bad: string[] } {
  const latin = text.replace(/[۰-۹]/g, (c) => String(c.charCodeAt(0) - 0x06f0)).replace(/[٠-٩]/g, (c) => String(c.charCodeAt(0) - 0x0660))
  const parts = latin.split(/[\s,،;]+/).filter(Boolean)
  const prefixes = [...new Set(parts.filter((p) => /^[0-9]{1,10}$/.test(p)))]
  return { prefixes, bad: parts.filter((p) => !/^[0-9]{1,10}$/.test(p)) }
}

/** A circle's radius in metres for the map's drawn shapes, clamped to what the bank accepts. */
export function clampRadius(m: number): number {
  return Math.min(50_000, Math.max(200, Math.round(m)))
}
