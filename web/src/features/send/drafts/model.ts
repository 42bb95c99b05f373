import type { SenderLine } from '../../../lib/lines'
import { sendAtValue, type ScheduleDraft } from '../../../lib/schedule'
import type { BankTarget, Draft, DraftBody, DraftType } from '../api'
import type { SenderDraft } from '../wizard/sender'

/** What any wizard's state offers a draft: sender, schedule, text and one recipient source. */
export interface WizardState extends SenderDraft, ScheduleDraft {
  text: string
  numbers?: string[]
  fileId?: number | string | null
  phonebookIds?: Array<number | string>
  /** A targeted send's audience. */
  target?: BankTarget
}

/** Persian names of the methods, and the wizard each draft resumes in. */
export const DRAFT_TYPES: Record<DraftType, { label: string; path: string }> = {
  quick: { label: 'ارسال سریع', path: '/send-sms/quick/steps' },
  file: { label: 'ارسال از فایل', path: '/send-sms/file' },
  keyword: { label: 'ارسال کلیدواژه‌ای', path: '/send-sms/keyword' },
  peer_to_peer: { label: 'ارسال نظیر به نظیر', path: '/send-sms/peer-to-peer' },
  phonebook: { label: 'ارسال از دفترچه تلفن', path: '/send-sms/phonebook' },
  city_province: { label: 'ارسال استانی و شهری', path: '/send-sms/city-province' },
  business: { label: 'ارسال بر اساس صنف', path: '/send-sms/business' },
  postal_code: { label: 'ارسال بر اساس کد پستی', path: '/send-sms/postalcode' },
  map: { label: 'ارسال روی نقشه', path: '/send-sms/map' },
  tower_irancell: { label: 'ارسال بر اساس دکل ایرانسل', path: '/send-sms/tower-irancell' },
}

/** The wizard page that resumes a draft: `/send-sms/<method>?draft=<id>`. */
export const draftPath = (d: Pick<Draft, 'id' | 'type'>) => `${DRAFT_TYPES[d.type].path}?draft=${d.id}`

/** A draft's default title: the start of its text, else the method's name. */
export function draftTitle(type: DraftType, text: string): string {
  const first = text.trim().split(/\s+/).slice(0, 6).join(' ')
  return first ? [...first].slice(0, 60).join('') : DRAFT_TYPES[type].label
}

/** The POST /user/draft body of a wizard's state. */
export function toDraftBody(type: DraftType, s: WizardState, id?: number | null): DraftBody {
  const fileId = s.fileId === null || s.fileId === undefined || s.fileId === '' ? null : Number(s.fileId)
  return {
    ...(id ? { id } : {}),
    type,
    title: draftTitle(type, s.text),
    text: s.text,
    sender: s.sender,
    cancel11: s.cancel11,
    numbers: s.numbers ?? [],
    file_id: Number.isFinite(fileId) ? fileId : null,
    phonebook_ids: (s.phonebookIds ?? []).map(Number),
    send_at: sendAtValue(s),
    target: s.target ?? null,
  }
}

/**
 * The wizard state a draft resumes: its text, line (with the line's kind when it still
 * exists), cancel-11, schedule and recipients. A send time already past is kept: the
 * wizard's own check asks for a new one.
 */
export function fromDraft(d: Draft, lines: SenderLine[] = []): Partial<WizardState> & Pick<WizardState, 'text'> {
  const line = lines.find((l) => l.number === d.sender)
  const advertising = line?.kind === 'advertising'
  return {
    text: d.text,
    ...(d.sender ? { sender: d.sender, advertising, cancel11: advertising || d.cancel11, cancel11Touched: true } : {}),
    schedule: d.send_at ? 'later' : 'now',
    sendAt: d.send_at ? new Date(d.send_at) : null,
    numbers: d.numbers ?? [],
    fileId: d.file_id,
    phonebookIds: d.phonebook_ids ?? [],
    ...(d.target ? { target: d.target } : {}),
  }
}
