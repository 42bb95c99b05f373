import { api, type Query } from '../../lib/api'

export interface PriceBody {
  text: string
  numbers: string[]
  cancel11: boolean
  sender: string
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
  charity?: number
}

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
}

export interface SendResult {
  id: number | string
  status: string
  price: number
}

export const sendApi = {
  calculatePrice: (body: PriceBody | BulkSendBody) => api.post<PriceQuote>('/send/calculate-price', body),
  send: (body: SendBody | BulkSendBody, idempotencyKey: string) => api.post<SendResult>('/send', body, { 'Idempotency-Key': idempotencyKey }),
}

/** The send methods whose wizards save drafts. */
export type DraftType = 'quick' | 'file' | 'keyword' | 'peer_to_peer' | 'phonebook'

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
