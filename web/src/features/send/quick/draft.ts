import { EMPTY_SCHEDULE, gradualOf, scheduleError, sendAtValue, type ScheduleDraft } from '../../../lib/schedule'
import { gradualError } from '../../../lib/gradual'
import { EMPTY_SENDER, type SenderDraft } from '../wizard/sender'

export { defaultSender, withSender } from '../wizard/sender'

/** What the quick-send wizard collects. */
export interface QuickDraft extends SenderDraft, ScheduleDraft {
  numbers: string[]
  text: string
}

export const EMPTY_DRAFT: QuickDraft = { ...EMPTY_SENDER, ...EMPTY_SCHEDULE, numbers: [], text: '' }

export const QUICK_STEPS = ['مخاطبان و خط ارسال', 'متن و تنظیمات', 'بررسی نهایی'] as const

type QuickField = 'sender' | 'numbers' | 'text' | 'sendAt' | 'gradual'

/** Field errors of one step (spec §5 Sending: text and recipients are required). */
export function stepErrors(step: number, d: QuickDraft, now = new Date()): Partial<Record<QuickField, string>> {
  const e: Partial<Record<QuickField, string>> = {}
  if (step === 0) {
    if (!d.sender) e.sender = 'خط ارسال را انتخاب کنید'
    if (!d.numbers.length) e.numbers = 'حداقل یک شماره گیرنده وارد کنید'
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

/**
 * The POST /send/calculate-price body: with send_at, so the price's sending hours are
 * those of the send's own time (docs/sending-rules.md).
 */
export function priceBody(d: QuickDraft) {
  return { text: d.text, numbers: d.numbers, cancel11: d.cancel11, sender: d.sender, send_at: sendAtValue(d), gradual: gradualOf(d) }
}

/** The POST /send body. */
export function sendBody(d: QuickDraft) {
  return {
    type: 'quick' as const,
    sender: d.sender,
    text: d.text,
    numbers: d.numbers,
    cancel11: d.cancel11,
    send_at: sendAtValue(d),
    gradual: gradualOf(d),
  }
}
