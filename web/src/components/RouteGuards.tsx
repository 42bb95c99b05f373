import { type ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router'
import { useToken } from '../lib/auth'
import { useIsMobile } from '../lib/viewport'

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
