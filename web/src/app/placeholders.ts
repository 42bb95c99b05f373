/**
 * Spec §2 routes whose pages are not built yet: they render «این بخش به‌زودی فعال می‌شود»
 * inside the layout instead of a 404. `mobileOnly` pages still go to /404 on desktop.
 */
export interface PlaceholderRoute {
  path: string
  title: string
  mobileOnly?: boolean
}

const SEND_METHODS: Array<[string, string]> = [
]

export const PLACEHOLDER_ROUTES: PlaceholderRoute[] = [
  ...SEND_METHODS.map(([p, title]) => ({ path: `send-sms/${p}`, title })),
]
