import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, downloadFile, type DownloadProgress, type Query } from '../../lib/api'

/** A send's analysis (GET /report/analytics?id=). */
export interface CurvePoint {
  at: string
  delivered: number
  undelivered: number
}

export interface OperatorOutcome {
  operator: string
  name: string
  recipients: number
  sent: number
  delivered: number
  undelivered: number
  rejected: number
  rate: number
}

export interface Reason {
  status: number
  reason: string
  count: number
}

export interface SendAnalytics {
  send_id: number
  curve: CurvePoint[]
  operators: OperatorOutcome[]
  reasons: Reason[]
}

export function useSendAnalytics(id: string, refetchMs: number | false) {
  return useQuery({
    queryKey: ['reports', 'analytics', id],
    queryFn: ({ signal }) => api.get<SendAnalytics>('/report/analytics', { id }, signal),
    refetchInterval: refetchMs,
  })
}

/** One message the platform sent to a user of the account (GET /report/systemic_list). */
export interface SystemicRow {
  id: number
  purpose: string
  purpose_title: string
  username: string
  mobile: string
  sender: string
  text: string
  status: number
  created_at: string
}

export function useSystemicList(params: Query) {
  return useQuery({
    queryKey: ['reports', 'systemic', params],
    queryFn: ({ signal }) => api.page<SystemicRow>('/report/systemic_list', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function downloadSystemic(params: Query, onProgress?: DownloadProgress) {
  return downloadFile('/report/systemic_list/export', params, 'systemic.xlsx', onProgress)
}

/** The sends older than 30 days (GET /report/archive_list). */
export function useArchiveList<T>(params: Query, enabled = true) {
  return useQuery({
    enabled,
    queryKey: ['reports', 'archive', params],
    queryFn: ({ signal }) => api.page<T>('/report/archive_list', params, signal),
    placeholderData: keepPreviousData,
  })
}
