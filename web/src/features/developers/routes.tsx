import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const ApiKeysPage = lazyPage(() => import('./ApiKeysPage'))
const DocumentsPage = lazyPage(() => import('./DocumentsPage'))
const PluginsPage = lazyPage(() => import('./PluginsPage'))

/** The developers' pages built so far (spec §2), mounted inside the main layout. */
export const developerRoutes: RouteObject[] = [
  { path: 'developers/api-keys', element: <ApiKeysPage />, handle: { title: 'کلیدهای API' } },
  { path: 'developers/documents', element: <DocumentsPage />, handle: { title: 'مستندات' } },
  { path: 'developers/plugins', element: <PluginsPage />, handle: { title: 'افزونه‌ها' } },
]
