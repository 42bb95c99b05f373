import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const LinksPage = lazyPage(() => import('./LinksPage'))
const LinkStatsPage = lazyPage(() => import('./LinkStatsPage'))

/** The link tracker (spec §7 /panel/link_tracker), mounted inside the main layout. */
export const linkRoutes: RouteObject[] = [
  { path: 'links', element: <LinksPage />, handle: { title: 'لینک‌های ردیابی' } },
  { path: 'links/:id', element: <LinkStatsPage />, handle: { title: 'آمار لینک ردیابی' } },
]
