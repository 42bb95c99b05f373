import type { TicketState } from './api'

/** The six states' Persian labels (spec §4, glossary) and badge colours. */
export const STATES: { value: TicketState; label: string; palette: string }[] = [
  { value: 1, label: 'در انتظار پاسخ شما', palette: 'orange' },
  { value: 2, label: 'در انتظار پاسخ پشتیبانی', palette: 'blue' },
  { value: 3, label: 'پاسخ داده شده', palette: 'green' },
  { value: 4, label: 'بسته شده', palette: 'gray' },
  { value: 5, label: 'ارجاع برای بررسی بیشتر', palette: 'purple' },
  { value: 6, label: 'ارجاع به واحد مربوطه', palette: 'cyan' },
]

export const stateOf = (s: number) => STATES.find((x) => x.value === s) ?? STATES[1]

/** The closed request's notice (spec §4). */
export const CLOSED_NOTICE = 'این درخواست حل شده است؛ برای مشکل جدید درخواست تازه ثبت کنید'

/** Attachment rules (spec §5): zip, jpg, png, pdf or rar; at most 10 MB each; five per message. */
export const ATTACH_EXTENSIONS = ['zip', 'jpg', 'jpeg', 'png', 'pdf', 'rar']
export const ATTACH_MAX_BYTES = 10 * 1024 * 1024
export const ATTACH_MAX_FILES = 5
export const ATTACH_ACCEPT = '.zip,.jpg,.jpeg,.png,.pdf,.rar'

/**
 * Checks chosen files before upload (the server checks their content again) and returns
 * the Persian error of the first problem, or null.
 */
export function attachmentError(files: { name: string; size: number }[]): string | null {
  if (files.length > ATTACH_MAX_FILES) return 'حداکثر ۵ فایل پیوست می‌توانید بفرستید'
  for (const f of files) {
    const ext = f.name.includes('.') ? f.name.split('.').pop()!.toLowerCase() : ''
    if (!ATTACH_EXTENSIONS.includes(ext)) return `فرمت فایل «${f.name}» مجاز نیست؛ فرمت‌های مجاز: zip، jpg، png، pdf و rar`
    if (f.size > ATTACH_MAX_BYTES) return `حجم فایل «${f.name}» بیش از ۱۰ مگابایت است`
    if (f.size === 0) return `فایل «${f.name}» خالی است`
  }
  return null
}

/** Whether the customer may still write (a closed request takes no messages). */
export const canReply = (state: TicketState) => state !== 4

/** Staff answers the customer may rate: unrated staff messages. */
export const rateable = (i: { staff: boolean; rating: number | null }) => i.staff && i.rating === null

/** The details path of a request by its kind. */
export const detailsPath = (t: { id: number; kind: string }) =>
  t.kind === 'suggestion' ? `/support/suggestion-request/${t.id}` : `/support/tickets/${t.id}`
