import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const WebhooksPage = lazyPage(() => import('./WebhooksPage'))
const ApiCallsPage = lazyPage(() => import('./ApiCallsPage'))
const ApiCallDetailPage = lazyPage(() => import('./ApiCallDetailPage'))

/** Webhooks and the API-call log (docs/webhooks.md), mounted inside the main layout. */
export const webhookRoutes: RouteObject[] = [
  { path: 'developers/webhooks', element: <WebhooksPage />, handle: { title: 'وب‌هوک‌ها' } },
  { path: 'developers/api-calls', element: <ApiCallsPage />, handle: { title: 'فراخوانی‌های API' } },
  { path: 'developers/api-calls/:id', element: <ApiCallDetailPage />, handle: { title: 'جزئیات فراخوانی API' } },
]
