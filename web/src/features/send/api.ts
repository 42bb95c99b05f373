import { api, type Query } from '../../lib/api'
import type { GradualBody } from '../../lib/gradual'
import type { PreviewRow } from '../../components/PreviewRows'

export interface PriceBody {
  text: string
  numbers: string[]
  cancel11: boolean
  sender: string
  gradual?: GradualBody
  /** A scheduled send's time: the quote's sending hours are those of this time. */
  send_at?: string | null
}

export interface PriceQuote {
  /** For per-row texts (peer-to-peer, keyword) the largest per-row count. */
  parts: number
  encoding: 'gsm7' | 'ucs2'
  characters: number
  chars_left: number
  recipients: number
  price: number
  per_operator: Array<{ operator: string; recipients: number; parts?: number; price: number }>
  cancel11?: boolean
  /** Numbers (or rows) asked for, before de-duplication and the blacklists. */
  requested?: number
  duplicates?: number
  invalid?: number
  /** Parts of every recipient together. */
  total_parts?: number
  /** On the send blacklist or the cancel-11 list: not sent, not charged. */
  blacklisted?: number
  /** On an advertising line: numbers that blocked advertising SMS at their operator (*800#): not sent, not charged. */
  operator_blocked?: number
  charity?: number
  /** On an advertising line: whether the send may go at its time, and when the sending hours next open. */
  send_hours?: SendHours
  /** A gradual send: its pace (an hour), expected end and the Persian note. */
  gradual?: { per_hour: number; estimated_end: string; note: string }
  /** Sends whose rows carry their own texts (personalised phonebook, keyword): the first rows as sent. */
  preview?: PreviewRow[]
}

/** A row of a quote's preview: the rendered text, its parts and its price. */
export type { PreviewRow }

/** The sending hours of a quote, or the data of a send refused outside them (code outside-send-hours). */
export interface SendHours {
  open: boolean
  next_allowed_at: string
  window: { from: string; to: string }
  note: string
}

/** The message_code of a send refused outside its sending hours. */
export const OUTSIDE_HOURS = 'outside-send-hours'

export interface SendBody extends PriceBody {
  type: 'quick'
  send_at: string | null
}

/** A file, peer-to-peer, keyword or phonebook send (api-contract "Files and bulk sources"). */
export interface BulkSendBody {
  type: 'file' | 'peer_to_peer' | 'keyword' | 'phonebook'
  sender: string
  cancel11: boolean
  text?: string
  file_id?: number | string
  phonebook_ids?: Array<number | string>
  send_at?: string | null
  gradual?: GradualBody
}

export interface SendResult {
  id: number | string
  status: string
  price: number
}

/** POST /send/test: the text from a line to the caller's own mobile. */
export interface TestSendBody {
  text: string
  line: string
  cancel11?: boolean
  /** A personalised send's first row: each {key} of the text becomes its value. */
  sample?: Record<string, string>
}

/** The test send accepted: the send and the mobile it went to (0912…). */
export interface TestSent extends SendResult {
  mobile: string
}

export const sendApi = {
  test: (body: TestSendBody) => api.post<TestSent>('/send/test', body),
  calculatePrice: (body: PriceBody | BulkSendBody | TargetedSendBody) => api.post<PriceQuote>('/send/calculate-price', body),
  send: (body: (SendBody | BulkSendBody | TargetedSendBody) & { hold_until_window?: boolean }, idempotencyKey: string) =>
    api.post<SendResult>('/send', body, { 'Idempotency-Key': idempotencyKey }),
}

/** The send methods whose wizards save drafts (the five targeted sends included). */
export type DraftType = 'quick' | 'file' | 'keyword' | 'peer_to_peer' | 'phonebook' | TargetedKind

/** POST /user/draft: a wizard's text, settings and recipients (id replaces that draft). */
export interface DraftBody {
  id?: number
  type: DraftType
  title: string
  text: string
  sender: string
  cancel11: boolean
  numbers: string[]
  file_id: number | null
  phonebook_ids: number[]
  send_at: string | null
  /** A targeted send's audience (null for the other methods). */
  target?: BankTarget | null
}

