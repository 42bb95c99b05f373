import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const SupportHubPage = lazyPage(() => import('./SupportHubPage'))
const TicketsPage = lazyPage(() => import('./TicketsPage'))
const TicketDetailsPage = lazyPage(() => import('./TicketDetailsPage'))
const CreateTicketPage = lazyPage(() => import('./CreateTicketPage'))
const ContactInfoPage = lazyPage(() => import('./ContactInfoPage'))
const AdminTicketsPage = lazyPage(() => import('./admin/AdminTicketsPage'))
const AdminTicketPage = lazyPage(() => import('./admin/AdminTicketPage'))
const AdminSupportContentPage = lazyPage(() => import('./admin/AdminSupportContentPage'))

/** The support pages (spec §2), mounted inside the main layout. */
export const supportRoutes: RouteObject[] = [
  { path: 'support', element: <SupportHubPage />, handle: { title: 'پشتیبانی' } },
  { path: 'support/tickets', element: <TicketsPage />, handle: { title: 'تیکت‌ها' } },
  { path: 'support/tickets/:id', element: <TicketDetailsPage />, handle: { title: 'جزئیات تیکت' } },
  { path: 'support/create-ticket', element: <CreateTicketPage kind="ticket" />, handle: { title: 'ثبت تیکت' } },
  { path: 'support/contact-info', element: <ContactInfoPage />, handle: { title: 'اطلاعات تماس' } },
  { path: 'support/create-suggestion-request', element: <CreateTicketPage kind="suggestion" />, handle: { title: 'ثبت درخواست پیشنهاد' } },
  { path: 'support/suggestion-request/:id', element: <TicketDetailsPage />, handle: { title: 'جزئیات درخواست پیشنهاد' } },
]

/** The back office's support pages, mounted under /admin. */
export const supportAdminRoutes: RouteObject[] = [
  { path: 'support/tickets', element: <AdminTicketsPage />, handle: { title: 'صف پشتیبانی' } },
  { path: 'support/tickets/:id', element: <AdminTicketPage />, handle: { title: 'درخواست پشتیبانی' } },
  { path: 'support/content', element: <AdminSupportContentPage />, handle: { title: 'پرسش‌های متداول و پاسخ‌های آماده' } },
]
