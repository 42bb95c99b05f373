/**
 * Pure rules of the contacts pages: labels, number display, form validation and mapping to the
 * API shapes, table filters, and the import wizard's column mapping.
 */
import type { TableFilter } from '../../components/TableFilters'
import type { SelectOption } from '../../components/selectUtils'
import { toDateParam } from '../../components/dateMask'
import { toLatinDigits } from '../../lib/digits'
import { localMobile } from '../../lib/mobile'
import { isValidMobile, normalizeMobile } from '../../lib/paste'
import type { FileColumn } from '../../lib/files'

export type Gender = 'male' | 'female' | ''
export type ListKind = 'send' | 'receive' | 'cancel11'
export type ListSource = 'manual' | 'import' | 'inbound'
export type FeatureType = 'text' | 'date' | 'integer'
export type FeatureFlow = 'send' | 'import' | 'contacts'
export type FeatureValue = string | number | null

export interface Feature {
  id: number
  title_fa: string
  title_en: string
  type: FeatureType
  enabled: boolean
  flows: FeatureFlow[]
  created_at?: string
}

export interface BlacklistMark {
  kind: ListKind
  created_at: string
}

export interface Contact {
  id: number
  phonebook_id: number
  phonebook_name: string
  number: string
  name: string
  gender: Gender
  birth_date: string | null
  tags: string[]
  features: Record<string, FeatureValue>
  blacklists: BlacklistMark[]
  created_at: string
}

/** One contact as sent to add-list-new / update-new. */
export interface ContactInput {
  number: string
  name?: string
  gender?: Gender
  birth_date?: string
  tags?: string[]
  features?: Record<string, string | null>
}

// ---------------------------------------------------------------- labels

export const GENDER_LABELS: Record<Gender, string> = { male: 'مرد', female: 'زن', '': 'نامشخص' }
export const GENDER_OPTIONS: SelectOption[] = [
  { value: 'male', label: 'مرد' },
  { value: 'female', label: 'زن' },
]

export const LIST_LABELS: Record<ListKind, string> = {
  send: 'لیست سیاه ارسال',
  receive: 'لیست سیاه دریافت',
  cancel11: 'لیست لغو۱۱',
}

export const SOURCE_LABELS: Record<ListSource, string> = {
  manual: 'دستی',
  import: 'ورود از فایل',
  inbound: 'پیامک دریافتی',
}

export const FEATURE_TYPE_LABELS: Record<FeatureType, string> = { text: 'متن', date: 'تاریخ', integer: 'عدد صحیح' }
export const FEATURE_TYPE_OPTIONS: SelectOption<FeatureType>[] = (['text', 'date', 'integer'] as const).map((value) => ({
  value,
  label: FEATURE_TYPE_LABELS[value],
}))

export const FLOW_LABELS: Record<FeatureFlow, string> = { contacts: 'فرم مخاطب', import: 'ورود از فایل', send: 'ارسال پیامک' }
export const FLOWS: FeatureFlow[] = ['contacts', 'import', 'send']

export const labelOf = <K extends string>(labels: Record<K, string>, key: string | null | undefined): string =>
  (key !== null && key !== undefined && key in labels ? labels[key as K] : key) || '—'

// ---------------------------------------------------------------- messages

export const MESSAGES = {
  mobile: 'لطفا شماره موبایل صحیح وارد کنید',
  required: 'این فیلد الزامی است',
  latinTitle: 'عنوان لاتین فقط می‌تواند شامل حروف لاتین، عدد و خط تیره باشد',
  integer: 'مقدار باید عدد صحیح باشد',
  textTooLong: 'حداکثر ۵۰۰ کاراکتر مجاز است',
  nameTooLong: 'حداکثر ۱۰۰ کاراکتر مجاز است',
  chooseGroup: 'لطفا گروه را انتخاب کنید',
  chooseFile: 'لطفا فایل را انتخاب کنید',
  flows: 'دست‌کم یک کاربرد را انتخاب کنید',
  date: 'تاریخ نامعتبر است',
} as const

export const FEATURE_TEXT_MAX = 500
export const PHONEBOOK_NAME_MAX = 100

// ---------------------------------------------------------------- numbers

export { displayMobile, localMobile } from '../../lib/mobile'

/** The 98… form of a typed number, or null when it is not a valid Iranian mobile. */
export function parseMobile(raw: string): string | null {
  const n = normalizeMobile(raw)
  return isValidMobile(n) ? n : null
}

// ---------------------------------------------------------------- features

export const LATIN_TITLE_PATTERN = /^[A-Za-z0-9-]+$/

export function latinTitleError(value: string): string | undefined {
  const v = value.trim()
  if (!v) return MESSAGES.required
  return LATIN_TITLE_PATTERN.test(v) ? undefined : MESSAGES.latinTitle
}

