import { useQuery } from '@tanstack/react-query'
import { api } from './api'
import { queryKeys } from './queryKeys'

/** A sender line of the account (the send pages and recurring campaigns pick one). */
export interface SenderLine {
  id: number | string
  number: string
  kind: 'advertising' | 'service'
  is_default: boolean
}

/** The account's sender lines. */
export function useSenderLines() {
  return useQuery({ queryKey: queryKeys.numbers, queryFn: () => api.get<SenderLine[]>('/number/numbers'), staleTime: 5 * 60_000 })
}
