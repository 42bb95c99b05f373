import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, type Query } from '../../lib/api'
import { queryKeys } from '../../lib/queryKeys'
import type { PreviewRow } from '../../components/PreviewRows'

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

/**
 * An occasion message (docs/campaigns.md): each run reaches the contacts whose date, by its Jalali
 * month and day, falls `days_before` days after the run's day.
 */
export interface Occasion {
  /** `birth_date` or `feature:<id>` (a date feature). */
  field: string
  days_before: number
  /** The run day, Gregorian YYYY-MM-DD (quotes and counts only; a campaign's runs set their own). */
  on?: string
}

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
  /** Set on an occasion campaign (a daily phonebook campaign). */
  occasion?: Occasion
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
  /** The newest run (in the list): what became of it and how many recipients its send reached. */
  last_run?: LastRun
}

/** sent: a send was made; failed: refused (error says why); empty: an occasion day without contacts, nothing sent or charged. */
export type RunStatus = 'sent' | 'failed' | 'empty'

export interface LastRun {
  at: string
  status: RunStatus
  error?: string
  send_id: number | string | null
  send_status?: string
  recipients: number
}

export interface CampaignRun {
  at: string
  send_id: number | string | null
  status: RunStatus
  error: string
}

/** POST /send/occasions/upcoming: one run day and how many contacts (distinct numbers) have the occasion then. */
export interface OccasionDay {
  on: string
  jalali: string
  /** The occasion's own day (on + days_before), Jalali. */
  occasion: string
  contacts: number
}

export interface OccasionUpcoming {
  days: OccasionDay[]
  /** The first run day within a year that reaches any contact. */
  next: OccasionDay | null
}

/** The part of POST /send/calculate-price the occasion form shows. */
export interface OccasionQuote {
  recipients: number
  price: number
  parts: number
  blacklisted?: number
  preview?: PreviewRow[]
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

/** The campaigns of a kind: `occasion` (پیام مناسبتی) or `recurring` (the others). */
export function useCampaigns(params: Query & { kind: 'occasion' | 'recurring' }) {
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

/**
 * A write on scheduled sends or campaigns; the lists (and the credit, for refunds) reload after it.
 * `silent`: its dialog shows the error, so no toast repeats it.
 */
function useWrite<V, R>(fn: (v: V) => Promise<R>, silent = false) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    meta: silent ? { silent: true } : undefined,
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

/** «ارسال امروز»: today's run of an occasion campaign, sent now (409 once the day is sent). */
export const useRunToday = () =>
  useWrite((id: Campaign['id']) => api.post<{ id: number | string; status: string; price: number }>('/send/campaigns/run-today', { id }), true)

/** The contacts an occasion reaches on the next seven days, and its next day with any. */
export function useOccasionUpcoming(phonebookIds: number[], occasion: Occasion | null) {
  return useQuery({
    queryKey: ['send', 'occasions', 'upcoming', phonebookIds, occasion],
    queryFn: () => api.post<OccasionUpcoming>('/send/occasions/upcoming', { phonebook_ids: phonebookIds, occasion }),
    enabled: phonebookIds.length > 0 && !!occasion?.field,
    placeholderData: keepPreviousData,
  })
}

/** The price and first personalised rows of an occasion's day (POST /send/calculate-price). */
export function useOccasionQuote(body: (CampaignSource & { type: 'phonebook'; sender: string; text: string; cancel11: boolean; occasion: Occasion }) | null) {
  return useQuery({
    queryKey: ['send', 'occasions', 'quote', body],
    queryFn: () => api.post<OccasionQuote>('/send/calculate-price', body),
    enabled: body !== null,
    placeholderData: keepPreviousData,
    retry: false,
  })
}
