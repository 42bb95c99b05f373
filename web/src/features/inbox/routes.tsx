import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const InboxPage = lazyPage(() => import('./InboxPage'))

/** The inbox page (spec §7 Inbox), mounted inside the main layout. */
export const inboxRoutes: RouteObject[] = [{ path: 'inbox', element: <InboxPage />, handle: { title: 'پیامک‌های دریافتی' } }]
