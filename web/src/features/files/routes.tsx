import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const FilesPage = lazyPage(() => import('./FilesPage'))

/** /file-management (spec §2), mounted inside the main layout. */
export const fileRoutes: RouteObject[] = [
  { path: 'file-management', element: <FilesPage />, handle: { title: 'مدیریت فایل' } },
]
