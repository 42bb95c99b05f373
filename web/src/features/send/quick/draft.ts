import type { SenderLine } from '../api'

/** What the quick-send wizard collects. */
export interface QuickDraft {
  sender: string
  numbers: string[]
  text: string
  cancel11: boolean
  /** The user changed the cancel-11 switch; a new line no longer resets it. */
  cancel11Touched: boolean
  schedule: 'now' | 'later'
  sendAt: Date | null
}

export const EMPTY_DRAFT: QuickDraft = {
  sender: '',
  numbers: [],
  text: '',
  cancel11: true,
  cancel11Touched: false,
  schedule: 'now',
  sendAt: null,
}

export const QUICK_STEPS = ['مخاطبان و خط ارسال', 'متن و تنظیمات', 'بررسی نهایی'] as const

/** The line to preselect: the default one, else the first. */
export function defaultSender(lines: SenderLine[]): SenderLine | undefined {
  return lines.find((l) => l.is_default) ?? lines[0]
}

/** Choosing a line: cancel-11 follows its kind (on for advertising) until the user sets it. */
export function withSender(draft: QuickDraft, line: SenderLine): QuickDraft {
  return {
    ...draft,
    sender: line.number,
    cancel11: draft.cancel11Touched ? draft.cancel11 : line.kind === 'advertising',
  }
}

/** Field errors of one step (spec §5 Sending: text and recipients are required). */
export function stepErrors(step: number, d: QuickDraft, now = new Date()): Partial<Record<'sender' | 'numbers' | 'text' | 'sendAt', string>> {
  const e: Partial<Record<'sender' | 'numbers' | 'text' | 'sendAt', string>> = {}
  if (step === 0) {
    if (!d.sender) e.sender = 'خط ارسال را انتخاب کنید'
    if (!d.numbers.length) e.numbers = 'حداقل یک شماره گیرنده وارد کنید'
  }
  if (step === 1) {
    if (!d.text.trim()) e.text = 'متن پیامک را وارد کنید'
    if (d.schedule === 'later') {
      if (!d.sendAt) e.sendAt = 'زمان ارسال را انتخاب کنید'
      else if (d.sendAt.getTime() <= now.getTime()) e.sendAt = 'زمان ارسال باید بعد از اکنون باشد'
    }
  }
  return e
}

/** The POST /send body. */
export function sendBody(d: QuickDraft) {
  return {
    type: 'quick' as const,
    sender: d.sender,
    text: d.text,
    numbers: d.numbers,
    cancel11: d.cancel11,
    send_at: d.schedule === 'later' && d.sendAt ? d.sendAt.toISOString() : null,
  }
}
