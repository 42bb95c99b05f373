import { useQuery } from '@tanstack/react-query'
import { api } from '../../lib/api'
import { queryKeys } from '../../lib/queryKeys'

export interface SenderLine {
  id: number | string
  number: string
  kind: 'advertising' | 'service'
  is_default: boolean
}

export interface PriceBody {
  text: string
  numbers: string[]
  cancel11: boolean
  sender: string
}

export interface PriceQuote {
  parts: number
  encoding: 'gsm7' | 'ucs2'
  characters: number
  chars_left: number
  recipients: number
  price: number
  per_operator: Array<{ operator: string; recipients: number; price: number }>
}

export interface SendBody extends PriceBody {
  type: 'quick'
  send_at: string | null
}

export interface SendResult {
  id: number | string
  status: string
  price: number
}

export function useSenderLines() {
  return useQuery({ queryKey: queryKeys.numbers, queryFn: () => api.get<SenderLine[]>('/number/numbers'), staleTime: 5 * 60_000 })
}

export const sendApi = {
  calculatePrice: (body: PriceBody) => api.post<PriceQuote>('/send/calculate-price', body),
  send: (body: SendBody, idempotencyKey: string) => api.post<SendResult>('/send', body, { 'Idempotency-Key': idempotencyKey }),
}