/** Enabled features used by a flow (the contact form, the import, or sends). */
export function featuresFor(features: Feature[] | undefined, flow: FeatureFlow): Feature[] {
  return (features ?? []).filter((f) => f.enabled && f.flows.includes(flow))
}

/** The value as it is sent to the API, or an error. Empty values are dropped (undefined). */
export function featureValue(type: FeatureType, raw: string): { value?: string; error?: string } {
  const v = raw.trim()
  if (!v) return {}
  if (type === 'integer') {
    const latin = toLatinDigits(v)
    return /^-?\d+$/.test(latin) ? { value: latin } : { error: MESSAGES.integer }
  }
  if (type === 'date') return /^\d{4}-\d{2}-\d{2}$/.test(v) ? { value: v } : { error: MESSAGES.date }
  return [...v].length > FEATURE_TEXT_MAX ? { error: MESSAGES.textTooLong } : { value: v }
}

export interface FeatureForm {
  id?: number
  title_fa: string
  title_en: string
  type: FeatureType
  enabled: boolean
  flows: FeatureFlow[]
}

export const EMPTY_FEATURE: FeatureForm = { title_fa: '', title_en: '', type: 'text', enabled: true, flows: ['contacts', 'import', 'send'] }

export function featureFormErrors(f: FeatureForm): Partial<Record<keyof FeatureForm, string>> {
  const errors: Partial<Record<keyof FeatureForm, string>> = {}
  if (!f.title_fa.trim()) errors.title_fa = MESSAGES.required
  const latin = latinTitleError(f.title_en)
  if (latin) errors.title_en = latin
  if (f.flows.length === 0) errors.flows = MESSAGES.flows
  return errors
}

export function featureBody(f: FeatureForm) {
  return {
    ...(f.id ? { id: f.id } : {}),
    title_fa: f.title_fa.trim(),
    title_en: f.title_en.trim(),
    type: f.type,
    enabled: f.enabled,
    flows: f.flows,
  }
}

// ---------------------------------------------------------------- contact form

export interface ContactForm {
  number: string
  name: string
  gender: Gender
  /** «YYYY-MM-DD» (Gregorian, as in the API) or ''. */
  birth_date: string
  tags: string[]
  /** Phonebook ids; a new contact is added to each, an edited one keeps its own. */
  groups: number[]
  /** Raw values by Latin title; dates as «YYYY-MM-DD». */
  features: Record<string, string>
}

export const EMPTY_CONTACT: ContactForm = { number: '', name: '', gender: '', birth_date: '', tags: [], groups: [], features: {} }

export function contactToForm(c: Contact): ContactForm {
  const features: Record<string, string> = {}
  for (const [k, v] of Object.entries(c.features ?? {})) if (v !== null && v !== undefined) features[k] = String(v)
  return {
    number: localMobile(c.number),
    name: c.name ?? '',
    gender: c.gender ?? '',
    birth_date: c.birth_date ?? '',
    tags: c.tags ?? [],
    groups: [c.phonebook_id],
    features,
  }
}

export type ContactErrors = Partial<Record<string, string>>

/** Client checks of the contact form; feature errors are keyed `features.<latin>`. */
export function contactErrors(f: ContactForm, features: Feature[], isNew: boolean): ContactErrors {
  const errors: ContactErrors = {}
  if (!parseMobile(f.number)) errors.number = MESSAGES.mobile
  if ([...f.name.trim()].length > PHONEBOOK_NAME_MAX) errors.name = MESSAGES.nameTooLong
  if (isNew && f.groups.length === 0) errors.groups = MESSAGES.chooseGroup
  for (const feat of features) {
    const { error } = featureValue(feat.type, f.features[feat.title_en] ?? '')
    if (error) errors[`features.${feat.title_en}`] = error
  }
  return errors
}

/**
 * The API body of a contact: only the features the form shows are sent (the server refuses
 * unknown or disabled ones and keeps those left out on an update); a value cleared on an update
 * is sent as null, which removes it.
 */
export function contactInput(f: ContactForm, shown: Feature[], isUpdate = false): ContactInput {
  const features: Record<string, string | null> = {}
  for (const feat of shown) {
    const { value } = featureValue(feat.type, f.features[feat.title_en] ?? '')
    if (value !== undefined) features[feat.title_en] = value
    else if (isUpdate) features[feat.title_en] = null
  }
  return {
    number: parseMobile(f.number) ?? toLatinDigits(f.number.trim()),
    name: f.name.trim(),
    gender: f.gender,
    ...(f.birth_date || isUpdate ? { birth_date: f.birth_date } : {}),
    tags: f.tags,
    features,
  }
}

/** Today as the upper bound of a birth date («YYYY-MM-DD»). */
export const todayParam = () => toDateParam(new Date())

// ---------------------------------------------------------------- table filters

