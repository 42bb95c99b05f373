import { useQuery } from '@tanstack/react-query'
import { api } from './api'
import { getToken } from './auth'

/** Permission keys of the API (pkg/acl). */
export type Permission =
  | 'send.create'
  | 'send.cancel'
  | 'report.view'
  | 'number.view'
  | 'number.manage'
  | 'wallet.view'
  | 'profile.manage'
  | 'partner.manage'
  | 'phonebook.view'
  | 'phonebook.manage'
  | 'file.manage'
  | 'wallet.pay'
  | 'apikey.manage'
  | 'predefined.view'
  | 'predefined.manage'
  | 'support.manage'
  | 'audit.view'
  | 'inbox.manage'
  | 'secretary.view'
  | 'secretary.manage'

/** The caller's access list (GET /acl/list, spec §6). */
export interface Acl {
  is_owner: boolean
  reseller_id: number
  permissions: Permission[]
}

export const ACL_KEY = ['auth', 'acl'] as const

/** The access list of the logged-in user; the layout filters the menu and routes with it. */
export function useAcl() {
  return useQuery({
    queryKey: ACL_KEY,
    queryFn: ({ signal }) => api.get<Acl>('/acl/list', undefined, signal),
    enabled: !!getToken(),
    staleTime: 60_000,
  })
}

/**
 * Whether the access list allows a permission. Owners hold everything; `'owner'` marks
 * owner-only pages; no permission means any member. Until the list arrives only what
 * needs no permission is allowed (the menu does not flash items a colleague lacks).
 */
export function allows(acl: Acl | undefined, perm: Permission | 'owner' | undefined): boolean {
  if (!perm) return true
  if (!acl) return false
  if (acl.is_owner) return true
  if (perm === 'owner') return false
  return acl.permissions.includes(perm)
}
