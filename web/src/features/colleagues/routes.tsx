import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const ColleaguesPage = lazyPage(() => import('./ColleaguesPage'))
const ColleagueFormPage = lazyPage(() => import('./ColleagueFormPage'))
const ColleagueDetailsPage = lazyPage(() => import('./ColleagueDetailsPage'))
const RoleFormPage = lazyPage(() => import('./RoleFormPage'))

/** Export of AcceptInvitePage for the router (outside the main layout). */
export const AcceptInvitePage = lazyPage(() => import('./AcceptInvitePage'))

/** The colleagues pages (spec §2), mounted inside the main layout. */
export const colleagueRoutes: RouteObject[] = [
  { path: 'colleagues', element: <ColleaguesPage />, handle: { title: 'همکاران' } },
  { path: 'colleagues/create', element: <ColleagueFormPage />, handle: { title: 'افزودن همکار' } },
  { path: 'colleagues/create-access', element: <RoleFormPage />, handle: { title: 'ایجاد نقش دسترسی' } },
  { path: 'colleagues/update-access/:id', element: <RoleFormPage />, handle: { title: 'ویرایش نقش دسترسی' } },
  { path: 'colleagues/:id', element: <ColleagueDetailsPage />, handle: { title: 'جزئیات همکار' } },
]
