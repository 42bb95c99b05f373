import { api } from '../../lib/api'

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
