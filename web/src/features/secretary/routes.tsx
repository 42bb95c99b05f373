import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const ReaderListPage = lazyPage(() => import('./ReaderListPage'))
const ReaderFormPage = lazyPage(() => import('./ReaderFormPage'))
const ReaderDetailPage = lazyPage(() => import('./ReaderDetailPage'))

/** The secretary pages (spec §2): the received-message secretary and the keyword readers. */
export const secretaryRoutes: RouteObject[] = [
  { path: 'secretary/received-message/inbox', element: <ReaderListPage secretary />, handle: { title: 'منشی پیام دریافتی' } },
  { path: 'secretary/received-message/create', element: <ReaderFormPage secretary />, handle: { title: 'ایجاد منشی پیام دریافتی' } },
  { path: 'secretary/received-message/update/:id', element: <ReaderFormPage secretary />, handle: { title: 'ویرایش منشی پیام دریافتی' } },
  { path: 'secretary/received-message/recipients/:id/:inbox_type', element: <ReaderDetailPage />, handle: { title: 'دریافت‌کنندگان منشی' } },
  { path: 'secretary/keywords/list', element: <ReaderListPage secretary={false} />, handle: { title: 'کلیدخوان' } },
  { path: 'secretary/keywords/create', element: <ReaderFormPage secretary={false} />, handle: { title: 'ایجاد کلیدخوان' } },
  { path: 'secretary/keywords/:id', element: <ReaderDetailPage />, handle: { title: 'جزئیات کلیدخوان' } },
  { path: 'secretary/keywords/:id/edit', element: <ReaderFormPage secretary={false} />, handle: { title: 'ویرایش کلیدخوان' } },
]
