/**
 * Spec §2 routes whose pages are not built yet: they render ComingSoonPage inside the
 * layout instead of a 404. `mobileOnly` pages still go to /404 on desktop.
 * Every spec route has its page now; the list stays for routes the spec adds later.
 */
export interface PlaceholderRoute {
  path: string
  title: string
  mobileOnly?: boolean
}

export const PLACEHOLDER_ROUTES: PlaceholderRoute[] = []
