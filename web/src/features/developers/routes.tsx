import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const ApiKeysPage = lazyPage(() => import('./ApiKeysPage'))

/** The developers' pages built so far (spec §2), mounted inside the main layout. */
export const developerRoutes: RouteObject[] = [
  { path: 'developers/api-keys', element: <ApiKeysPage />, handle: { title: 'کلیدهای API' } },
]
