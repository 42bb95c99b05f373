import { EMPTY_GRADUAL, gradualValue, type GradualBody, type GradualDraft } from './gradual'

/** The scheduling part of every send wizard's draft: when, and whether gradually. */
export interface ScheduleDraft extends Partial<GradualDraft> {
  schedule: 'now' | 'later'
  sendAt: Date | null
}

export const EMPTY_SCHEDULE: ScheduleDraft = { schedule: 'now', sendAt: null, ...EMPTY_GRADUAL }

/** A scheduled send must start at least this long after now (the send engine's rule). */
export const MIN_LEAD_MINUTES = 5
export const MIN_LEAD_MS = MIN_LEAD_MINUTES * 60_000

/** The earliest time a send may be scheduled for, rounded up to the next whole minute. */
export function earliestSendAt(now = new Date()): Date {
  return new Date(Math.ceil((now.getTime() + MIN_LEAD_MS) / 60_000) * 60_000)
}

/** Why a send time is not acceptable, or undefined when it is. */
export function sendAtError(sendAt: Date | null, now = new Date()): string | undefined {
  if (!sendAt) return 'زمان ارسال را انتخاب کنید'
  if (sendAt.getTime() < now.getTime() + MIN_LEAD_MS) return 'زمان ارسال باید دست‌کم ۵ دقیقه بعد از اکنون باشد'
  return undefined
}

/** The error of a draft's schedule: only a later send needs a time. */
export function scheduleError(d: ScheduleDraft, now = new Date()): string | undefined {
  return d.schedule === 'later' ? sendAtError(d.sendAt, now) : undefined
}

/** send_at of POST /send: RFC 3339 for a later send, null for now. */
export function sendAtValue(d: ScheduleDraft): string | null {
  return d.schedule === 'later' && d.sendAt ? d.sendAt.toISOString() : null
}

/** `gradual` of a draft's POST /send or quote body (undefined: not gradual). */
export function gradualOf(d: ScheduleDraft): GradualBody | undefined {
  return gradualValue(d, d.schedule === 'later' ? d.sendAt : null)
}
