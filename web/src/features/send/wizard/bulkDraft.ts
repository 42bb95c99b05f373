import type { BulkSendBody } from '../api'
import { sendableCount, type UserFile } from '../../../lib/files'
import { unknownTags } from '../../../lib/keywords'
import { unknownContactTag, unknownTagMessage, type ContactTag } from '../../../lib/contactTags'
import { EMPTY_SCHEDULE, gradualOf, scheduleError, sendAtValue, type ScheduleDraft } from '../../../lib/schedule'
import { gradualError } from '../../../lib/gradual'
import { EMPTY_SENDER, type SenderDraft } from './sender'

/** The four bulk send types of POST /send. */
export type BulkKind = BulkSendBody['type']

/** What a file, keyword, peer-to-peer or phonebook wizard collects. */
export interface BulkDraft extends SenderDraft, ScheduleDraft {
  text: string
  fileId: number | string | null
  phonebookIds: Array<number | string>
}

export const EMPTY_BULK: BulkDraft = { ...EMPTY_SENDER, ...EMPTY_SCHEDULE, text: '', fileId: null, phonebookIds: [] }

export type BulkField = 'sender' | 'file' | 'phonebooks' | 'text' | 'sendAt' | 'gradual'
export type BulkErrors = Partial<Record<BulkField, string>>

export const PHONEBOOK_REQUIRED = 'لطفا دفترچه تلفن را انتخاب کنید'

/** Why the uploaded file cannot be sent yet, or undefined. */
export function fileError(file: UserFile | undefined, fileId: BulkDraft['fileId']): string | undefined {
  if (fileId === null || !file) return 'فایل گیرندگان را بارگذاری کنید'
  if (file.status === 'parsing') return 'پردازش فایل هنوز تمام نشده است؛ لطفا صبر کنید'
  if (file.status === 'failed') return file.error || 'خطا در پردازش فایل'
  if (sendableCount(file) === 0) return 'شماره قابل ارسالی در فایل وجود ندارد'
  return undefined
}

/**
 * Field errors of one step of a bulk wizard (0: recipients and line, 1: text and settings);
 * contactTags, once loaded, check a phonebook text's tags.
 */
export function bulkStepErrors(kind: BulkKind, step: number, d: BulkDraft, file?: UserFile, now = new Date(),
  contactTags?: ContactTag[]): BulkErrors {
  const e: BulkErrors = {}
  if (step === 0) {
    if (!d.sender) e.sender = 'خط ارسال را انتخاب کنید'
    if (kind === 'phonebook') {
      if (!d.phonebookIds.length) e.phonebooks = PHONEBOOK_REQUIRED
    } else {
      const f = fileError(file, d.fileId)
      if (f) e.file = f
    }
  }
  if (step === 1) {
    if (kind !== 'peer_to_peer' && !d.text.trim()) e.text = 'متن پیامک را وارد کنید'
    if (kind === 'keyword' && file) {
      const unknown = unknownTags(d.text, file.columns ?? [])
      if (unknown.length) e.text = `این برچسب‌ها با ستون‌های فایل مطابقت ندارند: ${unknown.map((k) => `{ex_${k}}`).join('، ')}`
    }
    const tag = kind === 'phonebook' && contactTags ? unknownContactTag(d.text, contactTags) : null
    if (tag && contactTags) e.text = unknownTagMessage(tag, contactTags)
    const at = scheduleError(d, now)
    if (at) e.sendAt = at
    const g = gradualError(d)
    if (g) e.gradual = g
  }
  return e
}

/**
 * The body of POST /send and of POST /send/calculate-price: both carry send_at, so the
 * price's sending hours are those of the send's own time (docs/sending-rules.md).
 */
export function bulkBody(kind: BulkKind, d: BulkDraft): BulkSendBody {
  const body: BulkSendBody = { type: kind, sender: d.sender, cancel11: d.cancel11 }
  if (kind === 'phonebook') body.phonebook_ids = d.phonebookIds
  else body.file_id = d.fileId ?? undefined
  if (kind !== 'peer_to_peer') body.text = d.text
  body.send_at = sendAtValue(d)
  body.gradual = gradualOf(d)
  return body
}
