import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const PredefinedMessagesPage = lazyPage(() => import('./PredefinedMessagesPage'))
const GroupDetailsPage = lazyPage(() => import('./GroupDetailsPage'))

/** The predefined-messages pages (spec §2), mounted inside the main layout. */
export const predefinedRoutes: RouteObject[] = [
  { path: 'predefined-messages', element: <PredefinedMessagesPage />, handle: { title: 'پیام‌های از پیش تعریف‌شده' } },
  { path: 'predefined-messages/:id', element: <GroupDetailsPage />, handle: { title: 'گروه پیام‌های از پیش تعریف‌شده' } },
]
