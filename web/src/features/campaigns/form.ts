import { toPersianDigits } from '../../lib/digits'
import { JALALI_WEEKDAYS } from '../../lib/jalali'
import { EMPTY_GRADUAL, gradualError, gradualValue, type GradualDraft } from '../../lib/gradual'
import { keywordTags } from '../../lib/keywords'
import type { Campaign, CampaignInput, CampaignSchedule, ScheduleKind } from './api'

export type SourceKind = 'numbers' | 'phonebooks' | 'file'

/** What the campaign form edits (with the pace of each run: N an hour or a minute). */
export interface CampaignForm extends GradualDraft {
  title: string
  sender: string
  cancel11: boolean
  text: string
  sourceKind: SourceKind
  numbers: string[]
  phonebookIds: number[]
  fileId: number | string | null
  kind: ScheduleKind
  time: string
  weekdays: number[]
  monthDays: number[]
  cron: string
  enabled: boolean
}

export const EMPTY_CAMPAIGN: CampaignForm = {
  title: '',
  sender: '',
  cancel11: true,
  text: '',
  sourceKind: 'numbers',
  numbers: [],
  phonebookIds: [],
  fileId: null,
  kind: 'daily',
  time: '09:00',
  weekdays: [],
  monthDays: [],
  cron: '',
  enabled: true,
  ...EMPTY_GRADUAL,
}

export const SCHEDULE_KINDS: Array<{ value: ScheduleKind; label: string }> = [
  { value: 'daily', label: 'روزانه' },
  { value: 'weekly', label: 'هفتگی' },
  { value: 'monthly', label: 'ماهانه (روزهای شمسی)' },
  { value: 'cron', label: 'عبارت کرون' },
]

export const SOURCE_KINDS: Array<{ value: SourceKind; label: string }> = [
  { value: 'numbers', label: 'شماره‌ها' },
  { value: 'phonebooks', label: 'دفترچه تلفن' },
  { value: 'file', label: 'فایل' },
]

const CRON_FIELDS: Array<{ name: string; min: number; max: number }> = [
  { name: 'دقیقه', min: 0, max: 59 },
  { name: 'ساعت', min: 0, max: 23 },
  { name: 'روز ماه', min: 1, max: 31 },
  { name: 'ماه', min: 1, max: 12 },
  { name: 'روز هفته', min: 0, max: 6 },
]

function cronPartOk(part: string, min: number, max: number): boolean {
  const [range, step, ...extra] = part.split('/')
  if (extra.length || (step !== undefined && !/^[1-9]\d*$/.test(step))) return false
  if (range === '*') return true
  const m = /^(\d+)(?:-(\d+))?$/.exec(range)
  if (!m) return false
  const a = Number(m[1])
  const b = m[2] === undefined ? a : Number(m[2])
  return a >= min && b <= max && a <= b
}

/** Checks a five-field cron expression («m h dom mon dow»); the Persian reason, or undefined. */
export function cronError(expr: string): string | undefined {
  const fields = expr.trim().split(/\s+/).filter(Boolean)
  if (!fields.length) return 'عبارت کرون را وارد کنید'
  if (fields.length !== 5) return 'عبارت کرون باید پنج بخش داشته باشد: دقیقه ساعت روز‌ماه ماه روز‌هفته'
  for (let i = 0; i < 5; i++) {
    const { name, min, max } = CRON_FIELDS[i]
    if (!fields[i].split(',').every((p) => cronPartOk(p, min, max))) {
      return `بخش «${name}» عبارت کرون نامعتبر است (${toPersianDigits(min)} تا ${toPersianDigits(max)})`
    }
  }
  return undefined
}

export type CampaignErrors = Partial<Record<'title' | 'sender' | 'source' | 'text' | 'time' | 'weekdays' | 'monthDays' | 'cron' | 'gradual', string>>

/** Field errors of the campaign form. */
export function campaignErrors(f: CampaignForm): CampaignErrors {
  const e: CampaignErrors = {}
  if (!f.title.trim()) e.title = 'عنوان کمپین را وارد کنید'
  else if ([...f.title.trim()].length > 100) e.title = 'عنوان کمپین حداکثر ۱۰۰ کاراکتر است'
  if (!f.sender) e.sender = 'خط ارسال را انتخاب کنید'
  if (f.sourceKind === 'numbers' && !f.numbers.length) e.source = 'حداقل یک شماره گیرنده وارد کنید'
  if (f.sourceKind === 'phonebooks' && !f.phonebookIds.length) e.source = 'لطفا دفترچه تلفن را انتخاب کنید'
  if (f.sourceKind === 'file' && f.fileId === null) e.source = 'فایل گیرندگان را بارگذاری کنید'
  if (!f.text.trim()) e.text = 'متن پیامک را وارد کنید'
  if (f.kind === 'cron') {
    const c = cronError(f.cron)
    if (c) e.cron = c
  } else if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(f.time)) e.time = 'ساعت ارسال را وارد کنید'
  if (f.kind === 'weekly' && !f.weekdays.length) e.weekdays = 'حداقل یک روز هفته را انتخاب کنید'
  if (f.kind === 'monthly' && !f.monthDays.length) e.monthDays = 'حداقل یک روز ماه را انتخاب کنید'
  const g = gradualError(f)
  if (g) e.gradual = g
  return e
}

