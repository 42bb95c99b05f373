import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, type Query } from '../../lib/api'
import { queryKeys } from '../../lib/queryKeys'

/** GET /send/scheduled: a send waiting for its send_at. */
export interface ScheduledSend {
  id: number | string
  type: string
  sender: string
  text: string
  recipients: number
  price: number
  send_at: string
  campaign_id: number | string | null
}

export type ScheduleKind = 'daily' | 'weekly' | 'monthly' | 'cron'

export interface CampaignSchedule {
  kind: ScheduleKind
  /** «HH:mm», Asia/Tehran (not for cron). */
  time?: string
  /** 0 = شنبه … 6 = جمعه. */
  weekdays?: number[]
  /** Jalali days of the month, 1-31. */
  month_days?: number[]
  /** «m h dom mon dow». */
  cron?: string
}

/** Who receives each run: typed numbers, phonebooks or an uploaded file (the send body's own fields). */
export interface CampaignSource {
  numbers?: string[]
  phonebook_ids?: Array<number | string>
  file_id?: number | string
}

export type CampaignType = 'quick' | 'phonebook' | 'file' | 'keyword'

interface CampaignBase {
  title: string
  type: CampaignType
  sender: string
  text: string
  cancel11: boolean
  schedule: CampaignSchedule
  enabled: boolean
  /** The pace of each run (docs/sending-rules.md); absent: all at once. */
  gradual?: { per_hour?: number; per_minute?: number; until?: string }
}

/** POST /send/campaigns (and /update with `id`): the send request's fields flat, plus title and schedule. */
export type CampaignInput = CampaignBase & CampaignSource

/** A stored campaign: the recipients come back under `source`. */
export interface Campaign extends CampaignBase {
  id: number | string
  source: CampaignSource
  next_run_at: string | null
  last_run_at: string | null
  runs: number
  failed_runs: number
  created_at: string
}

export interface CampaignRun {
  at: string
  send_id: number | string | null
  status: 'sent' | 'failed'
  error: string
}

const KEYS = {
  scheduled: ['send', 'scheduled'] as const,
  campaigns: ['send', 'campaigns'] as const,
  runs: (id: Campaign['id']) => ['send', 'campaigns', String(id), 'runs'] as const,
}

export function useScheduledSends(params: Query) {
  return useQuery({
    queryKey: [...KEYS.scheduled, params],
    queryFn: ({ signal }) => api.page<ScheduledSend>('/send/scheduled', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function useCampaigns(params: Query) {
  return useQuery({
    queryKey: [...KEYS.campaigns, 'list', params],
    queryFn: ({ signal }) => api.page<Campaign>('/send/campaigns', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function useCampaignRuns(id: Campaign['id'] | null) {
  return useQuery({
    queryKey: KEYS.runs(id ?? ''),
    queryFn: ({ signal }) => api.get<CampaignRun[]>(`/send/campaigns/${id}/runs`, undefined, signal),
    enabled: id !== null,
  })
}

/** A write on scheduled sends or campaigns; the lists (and the credit, for refunds) reload after it. */
function useWrite<V, R>(fn: (v: V) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: KEYS.scheduled })
      void qc.invalidateQueries({ queryKey: KEYS.campaigns })
      void qc.invalidateQueries({ queryKey: queryKeys.credit })
      void qc.invalidateQueries({ queryKey: queryKeys.reports })
    },
  })
}

export const useUpdateScheduled = () =>
  useWrite((v: { id: ScheduledSend['id']; send_at: string; text?: string }) => api.post<unknown>('/send/scheduled/update', v))
export const useCancelScheduled = () => useWrite((id: ScheduledSend['id']) => api.post<unknown>('/send/cancel', { id }))
export const useSaveCampaign = () =>
  useWrite((v: { id?: Campaign['id']; input: CampaignInput }) =>
    v.id === undefined ? api.post<Campaign>('/send/campaigns', v.input) : api.post<Campaign>('/send/campaigns/update', { id: v.id, ...v.input }),
  )
export const useDeleteCampaign = () => useWrite((id: Campaign['id']) => api.post<unknown>('/send/campaigns/delete', { id }))
export const useToggleCampaign = () =>
  useWrite((v: { id: Campaign['id']; enabled: boolean }) => api.post<unknown>('/send/campaigns/toggle', v))
