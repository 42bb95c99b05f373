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

/**
 * The account's «لغو۱۱» default for service lines (GET /user/setting, set on /settings):
 * `ready` once answered (or refused: a colleague without the profile permission keeps off).
 */
export function useCancel11Default(): { ready: boolean; value: boolean } {
  const q = useQuery({
    queryKey: queryKeys.accountSettings,
    queryFn: () => api.get<{ cancel11_default: boolean }>('/user/setting'),
    staleTime: 60_000,
    retry: false,
  })
  return { ready: !q.isPending, value: q.data?.cancel11_default === true }
}
