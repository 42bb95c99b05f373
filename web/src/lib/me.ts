import { useQuery } from '@tanstack/react-query'
import { api } from './api'
import { queryKeys } from './queryKeys'
import { useToken } from './auth'

/** The signed-in user, as check_token answers. */
export interface Me {
  name: string
  user_name: string
}

/** Reads the signed-in user (check_token). */
export const fetchMe = () => api.get<Me>('/acl/auth/check_token')

/** The signed-in user (header, profile menu, dashboard greeting). */
export function useMe() {
  const token = useToken()
  return useQuery({ queryKey: queryKeys.me, queryFn: fetchMe, enabled: !!token, staleTime: 5 * 60_000 })
}
