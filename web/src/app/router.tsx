import { createBrowserRouter, Navigate, type RouteObject } from 'react-router'
import { lazyPage } from '../lib/chunkReload'
import { GuestOnly, RequireAuth } from '../components/RouteGuards'
import { RequireStaff } from './layout/guards'
import { adminRoutes, AdminLoginPage } from '../features/admin/routes'
import { AcceptInvitePage, colleagueRoutes } from '../features/colleagues/routes'
import { contactRoutes } from '../features/contacts/routes'
import { developerRoutes } from '../features/developers/routes'
import { patternRoutes } from '../features/patterns/routes'
import { webhookRoutes } from '../features/webhooks/routes'
import { predefinedRoutes } from '../features/predefined/routes'
import { supportAdminRoutes, supportRoutes } from '../features/support/routes'
import { linkRoutes } from '../features/links/routes'
import { fileRoutes } from '../features/files/routes'
import { inboxRoutes } from '../features/inbox/routes'
import { secretaryRoutes } from '../features/secretary/routes'
import { profileRoutes } from '../features/profile/routes'
import { AdminLayout, AppLayout, RootShell, SoftLayout } from './RootShell'
import { registerWarmer } from '../lib/warmup'
import { prefetchDashboard } from '../features/dashboard/prefetch'

const LoginPage = lazyPage(() => import('../features/auth/LoginPage'))
const RegisterPage = lazyPage(() => import('../features/auth/RegisterPage'))
const ForgotPasswordPage = lazyPage(() => import('../features/auth/ForgotPasswordPage'))
const ExternalLoginPage = lazyPage(() => import('../features/auth/ExternalLoginPage'))
const DashboardPage = lazyPage(() => import('../features/dashboard/DashboardPage'))
const SendMethodsPage = lazyPage(() => import('../features/send/SendMethodsPage'))
const QuickSendPage = lazyPage(() => import('../features/send/quick/QuickSendPage'))
const QuickSendOnePage = lazyPage(() => import('../features/send/onepage/QuickSendOnePage'))
const SuccessSendPage = lazyPage(() => import('../features/send/SuccessSendPage'))
const DraftsPage = lazyPage(() => import('../features/send/drafts/DraftsPage'))
const FileSendPage = lazyPage(() => import('../features/send/file/FileSendPage'))
const PeerToPeerSendPage = lazyPage(() => import('../features/send/p2p/PeerToPeerSendPage'))
const KeywordSendPage = lazyPage(() => import('../features/send/keyword/KeywordSendPage'))
const PhonebookSendPage = lazyPage(() => import('../features/send/phonebook/PhonebookSendPage'))
const TargetedSendPage = lazyPage(() => import('../features/send/targeted/TargetedSendPage'))
const CampaignsPage = lazyPage(() => import('../features/campaigns/CampaignsPage'))
const OccasionsPage = lazyPage(() => import('../features/campaigns/OccasionsPage'))
const ReportsPage = lazyPage(() => import('../features/reports/ReportsPage'))
const ReportDetailsPage = lazyPage(() => import('../features/reports/ReportDetailsPage'))
const AuditLogPage = lazyPage(() => import('../features/audit/AuditLogPage'))
const TransactionsPage = lazyPage(() => import('../features/wallet/TransactionsPage'))
const CreditPage = lazyPage(() => import('../features/wallet/CreditPage'))
const PaymentResultPage = lazyPage(() => import('../features/wallet/PaymentResultPage'))
const NotFoundPage = lazyPage(() => import('../features/misc/NotFoundPage'))

// Signing in lands on the dashboard: its code and data start before the redirect.
registerWarmer({
  chunks: () => {
    void AppLayout.preload()
    void DashboardPage.preload()
  },
  data: prefetchDashboard,
})

const guest = (el: React.ReactNode) => <GuestOnly>{el}</GuestOnly>

/** The targeted sends (number bank): send type, route and title. */
const TARGETED_ROUTES = [
  ['business', 'business', 'ارسال بر اساس صنف (مشاغل)'],
  ['map', 'map', 'ارسال روی نقشه'],
  ['postal_code', 'postalcode', 'ارسال بر اساس کد پستی'],
  ['city_province', 'city-province', 'ارسال استانی و شهری'],
  ['tower_irancell', 'tower-irancell', 'ارسال بر اساس دکل ایرانسل'],
] as const


