import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ACL_KEY } from '../../lib/acl'
import { api, type Query } from '../../lib/api'
import type { ColleagueStatus, PermissionItem } from './model'

export interface Role {
  id: number
  name: string
  permissions: string[]
  colleagues: number
  created_at: string
}

export interface RoleInput {
  id?: number
  name: string
  permissions: string[]
}

export interface Colleague {
  id: number
  name: string
  username: string
  mobile: string
  national_id: string
  role_id: number
  role_name: string
  status: ColleagueStatus
  permissions: string[]
  created_at: string
}

export interface ColleagueInput {
  id?: number
  name: string
  username?: string
  mobile?: string
  national_id: string
  role_id: number
}

/** Every query of the colleagues pages lives under this key; writes invalidate it whole. */
const KEY = ['colleagues'] as const
const key = (...parts: unknown[]) => [...KEY, ...parts]

export function usePermissionList() {
  return useQuery({
    queryKey: key('permissions'),
    queryFn: ({ signal }) => api.get<PermissionItem[]>('/acl/partner/permission_list', undefined, signal),
    staleTime: Infinity,
  })
}

export function useRoles(params: Query) {
  return useQuery({
    queryKey: key('roles', params),
    queryFn: ({ signal }) => api.page<Role>('/acl/partner/role_list', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function useRole(id: string | undefined) {
  return useQuery({
    queryKey: key('role', id),
    queryFn: ({ signal }) => api.get<Role>(`/acl/partner/show_role/${encodeURIComponent(id ?? '')}`, undefined, signal),
    enabled: !!id,
  })
}

export function useColleagues(params: Query) {
  return useQuery({
    queryKey: key('list', params),
    queryFn: ({ signal }) => api.page<Colleague>('/user/partner/list', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function useColleague(id: string) {
  return useQuery({
    queryKey: key('colleague', id),
    queryFn: ({ signal }) => api.get<Colleague>(`/user/partner/show/${encodeURIComponent(id)}`, undefined, signal),
  })
}

/** A write of this feature; success refreshes its lists and the caller's own access list. */
function useWrite<I, O>(run: (input: I) => Promise<O>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: KEY })
      void qc.invalidateQueries({ queryKey: ACL_KEY })
    },
  })
}

export const useSaveRole = () =>
  useWrite((r: RoleInput) => api.post<Role>(r.id ? '/acl/partner/update_role' : '/acl/partner/create_role', r))
export const useCopyRole = () => useWrite((id: number) => api.post<Role>('/acl/partner/copy_role', { id }))
export const useDeleteRole = () => useWrite((id: number) => api.post<null>('/acl/partner/delete_role', { id }))
export const useSaveColleague = () =>
  useWrite((c: ColleagueInput) => api.post<Colleague>(c.id ? '/user/partner/update' : '/user/partner/create', c))
export const useSetActive = () =>
  useWrite(({ id, active }: { id: number; active: boolean }) => api.post<null>(active ? '/user/partner/active' : '/user/partner/deactive', { id }))
export const useResendInvite = () => useWrite((id: number) => api.post<null>('/user/partner/resend_invite', { id }))

export interface AcceptInput {
  username: string
  code: string
  password: string
  password_confirmation: string
}

export const useAcceptInvite = () =>
  useMutation({ mutationFn: (a: AcceptInput) => api.post<{ username: string }>('/user/partner/accept_invite', a) })
