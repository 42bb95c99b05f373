import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, type Query } from './api'

/** A tracked link of the account (GET /panel/link_tracker). */
export interface TrackedLink {
  id: number
  title: string
  url: string
  utm_source: string
  utm_medium: string
  utm_campaign: string
  /** What the editor inserts: {link:ID}; each recipient receives their own short link. */
  placeholder: string
  clicks: number
  unique: number
  created_at: string
  /** The review of the target: only an approved link redirects and goes into a text. */
  status: LinkStatus
  /** The reviewer's reason when rejected. */
  review_note: string
}

/** A tracked link's review: a target the moderation rules would hold waits for staff. */
export type LinkStatus = 'pending' | 'approved' | 'rejected'

/** Persian labels and colours of a link's review status. */
export const LINK_STATUS: Record<LinkStatus, { label: string; color: string }> = {
  pending: { label: 'در انتظار بررسی', color: 'orange' },
  approved: { label: 'تأییدشده', color: 'green' },
  rejected: { label: 'ردشده', color: 'red' },
}

/** What the panel says when a new link waits for review. */
export const MSG_LINK_PENDING = 'لینک ساخته شد؛ نشانی مقصد آن پیش از استفاده بررسی می‌شود و پس از تأیید پشتیبانی می‌توانید آن را در متن درج کنید'

/** GET /panel/link_tracker/settings: the plan gate and the fixed length of a short link. */
export interface LinkSettings {
  enabled: boolean
  base: string
  link_length: number
  message?: string
}

/** The query-key root of link tracking; the links feature's mutations invalidate it. */
export const LINKS_KEY = ['links'] as const

/** A page of the account's tracked links, newest first. */
export function useTrackedLinks(params: Query, enabled = true) {
  return useQuery({
    queryKey: [...LINKS_KEY, 'list', params],
    queryFn: ({ signal }) => api.page<TrackedLink>('/panel/link_tracker', params, signal),
    placeholderData: keepPreviousData,
    enabled,
  })
}

export function useLinkSettings(enabled = true) {
  return useQuery({
    queryKey: [...LINKS_KEY, 'settings'],
    queryFn: ({ signal }) => api.get<LinkSettings>('/panel/link_tracker/settings', undefined, signal),
    staleTime: 5 * 60_000,
    enabled,
  })
}

const PLACEHOLDER = /\{link:\d{1,18}\}/g

/** The text as counted: each {link:ID} at the length of the short link a recipient receives. */
export function sizeLinks(text: string, linkLength: number): string {
  if (!text.includes('{link:') || linkLength <= 0) return text
  return text.replace(PLACEHOLDER, 'x'.repeat(linkLength))
}