export const routes: RouteObject[] = [
  {
    element: <RootShell />,
    children: [
      { path: 'login', element: guest(<LoginPage />), handle: { title: 'ورود' } },
      { path: 'register', element: guest(<RegisterPage />), handle: { title: 'ثبت‌نام' } },
      { path: 'forgot-password', element: guest(<ForgotPasswordPage />), handle: { title: 'بازیابی رمز عبور' } },
      { path: 'external-login', element: <ExternalLoginPage />, handle: { title: 'ورود' } },
      { path: 'accept-invite', element: guest(<AcceptInvitePage />), handle: { title: 'پذیرش دعوت همکاری' } },
      { path: 'admin/login', element: <AdminLoginPage />, handle: { title: 'ورود پشتیبانی' } },
      {
        path: 'admin',
        element: (
          <RequireStaff>
            <AdminLayout />
          </RequireStaff>
        ),
        children: [...adminRoutes, ...supportAdminRoutes],
      },
      {
        element: (
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        ),
        children: [
          { index: true, element: <Navigate to="/dashboard" replace /> },
          { path: 'dashboard', element: <DashboardPage />, handle: { title: 'پیشخوان', root: true } },
          { path: 'send-sms', element: <SendMethodsPage />, handle: { title: 'ارسال پیامک' } },
          { path: 'send-sms/quick', element: <QuickSendOnePage />, handle: { title: 'ارسال سریع' } },
          { path: 'send-sms/quick/steps', element: <QuickSendPage />, handle: { title: 'ارسال سریع مرحله‌ای' } },
          { path: 'send-sms/file', element: <FileSendPage />, handle: { title: 'ارسال از فایل' } },
          { path: 'send-sms/peer-to-peer', element: <PeerToPeerSendPage />, handle: { title: 'ارسال نظیر به نظیر' } },
          { path: 'send-sms/keyword', element: <KeywordSendPage />, handle: { title: 'ارسال کلیدواژه‌ای' } },
          { path: 'send-sms/phonebook', element: <PhonebookSendPage />, handle: { title: 'ارسال از دفترچه تلفن' } },
          ...TARGETED_ROUTES.map(([kind, path, title]) => ({ path: `send-sms/${path}`, element: <TargetedSendPage kind={kind} />, handle: { title } })),
          { path: 'send-sms/campaigns', element: <CampaignsPage />, handle: { title: 'ارسال‌های زمان‌بندی‌شده و کمپین‌ها' } },
          { path: 'send-sms/occasions', element: <OccasionsPage />, handle: { title: 'پیام مناسبتی' } },
          { path: 'send-sms/success-send/:id', element: <SuccessSendPage />, handle: { title: 'ارسال ثبت شد' } },
          { path: 'send-sms/drafts', element: <DraftsPage />, handle: { title: 'پیش‌نویس‌ها' } },
          { path: 'reports', element: <ReportsPage />, handle: { title: 'گزارش‌ها' } },
          { path: 'reports/:id', element: <ReportDetailsPage />, handle: { title: 'جزئیات گزارش ارسال' } },
          { path: 'reports/archive-details/:id', element: <ReportDetailsPage />, handle: { title: 'جزئیات گزارش بایگانی' } },
          { path: 'audit-log', element: <AuditLogPage />, handle: { title: 'گزارش فعالیت‌ها' } },
          { path: 'wallet/transactions', element: <TransactionsPage />, handle: { title: 'تراکنش‌ها' } },
          { path: 'wallet/credit', element: <CreditPage />, handle: { title: 'افزایش اعتبار' } },
          { path: 'wallet/payment-result', element: <PaymentResultPage />, handle: { title: 'نتیجه پرداخت' } },
          ...contactRoutes,
          ...colleagueRoutes,
          ...developerRoutes,
          ...patternRoutes,
          ...webhookRoutes,
          ...predefinedRoutes,
          ...supportRoutes,
          ...linkRoutes,
          ...fileRoutes,
          ...inboxRoutes,
          ...secretaryRoutes,
          ...profileRoutes,
        ],
      },
      {
        element: <SoftLayout />,
        children: [
          { path: '404', element: <NotFoundPage />, handle: { title: 'صفحه پیدا نشد' } },
          { path: '*', element: <NotFoundPage />, handle: { title: 'صفحه پیدا نشد' } },
        ],
      },
    ],
  },
]

export const router = createBrowserRouter(routes)
