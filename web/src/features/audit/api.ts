import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, downloadFile, type DownloadProgress, type Query } from '../../lib/api'

/** One entry of the audit log (GET /user/audit). */
export interface AuditRow {
  id: number
  created_at: string
  user_id: number | null
  user_name: string
  api_key_id: number | null
  action: string
  action_title: string
  target_type: string
  target: string
  details: Record<string, unknown> | null
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  ip: string
  user_agent: string
}

export interface AuditOption {
  value: string | number
  label: string
}

/** The filter choices (GET /user/audit/options). */
export interface AuditOptions {
  actions: AuditOption[]
  users: AuditOption[]
}

export const auditKeys = {
  list: (params: Query) => ['audit', 'list', params] as const,
  options: ['audit', 'options'] as const,
}

export function useAuditLog(params: Query) {
  return useQuery({
    queryKey: auditKeys.list(params),
    queryFn: ({ signal }) => api.page<AuditRow>('/user/audit', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function useAuditOptions() {
  return useQuery({
    queryKey: auditKeys.options,
    queryFn: ({ signal }) => api.get<AuditOptions>('/user/audit/options', undefined, signal),
    staleTime: 5 * 60_000,
  })
}

/** Streams the filtered log as Excel (GET /user/audit/export). */
export function exportAuditLog(filters: Query, onProgress: DownloadProgress): Promise<void> {
  return downloadFile('/user/audit/export', filters, 'audit-log.xlsx', onProgress)
}
