import { useEffect, type ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { api } from '../../lib/api'
import { clearAdminToken, useAdminToken, useToken } from '../../lib/auth'
import { useQuery } from '@tanstack/react-query'
import { PageLoader } from './PageLoader'
import { useIsMobile } from '../../lib/viewport'

/** The layout is reachable only with a stored token (spec §2). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const token = useToken()
  const location = useLocation()
  if (!token) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />
  return children
}

/** Login, register and forgot-password are for visitors; a stored token goes to the dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const token = useToken()
  const from = (useLocation().state as { from?: string } | null)?.from
  if (!token) return children
  return <Navigate to={from && !from.startsWith('/login') ? from : '/dashboard'} replace />
}

/** Spec §2: mobile-only pages redirect to /404 on desktop. */
export function MobileOnly({ children }: { children: ReactNode }) {
  return useIsMobile() ? children : <Navigate to="/404" replace />
}

/** Desktop-only pages redirect to /404 on mobile. */
export function DesktopOnly({ children }: { children: ReactNode }) {
  return useIsMobile() ? <Navigate to="/404" replace /> : children
}

/**
 * The back office needs a staff session: without one, or when the server does not
 * know it (every staff route answers 404 then), it goes to /admin/login.
 */
export function RequireStaff({ children }: { children: ReactNode }) {
  const token = useAdminToken()
  const me = useQuery({ queryKey: ['admin', 'me', token], queryFn: () => api.get('/admin/me'), enabled: !!token, retry: false })
  const refused = !!token && me.isError
  useEffect(() => {
    if (refused) clearAdminToken()
  }, [refused])
  if (!token || refused) return <Navigate to="/admin/login" replace />
  if (me.isPending) return <PageLoader full />
  return children
}
