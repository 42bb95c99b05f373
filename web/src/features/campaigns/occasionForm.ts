import { toPersianDigits } from '../../lib/digits'
import { JALALI_MONTHS } from '../../lib/jalali'
import { unknownContactTag, unknownTagMessage, type ContactTag, type DateField } from '../../lib/contactTags'
import type { Campaign, CampaignInput, LastRun, Occasion } from './api'

/** What the occasion form edits: a daily phonebook campaign with an occasion (docs/campaigns.md). */
export interface OccasionForm {
  title: string
  sender: string
  cancel11: boolean
  phonebookIds: number[]
  field: string
  daysBefore: number
  time: string
  text: string
  enabled: boolean
}

export const EMPTY_OCCASION: OccasionForm = {
  title: '',
  sender: '',
  cancel11: true,
  phonebookIds: [],
  field: 'birth_date',
  daysBefore: 0,
  time: '09:00',
  text: '{title} {name} عزیز، زادروزتان خجسته باد',
  enabled: true,
}

/** How many days before the occasion a message may go (pkg/send MaxDaysBefore). */
export const MAX_DAYS_BEFORE = 30

export type OccasionErrors = Partial<Record<'title' | 'sender' | 'phonebooks' | 'field' | 'daysBefore' | 'time' | 'text', string>>

/** Field errors of the occasion form; an unknown `{tag}` is refused before saving, in the server's words. */
export function occasionErrors(f: OccasionForm, tags: ContactTag[] | undefined): OccasionErrors {
  const e: OccasionErrors = {}
  if (!f.title.trim()) e.title = 'عنوان را وارد کنید'
  else if ([...f.title.trim()].length > 100) e.title = 'عنوان حداکثر ۱۰۰ کاراکتر است'
  if (!f.sender) e.sender = 'خط ارسال را انتخاب کنید'
  if (!f.phonebookIds.length) e.phonebooks = 'لطفا دفترچه تلفن را انتخاب کنید'
  if (!f.field) e.field = 'تاریخ مناسبت را انتخاب کنید'
  if (!Number.isInteger(f.daysBefore) || f.daysBefore < 0 || f.daysBefore > MAX_DAYS_BEFORE) e.daysBefore = 'تعداد روزهای پیش از مناسبت باید از ۰ تا ۳۰ باشد'
  if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(f.time)) e.time = 'ساعت ارسال را وارد کنید'
  const tag = tags ? unknownContactTag(f.text, tags) : null
  if (!f.text.trim()) e.text = 'متن پیامک را وارد کنید'
  else if (tag && tags) e.text = unknownTagMessage(tag, tags)
  return e
}

/** The form's occasion (without a day: each run has its own). */
export const occasionOf = (f: OccasionForm): Occasion => ({ field: f.field, days_before: f.daysBefore })

/** The body of POST /send/campaigns (and /update with the id): a daily phonebook campaign with an occasion. */
export function occasionInput(f: OccasionForm): CampaignInput {
  return {
    title: f.title.trim(), type: 'phonebook', sender: f.sender, text: f.text, cancel11: f.cancel11, phonebook_ids: f.phonebookIds,
    schedule: { kind: 'daily', time: f.time }, enabled: f.enabled, occasion: occasionOf(f),
  }
}

/** A saved occasion campaign back in the form. */
export function formFromOccasion(c: Campaign): OccasionForm {
  return {
    title: c.title ?? '',
    sender: c.sender ?? '',
    cancel11: c.cancel11 ?? false,
    phonebookIds: (c.source?.phonebook_ids ?? []).map(Number),
    field: c.occasion?.field ?? 'birth_date',
    daysBefore: c.occasion?.days_before ?? 0,
    time: c.schedule?.time ?? EMPTY_OCCASION.time,
    text: c.text ?? '',
    enabled: c.enabled,
  }
}

/** «در روز مناسبت» or «۳ روز پیش از مناسبت». */
export const daysBeforeLabel = (n: number) => (n === 0 ? 'در روز مناسبت' : `${toPersianDigits(n)} روز پیش از مناسبت`)

/** «تاریخ تولد · در روز مناسبت · هر روز ساعت ۰۹:۰۰». */
export function occasionSummary(c: Campaign, fields: DateField[] | undefined): string {
  const field = fields?.find((f) => f.value === c.occasion?.field)?.label ?? (c.occasion?.field === 'birth_date' ? 'تاریخ تولد' : 'تاریخ مخاطب')
  return `${field} · ${daysBeforeLabel(c.occasion?.days_before ?? 0)} · هر روز ساعت ${toPersianDigits(c.schedule?.time ?? '')}`
}

/** A Jalali «1404/01/01» as «۱ فروردین ۱۴۰۴» (without the year when `year` is false). */
export function jalaliDayName(jalali: string, year = true): string {
  const [y, m, d] = jalali.split('/').map(Number)
  if (!y || !m || !d) return toPersianDigits(jalali)
  return toPersianDigits(`${d} ${JALALI_MONTHS[m - 1]}${year ? ` ${y}` : ''}`)
}

/** What the last run did: «ارسال به ۳ مخاطب», «مخاطبی نداشت», the send's state, or why it failed. */
export function lastRunText(r: LastRun | undefined, sendStatus: (s: string) => string): string {
  if (!r) return 'هنوز اجرا نشده'
  if (r.status === 'empty') return 'مخاطبی با این مناسبت نداشت'
  if (r.status === 'failed') return `ناموفق: ${r.error ?? ''}`
  if (r.send_status === 'held' || r.send_status === 'scheduled' || r.send_status === 'queued') return sendStatus(r.send_status)
  return `ارسال به ${toPersianDigits(r.recipients)} مخاطب`
}
