import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const PatternsPage = lazyPage(() => import('./PatternsPage'))
const PatternFormPage = lazyPage(() => import('./PatternFormPage'))
const PatternDetailPage = lazyPage(() => import('./PatternDetailPage'))

/** The pattern pages (spec §2 Pattern), mounted inside the main layout. */
export const patternRoutes: RouteObject[] = [
  { path: 'pattern', element: <PatternsPage />, handle: { title: 'الگو (پترن)' } },
  { path: 'pattern/systemic', element: <PatternsPage systemic />, handle: { title: 'الگوهای سیستمی' } },
  { path: 'pattern/systemic/:id', element: <PatternDetailPage systemic />, handle: { title: 'جزئیات الگوی سیستمی' } },
  { path: 'pattern/create', element: <PatternFormPage />, handle: { title: 'ایجاد الگو' } },
  { path: 'pattern/update/:id', element: <PatternFormPage />, handle: { title: 'ویرایش الگو' } },
  { path: 'pattern/:id', element: <PatternDetailPage />, handle: { title: 'جزئیات الگو' } },
]
