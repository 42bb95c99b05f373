import { useQuery } from '@tanstack/react-query'
import { api } from './api'
import { queryKeys } from './queryKeys'
import { useToken } from './auth'

export interface Credit {
  credit: number
}

/** Wallet credit in rials (spec §3: floored for display). Live `credit.changed` events update it. */
export function useCredit() {
  const token = useToken()
  return useQuery({
    queryKey: queryKeys.credit,
    queryFn: () => api.get<Credit>('/payment/credit/mine'),
    enabled: !!token,
    select: (d) => Math.floor(Number(d?.credit ?? 0)),
  })
}
