import { useQuery } from '@tanstack/react-query'
import { useEffect, type ReactNode } from 'react'
import { Navigate } from 'react-router'
import { api } from '../../lib/api'
import { clearAdminToken, useAdminToken } from '../../lib/auth'
import { PageLoader } from './PageLoader'

/** The signed-in staff member, as GET /admin/me answers. */
export interface StaffMe {
  id: number
  name: string
  user_name: string
  /** May read the operations page (staff.operations). */
  operations: boolean
}

/** The signed-in staff member (shared with the guard's query). */
export function useStaffMe() {
  const token = useAdminToken()
  return useQuery({ queryKey: ['admin', 'me', token], queryFn: () => api.get<StaffMe>('/admin/me'), enabled: !!token, retry: false })
}

/**
 * The back office needs a staff session: without one, or when the server does not
 * know it (every staff route answers 404 then), it goes to /admin/login.
 */
export function RequireStaff({ children }: { children: ReactNode }) {
  const token = useAdminToken()
  const me = useStaffMe()
  const refused = !!token && me.isError
  useEffect(() => {
    if (refused) clearAdminToken()
  }, [refused])
  if (!token || refused) return <Navigate to="/admin/login" replace />
  if (me.isPending) return <PageLoader full />
  return children
}