/** The body of POST /send/campaigns (and /update with the id). */
export function campaignInput(f: CampaignForm): CampaignInput {
  const schedule: CampaignSchedule = { kind: f.kind }
  if (f.kind === 'cron') schedule.cron = f.cron.trim().split(/\s+/).join(' ')
  else schedule.time = f.time
  if (f.kind === 'weekly') schedule.weekdays = [...f.weekdays].sort((a, b) => a - b)
  if (f.kind === 'monthly') schedule.month_days = [...f.monthDays].sort((a, b) => a - b)
  const base = { title: f.title.trim(), sender: f.sender, text: f.text, cancel11: f.cancel11, schedule, enabled: f.enabled,
    gradual: gradualValue(f, null) }
  if (f.sourceKind === 'numbers') return { ...base, type: 'quick', numbers: f.numbers }
  if (f.sourceKind === 'phonebooks') return { ...base, type: 'phonebook', phonebook_ids: f.phonebookIds }
  return { ...base, type: keywordTags(f.text).length ? 'keyword' : 'file', file_id: f.fileId ?? undefined }
}

/** A saved campaign back in the form. */
export function formFromCampaign(c: Campaign): CampaignForm {
  const s = c.schedule ?? { kind: 'daily' }
  const src = c.source ?? {}
  const sourceKind: SourceKind = src.file_id ? 'file' : src.phonebook_ids?.length ? 'phonebooks' : 'numbers'
  return {
    ...EMPTY_CAMPAIGN,
    title: c.title ?? '',
    sender: c.sender ?? '',
    cancel11: c.cancel11 ?? false,
    text: c.text ?? '',
    sourceKind,
    numbers: src.numbers ?? [],
    phonebookIds: (src.phonebook_ids ?? []).map(Number),
    fileId: src.file_id ?? null,
    kind: s.kind,
    time: s.time ?? EMPTY_CAMPAIGN.time,
    weekdays: s.weekdays ?? [],
    monthDays: s.month_days ?? [],
    cron: s.cron ?? '',
    enabled: c.enabled,
    ...gradualFromCampaign(c),
  }
}

/** A saved campaign's pace back in the form (a campaign's runs take a count an hour or a minute). */
function gradualFromCampaign(c: Campaign): GradualDraft {
  if (c.gradual?.per_minute) return { ...EMPTY_GRADUAL, gradual: 'per_minute', gradualCount: String(c.gradual.per_minute) }
  if (c.gradual?.per_hour) return { ...EMPTY_GRADUAL, gradual: 'per_hour', gradualCount: String(c.gradual.per_hour) }
  return EMPTY_GRADUAL
}

function joinFa(items: string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join('، ')} و ${items[items.length - 1]}`
}

/** «هر روز ساعت ۰۹:۰۰», «هر هفته شنبه و دوشنبه ساعت ۱۰:۳۰», «هر ماه روز ۱ و ۱۵ ساعت ۰۸:۰۰», «کرون: 0 9 * * *». */
export function scheduleSummary(s: CampaignSchedule | undefined): string {
  if (!s) return '—'
  const at = s.time ? ` ساعت ${toPersianDigits(s.time)}` : ''
  switch (s.kind) {
    case 'daily':
      return `هر روز${at}`
    case 'weekly':
      return `هر هفته ${joinFa((s.weekdays ?? []).map((d) => JALALI_WEEKDAYS[d] ?? String(d)))}${at}`
    case 'monthly':
      return `هر ماه روز ${joinFa((s.month_days ?? []).map((d) => toPersianDigits(d)))}${at}`
    case 'cron':
      return `کرون: ${s.cron ?? ''}`
    default:
      return '—'
  }
}

/** Toggles a value in a list. */
export function toggled<T>(list: T[], value: T): T[] {
  return list.includes(value) ? list.filter((v) => v !== value) : [...list, value]
}
