import type { RouteObject } from 'react-router'
import { Navigate } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const ReviewsPage = lazyPage(() => import('./ReviewsPage'))
const AccountsPage = lazyPage(() => import('./AccountsPage'))
const ContentPage = lazyPage(() => import('./ContentPage'))
const SystemicPatternsPage = lazyPage(() => import('./SystemicPatternsPage'))
const StaffPage = lazyPage(() => import('./StaffPage'))
const QuarantinePage = lazyPage(() => import('./QuarantinePage'))
const SendHoursPage = lazyPage(() => import('./SendHoursPage'))
const OperatorBlocklistPage = lazyPage(() => import('./OperatorBlocklistPage'))
const InvoiceSellerPage = lazyPage(() => import('./InvoiceSellerPage'))
const OperationsPage = lazyPage(() => import('./OperationsPage'))
const PaymentGatewayPage = lazyPage(() => import('./PaymentGatewayPage'))

/** The lazy staff login page (outside the back office layout). */
export const AdminLoginPage = lazyPage(() => import('./AdminLoginPage'))

/** The back office pages, mounted by the app router inside AdminLayout under /admin. */
export const adminRoutes: RouteObject[] = [
  { index: true, element: <Navigate to="/admin/reviews" replace /> },
  { path: 'reviews', element: <ReviewsPage />, handle: { title: 'صف‌های بررسی' } },
  { path: 'accounts', element: <AccountsPage />, handle: { title: 'حساب‌های کاربری' } },
  { path: 'content', element: <ContentPage />, handle: { title: 'محتوای پنل مشتریان' } },
  { path: 'patterns', element: <SystemicPatternsPage />, handle: { title: 'الگوهای سیستمی' } },
  { path: 'staff', element: <StaffPage />, handle: { title: 'کاربران پشتیبانی' } },
  { path: 'inbound-quarantine', element: <QuarantinePage />, handle: { title: 'ورودی‌های قرنطینه‌شده' } },
  { path: 'send-hours', element: <SendHoursPage />, handle: { title: 'ساعت مجاز ارسال' } },
  { path: 'operator-blocklist', element: <OperatorBlocklistPage />, handle: { title: 'لیست سیاه اپراتورها' } },
  { path: 'invoice-seller', element: <InvoiceSellerPage />, handle: { title: 'مشخصات فروشنده فاکتور' } },
  { path: 'operations', element: <OperationsPage />, handle: { title: 'پایش عملیات' } },
  { path: 'payment-gateway', element: <PaymentGatewayPage />, handle: { title: 'درگاه پرداخت آنلاین' } },
]
