import type { RouteObject } from 'react-router'
import { MobileOnly } from '../../components/RouteGuards'
import { lazyPage } from '../../lib/chunkReload'

const ContactsPage = lazyPage(() => import('./ContactsPage'))
const ContactsSectionPage = lazyPage(() => import('./ContactsSectionPage'))
const GroupDetailsPage = lazyPage(() => import('./GroupDetailsPage'))
const ContactDetailsPage = lazyPage(() => import('./ContactDetailsPage'))

/** Spec §2: the five /contacts tabs also exist as mobile-only pages of their own. */
const SECTION_ROUTES = [
  ['all-contacts', 'all', 'همه مخاطبین'],
  ['all-groups', 'groups', 'گروه‌ها'],
  ['manage-more-features', 'features', 'ویژگی‌های سفارشی'],
  ['blacklist', 'blacklist', 'لیست سیاه'],
  ['cancel_11', 'cancel11', 'لیست لغو۱۱'],
] as const

/** The contacts pages (lazy), mounted by the app router inside the main layout. */
export const contactRoutes: RouteObject[] = [
  { path: 'contacts', element: <ContactsPage />, handle: { title: 'مخاطبین' } },
  ...SECTION_ROUTES.map(([path, section, title]) => ({
    path: `contacts/${path}`,
    handle: { title },
    element: (
      <MobileOnly>
        <ContactsSectionPage section={section} />
      </MobileOnly>
    ),
  })),
  { path: 'contacts/group/:id', element: <GroupDetailsPage />, handle: { title: 'جزئیات گروه' } },
  { path: 'contacts/:id', element: <ContactDetailsPage />, handle: { title: 'جزئیات مخاطب' } },
]
