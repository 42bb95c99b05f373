import { useQuery } from '@tanstack/react-query'
import { api } from '../../lib/api'

/** The back office's sending hours and line kinds (docs/sending-rules.md). */

export interface SendHoursRule {
  /** An operator code, or '' for every operator without its own row. */
  operator: string
  line_kind: string
  from: string
  to: string
  updated_at?: string
}

export interface AdminLine {
  id: number
  number: string
  kind: string
  is_default: boolean
}

export const OPERATOR_NAMES: Record<string, string> = { '': 'همه اپراتورها', mci: 'همراه اول', irancell: 'ایرانسل', rightel: 'رایتل', other: 'سایر' }

/** The kinds staff may give a line; the rules of a send read its line's kind. */
export const LINE_KINDS: Record<string, string> = { advertising: 'تبلیغاتی', service: 'خدماتی' }

export const sendHoursApi = {
  rules: () => api.get<{ rules: SendHoursRule[]; operator_codes: string[] }>('/admin/send-hours'),
  save: (r: SendHoursRule) => api.post<SendHoursRule>('/admin/send-hours', r),
  remove: (r: Pick<SendHoursRule, 'operator' | 'line_kind'>) => api.post<unknown>('/admin/send-hours/delete', r),
  lines: (accountID: number) => api.get<AdminLine[]>(`/admin/accounts/${accountID}/lines`),
  setKind: (accountID: number, body: { line_id: number; kind: string }) =>
    api.post<AdminLine>(`/admin/accounts/${accountID}/lines/kind`, body),
}

export const useSendHours = () => useQuery({ queryKey: ['admin', 'send-hours'], queryFn: sendHoursApi.rules })
export const useAccountLines = (id: number) => useQuery({ queryKey: ['admin', 'lines', id], queryFn: () => sendHoursApi.lines(id) })
