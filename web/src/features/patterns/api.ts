import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, type Query } from '../../lib/api'

/** A pattern's variable (spec §3): Latin name, string or integer, length (default 20). */
export interface Variable {
  name: string
  type: 'string' | 'integer'
  length: number
}

export type PatternKind = 'otp' | 'transactional' | 'normal'
export type VersionStatus = 'pending' | 'approved' | 'rejected'

export interface Draft {
  title: string
  description: string
  text: string
  variables: Variable[]
}

export interface Version extends Draft {
  id: number
  version: number
  status: VersionStatus
  reason: string
  active: boolean
  decided_by?: string
  decided_at?: string
  created_at: string
  /** The version's kind: reviewed with its text (it decides the lane). */
  kind: PatternKind
}

/** A pattern with its latest version's content and, once approved, the version that sends. */
export interface Pattern extends Draft {
  id: number
  code: string
  kind: PatternKind
  sms_type: string
  shared: boolean
  systemic: boolean
  status: VersionStatus
  reason: string
  version: number
  sendable: boolean
  approved?: Version
  created_at: string
  updated_at: string
  versions?: Version[]
}

export interface PatternInput extends Draft {
  kind: PatternKind
  shared: boolean
}

export interface Recipient {
  mobile: string
  values: Record<string, string>
}

export interface SendInput {
  code: string
  recipient?: string
  values?: Record<string, string>
  recipients?: Recipient[]
  sender?: string
  local_id?: string
}

export interface Sent {
  id: number
  status: string
  price: number
  local_id: string
  type: string
  held: boolean
}

const KEY = ['patterns'] as const

export function usePatterns(params: Query, systemic = false) {
  return useQuery({
    queryKey: [...KEY, systemic ? 'systemic' : 'list', params],
    queryFn: ({ signal }) => api.page<Pattern>(systemic ? '/patterns/systemic' : '/patterns', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function usePattern(id: number, systemic = false) {
  return useQuery({
    queryKey: [...KEY, 'one', systemic, id],
    queryFn: ({ signal }) => api.get<Pattern>(systemic ? `/patterns/systemic/${id}` : `/patterns/${id}`, undefined, signal),
    enabled: id > 0,
  })
}

export function useSavePattern(id?: number) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (input: PatternInput) => (id ? api.put<Pattern>(`/patterns/${id}`, input) : api.post<Pattern>('/patterns', input)),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  })
}

/** Sends a pattern; the key makes a retried click the same send. */
export function useSendPattern() {
  return useMutation({
    mutationFn: ({ input, key }: { input: SendInput; key: string }) =>
      api.post<Sent>('/patterns/send', input, { 'Idempotency-Key': key }),
  })
}
