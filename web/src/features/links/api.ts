import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api'
import { LINKS_KEY, type TrackedLink } from '../../lib/links'

export { MSG_LINK_PENDING, useLinkSettings, useTrackedLinks, type TrackedLink } from '../../lib/links'

/** POST /panel/link_tracker. */
export interface LinkInput {
  title: string
  url: string
  utm_source: string
  utm_medium: string
  utm_campaign: string
}

export interface Counts {
  clicks: number
  unique: number
}

/** GET /panel/link_tracker/{id}/stats. */
export interface LinkStats {
  link: TrackedLink
  per_send: (Counts & { send_id: number; created_at: string; status: string; recipients: number })[]
  per_operator: (Counts & { operator: string })[]
  /** Gregorian days (Tehran) of the last 30 days, oldest first. */
  per_day: (Counts & { day: string })[]
}

export function useLinkStats(id: string | undefined) {
  return useQuery({
    queryKey: [...LINKS_KEY, 'stats', id],
    queryFn: ({ signal }) => api.get<LinkStats>(`/panel/link_tracker/${id}/stats`, undefined, signal),
    enabled: !!id && /^\d+$/.test(id),
    refetchInterval: 10_000,
    retry: false,
  })
}

function useLinksMutation<In, Out>(fn: (input: In) => Promise<Out>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: LINKS_KEY }) })
}

export const useCreateLink = () => useLinksMutation((l: LinkInput) => api.post<TrackedLink>('/panel/link_tracker', l))

export const useDeleteLink = () => useLinksMutation((id: number) => api.post<null>('/panel/link_tracker/delete', { id }))
