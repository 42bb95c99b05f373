import type { RouteObject } from 'react-router'
import { lazyPage } from '../../lib/chunkReload'

const ProfilePage = lazyPage(() => import('./ProfilePage'))
const AccountInfoPage = lazyPage(() => import('./AccountInfoPage'))
const SectionPage = lazyPage(() => import('./SectionPage'))
const SecurityPage = lazyPage(() => import('./SecurityPage'))
const TariffsPage = lazyPage(() => import('./TariffsPage'))
const SettingsPage = lazyPage(() => import('./SettingsPage'))
const DocumentsPage = lazyPage(() => import('./DocumentsPage'))
const ChangePhonePage = lazyPage(() => import('./ChangePhonePage'))
const PlansPage = lazyPage(() => import('./PlansPage'))

/** The profile, settings, facilities and plans pages (spec §2), inside the main layout. */
export const profileRoutes: RouteObject[] = [
  { path: 'profile', element: <ProfilePage />, handle: { title: 'پروفایل' } },
  { path: 'profile/account-info', element: <AccountInfoPage />, handle: { title: 'اطلاعات حساب' } },
  { path: 'profile/personal-info', element: <SectionPage />, handle: { title: 'اطلاعات شخصی' } },
  { path: 'profile/contact-info', element: <SectionPage />, handle: { title: 'اطلاعات تماس' } },
  { path: 'profile/address-info', element: <SectionPage />, handle: { title: 'اطلاعات نشانی' } },
  { path: 'profile/security-setting', element: <SecurityPage />, handle: { title: 'تنظیمات امنیتی' } },
  { path: 'profile/tariffs', element: <TariffsPage />, handle: { title: 'تعرفه‌ها' } },
  { path: 'profile/settings', element: <SettingsPage />, handle: { title: 'تنظیمات حساب' } },
  { path: 'profile/documents', element: <DocumentsPage />, handle: { title: 'مدارک' } },
  { path: 'profile/change-phone-number', element: <ChangePhonePage />, handle: { title: 'تغییر شماره موبایل' } },
  { path: 'settings', element: <SettingsPage />, handle: { title: 'تنظیمات' } },
  { path: 'facilities', element: <PlansPage />, handle: { title: 'امکانات' } },
  { path: 'plans', element: <PlansPage />, handle: { title: 'طرح‌ها' } },
]