/** A saved draft; lists leave `numbers` empty and count them in `recipients`. */
export interface Draft extends Required<Pick<DraftBody, 'id'>>, Omit<DraftBody, 'id'> {
  recipients: number
  file_name: string
  created_by: string
  updated_at: string
}

export const DRAFTS_KEY = ['drafts'] as const

export const draftApi = {
  save: (body: DraftBody) => api.post<Draft>('/user/draft', body),
  show: (id: number | string, signal?: AbortSignal) => api.get<Draft>(`/user/draft/show/${id}`, undefined, signal),
  list: (params: Query, signal?: AbortSignal) => api.page<Draft>('/user/draft/list', params, signal),
  remove: (id: number) => api.post<null>('/user/draft/delete', { id }),
}

/** The five targeted send types: their audience comes from the platform's number bank. */
export type TargetedKind = 'city_province' | 'business' | 'postal_code' | 'map' | 'tower_irancell'

/** An audience of the number bank (pkg/bank Target): where, narrowed, all or a random count. */
export interface BankTarget {
  provinces?: number[]
  counties?: number[]
  cities?: number[]
  categories?: number[]
  subcategories?: number[]
  postal_codes?: string[]
  /** [lon, lat] vertices. */
  polygon?: Array<[number, number]>
  circle?: { lat: number; lon: number; radius: number }
  towers?: number[]
  operators?: string[]
  genders?: number[]
  age_bands?: number[]
  /** How many to draw at random (0 or absent: all). */
  count?: number
}

export interface TargetedSendBody {
  type: TargetedKind
  sender: string
  cancel11: boolean
  text: string
  target: BankTarget
  send_at?: string | null
  gradual?: GradualBody
}

/** POST /send/banks/counts: how many numbers an audience holds, split, and the price. */
export interface BankCounts {
  total: number
  recipients: number
  by_operator: Record<string, number>
  by_gender: Record<string, number>
  by_age_band: Record<string, number>
  parts: number
  price: number
  minimum: number
  enough: boolean
}

/** A province, county, city, category or sub-category with its count of numbers. */
export interface BankPlace {
  id: number
  name: string
  parent_id?: number
  count: number
  lon?: number
  lat?: number
}

export interface BankTower {
  id: number
  county_code: number
  lon: number
  lat: number
}

export const bankApi = {
  counts: (body: { type: TargetedKind; target: BankTarget; text?: string; cancel11?: boolean }) =>
    api.post<BankCounts>('/send/banks/counts', body),
  provinces: (signal?: AbortSignal) => api.get<BankPlace[]>('/send/banks/provinces', undefined, signal),
  counties: (provinceId: number, signal?: AbortSignal) => api.get<BankPlace[]>('/send/banks/counties', { province_id: provinceId }, signal),
  cities: (provinceId: number, signal?: AbortSignal) => api.get<BankPlace[]>('/send/banks/cities', { province_id: provinceId }, signal),
  categories: (signal?: AbortSignal) => api.get<BankPlace[]>('/send/jobs/categories', undefined, signal),
  subCategories: (categoryId: number, signal?: AbortSignal) =>
    api.get<BankPlace[]>('/send/jobs/sub-categories', { category_id: categoryId }, signal),
  towers: (box: { min_lon: number; min_lat: number; max_lon: number; max_lat: number }, signal?: AbortSignal) =>
    api.get<BankTower[]>('/send/banks/towers', box, signal),
  mapSettings: () => api.get<{ tile_url: string }>('/send/banks/map-settings'),
}

/** A GeoJSON feature collection of outlines (© OpenStreetMap contributors, ODbL). */
export interface Outlines {
  type: 'FeatureCollection'
  features: Array<{ type: 'Feature'; properties: { code: number; name_fa: string; center?: [lon: number, lat: number] }; geometry: unknown }>
}

export const outlinesApi = {
  get: (kind: 'provinces' | 'counties') => api.get<Outlines>(`/send/banks/outlines/${kind}`),
}