/** URL/API keys of the contact list's filters (also the export's query). */
export function contactFilters(opts: {
  groups?: SelectOption[]
  tags?: SelectOption[]
  features?: Feature[]
  withGroup?: boolean
}): TableFilter[] {
  const filters: TableFilter[] = [{ type: 'search', key: 'search', title: 'جستجو', placeholder: 'نام یا شماره' }]
  if (opts.withGroup !== false) filters.push({ type: 'options', key: 'phonebook_id', title: 'گروه', options: opts.groups ?? [] })
  filters.push(
    { type: 'options', key: 'gender', title: 'جنسیت', options: GENDER_OPTIONS },
    { type: 'options', key: 'tag', title: 'برچسب', options: opts.tags ?? [] },
    { type: 'date_range', key: 'birth', title: 'تاریخ تولد', dateFromKey: 'birth_from', dateToKey: 'birth_to' },
    { type: 'date_range', key: 'created', title: 'تاریخ افزودن', dateFromKey: 'created_from', dateToKey: 'created_to' },
  )
  for (const f of opts.features ?? []) {
    if (!f.enabled) continue
    const key = `feature.${f.title_en}`
    filters.push(f.type === 'date' ? { type: 'date', key, title: f.title_fa } : { type: 'search', key, title: f.title_fa })
  }
  return filters
}

// ---------------------------------------------------------------- import mapping

/** Target fields of the import mapping; features are `feature:<latin>`. */
export type MappingTarget = 'name' | 'gender' | 'birth_date' | 'tags' | `feature:${string}`
/** Column index per target; null = not imported. */
export type Mapping = Record<string, number | null>

export const BASE_TARGETS: Array<{ key: MappingTarget; title: string; hints: string[] }> = [
  { key: 'name', title: 'نام', hints: ['نام', 'name', 'fullname', 'full name', 'نام و نام خانوادگی'] },
  { key: 'gender', title: 'جنسیت', hints: ['جنسیت', 'gender', 'sex'] },
  { key: 'birth_date', title: 'تاریخ تولد', hints: ['تاریخ تولد', 'تولد', 'birth', 'birth_date', 'birthday', 'birthdate'] },
  { key: 'tags', title: 'برچسب‌ها', hints: ['برچسب', 'برچسب‌ها', 'برچسب ها', 'tag', 'tags'] },
]

export function mappingTargets(features: Feature[]): Array<{ key: MappingTarget; title: string; hints: string[] }> {
  return [
    ...BASE_TARGETS,
    ...features.map((f) => ({ key: `feature:${f.title_en}` as MappingTarget, title: f.title_fa, hints: [f.title_fa, f.title_en] })),
  ]
}

const norm = (s: string) => toLatinDigits(s).toLowerCase().replace(/ي/g, 'ی').replace(/ك/g, 'ک').replace(/[\s\u200c_-]+/g, ' ').trim()

/** Pre-fills the mapping from the header titles; the mobile column is never mapped. */
export function guessMapping(columns: FileColumn[], features: Feature[], mobileCol: number | null | undefined): Mapping {
  const mapping: Mapping = {}
  const used = new Set<number>(mobileCol === null || mobileCol === undefined ? [] : [mobileCol])
  for (const t of mappingTargets(features)) {
    const hints = t.hints.map(norm)
    const col = columns.find((c) => !used.has(c.index) && c.title && hints.includes(norm(c.title)))
    mapping[t.key] = col ? col.index : null
    if (col) used.add(col.index)
  }
  return mapping
}

/** The `mapping` object of POST /phonebooks/numbers/import: only mapped targets. */
export function mappingBody(mapping: Mapping) {
  const body: { name?: number; gender?: number; birth_date?: number; tags?: number; features: Record<string, number> } = { features: {} }
  for (const [key, col] of Object.entries(mapping)) {
    if (col === null || col === undefined) continue
    if (key.startsWith('feature:')) body.features[key.slice('feature:'.length)] = col
    else if (key === 'name' || key === 'gender' || key === 'birth_date' || key === 'tags') body[key] = col
  }
  return body
}

// ---------------------------------------------------------------- import job

export interface ImportJob {
  id: number | string
  status: 'running' | 'done' | 'failed'
  total: number
  added: number
  skipped: number
  invalid: number
  progress: number
  /** Why a failed import stopped (Persian). */
  error?: string
  /** Rows that were not imported, with the reason. */
  errors?: Array<{ row: number; field: string; message: string; value: string }>
}

/** Progress in percent: the server's progress, else the processed share of total; 100 when done. */
export function importPercent(job: Partial<ImportJob> | undefined): number {
  if (!job) return 0
  if (job.status === 'done') return 100
  if (typeof job.progress === 'number' && Number.isFinite(job.progress) && job.progress > 0) return Math.min(100, job.progress)
  const done = (job.added ?? 0) + (job.skipped ?? 0) + (job.invalid ?? 0)
  return job.total ? Math.min(100, (done / job.total) * 100) : 0
}

export const IMPORT_STEPS = ['گروه', 'بارگذاری فایل', 'بررسی فایل', 'تطبیق ستون‌ها', 'ورود مخاطبین'] as const
