import type { ReaderInput, ReaderKind } from './api'

export const KIND_TITLES: Record<ReaderKind, string> = {
  secretary: 'منشی پیام دریافتی',
  contest: 'مسابقه',
  poll: 'نظرسنجی',
  feedback: 'انتقادات و پیشنهادات',
  gift: 'کد هدیه',
  visit: 'ثبت مراجعه',
}

export const STATUS_TITLES: Record<string, { label: string; color: string }> = {
  pending: { label: 'در انتظار بررسی', color: 'orange' },
  active: { label: 'فعال', color: 'green' },
  disabled: { label: 'غیرفعال', color: 'gray' },
  rejected: { label: 'رد شده', color: 'red' },
}

export const OUTCOME_TITLES: Record<string, string> = {
  reply: 'پاسخ داده شد', correct: 'پاسخ درست', wrong: 'پاسخ نادرست', repeat: 'تکراری', vote: 'رأی',
  changed: 'رأی تغییر کرد', invalid: 'گزینه نامعتبر', feedback: 'نظر', gift: 'کد هدیه داده شد', nocode: 'کد تمام شده', visit: 'مراجعه',
}

/** The reply variables of each kind (GET get-variables), for the editor's chips. */
export function variablesOf(kind: ReaderKind): string[] {
  const extra: Partial<Record<ReaderKind, string>> = { poll: 'option', gift: 'code', visit: 'count' }
  return ['mobile', 'title', ...(extra[kind] ? [extra[kind]] : [])]
}

/** Which reply boxes a kind shows, with their labels. */
export function replyLabels(kind: ReaderKind): { reply: string; wrong?: string; repeat?: string } {
  switch (kind) {
    case 'contest':
      return { reply: 'پاسخ به جواب درست', wrong: 'پاسخ به جواب نادرست', repeat: 'پاسخ به شرکت تکراری' }
    case 'poll':
      return { reply: 'پاسخ پس از ثبت رأی', wrong: 'پاسخ به گزینه نامعتبر', repeat: 'پاسخ به رأی تکراری' }
    case 'gift':
      return { reply: 'پاسخ همراه کد ({code})', wrong: 'پاسخ وقتی کدها تمام شده', repeat: 'پاسخ به درخواست تکراری' }
    case 'feedback':
      return { reply: 'پیام تشکر' }
    case 'visit':
      return { reply: 'پاسخ ثبت مراجعه ({count})' }
  }
  return { reply: 'متن پاسخ خودکار' }
}

export const emptyReader = (kind: ReaderKind): ReaderInput => ({
  kind, title: '', line: '', keywords: [], reply: '', reply_wrong: '', reply_repeat: '', answer: '',
  options: kind === 'poll' ? [{ title: '', keywords: [] }, { title: '', keywords: [] }] : null,
  changeable: false, phonebook_id: 0, expires_at: null,
})

/** «کلمه۱، کلمه۲» ⇄ a keyword list. */
export const splitWords = (s: string) => s.split(/[,،\n]/).map((w) => w.trim()).filter(Boolean)
export const joinWords = (w: string[] | null | undefined) => (w ?? []).join('، ')
