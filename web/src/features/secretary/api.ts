import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, downloadFile, type DownloadProgress, type Query } from '../../lib/api'

export type ReaderKind = 'secretary' | 'contest' | 'poll' | 'feedback' | 'gift' | 'visit'

export interface PollOption {
  title: string
  keywords: string[]
}

/** The form of a secretary or keyword reader (pkg/reader Input). */
export interface ReaderInput {
  id?: number
  kind: ReaderKind
  title: string
  line: string
  keywords: string[]
  reply: string
  reply_wrong: string
  reply_repeat: string
  answer: string
  options: PollOption[] | null
  changeable: boolean
  phonebook_id: number
  expires_at: string | null
}

export interface Reader extends ReaderInput {
  id: number
  status: 'pending' | 'active' | 'disabled' | 'rejected'
  reason: string
  created_at: string
  entries: number
  participants: number
  codes_free: number
  codes_given: number
  expired: boolean
}

export interface ReaderStats {
  outcomes: Record<string, number>
  votes: { option: number; title: string; votes: number }[]
}

export interface ReaderEntry {
  id: number
  sender: string
  text: string
  outcome: string
  reply: string
  send_id: number | null
  created_at: string
}

export interface Draw {
  id: number
  seed: number
  wanted: number
  entrants: number
  winners: string[]
  created_at: string
}

const BASE = '/phonebooks/advanced-services'
export const READERS_KEY = ['readers'] as const

export function useReaders(query: Query) {
  return useQuery({
    queryKey: [...READERS_KEY, 'list', query],
    queryFn: ({ signal }) => api.page<Reader>(`${BASE}/advanced-reader`, query, signal),
    placeholderData: (prev) => prev,
  })
}

export function useReader(id: string | undefined) {
  return useQuery({
    queryKey: [...READERS_KEY, 'one', id],
    queryFn: ({ signal }) => api.get<Reader>(`${BASE}/advanced-reader/${id}`, undefined, signal),
    enabled: !!id && /^\d+$/.test(id),
    retry: false,
  })
}

export function useReaderStats(id: number | undefined) {
  return useQuery({
    queryKey: [...READERS_KEY, 'stats', id],
    queryFn: ({ signal }) => api.get<ReaderStats>(`${BASE}/advanced-reader/${id}/results`, undefined, signal),
    enabled: !!id,
  })
}

export function useEntries(query: Query) {
  return useQuery({
    queryKey: [...READERS_KEY, 'entries', query],
    queryFn: ({ signal }) => api.page<ReaderEntry>(`${BASE}/module-inboxes-list`, query, signal),
    placeholderData: (prev) => prev,
  })
}

export function useDraws(id: number | undefined) {
  return useQuery({
    queryKey: [...READERS_KEY, 'draws', id],
    queryFn: ({ signal }) => api.get<Draw[]>(`${BASE}/advanced-reader/${id}/draws`, undefined, signal),
    enabled: !!id,
  })
}

export function useReceiverLines() {
  return useQuery({
    queryKey: [...READERS_KEY, 'lines'],
    queryFn: ({ signal }) => api.get<{ number: string }[]>('/numbers/receiver-list', undefined, signal),
    staleTime: 5 * 60_000,
  })
}

function useReaderMutation<In, Out>(fn: (input: In) => Promise<Out>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: READERS_KEY }) })
}

export const useSaveReader = () =>
  useReaderMutation((r: ReaderInput) => api.post<Reader>(r.id ? `${BASE}/advanced-reader/update` : `${BASE}/advanced-reader`, r))
export const useToggleReader = () =>
  useReaderMutation((r: { id: number; active: boolean }) => api.post<Reader>(`${BASE}/advanced-reader/${r.id}/toggle`, { active: r.active }))
export const useDeleteReaders = () =>
  useReaderMutation((ids: number[]) => api.post<{ deleted: number }>(`${BASE}/advanced-reader/delete-list`, { ids }))
export const useAddCodes = () =>
  useReaderMutation((r: { id: number; codes: string }) => api.post<{ added: number }>(`${BASE}/advanced-reader/${r.id}/codes`, { codes: r.codes }))
export const useDraw = () =>
  useReaderMutation((r: { id: number; winners: number; seed?: number }) => api.post<Draw>(`${BASE}/advanced-reader/${r.id}/draw`, r))

export const exportEntries = (readerId: number, onProgress: DownloadProgress) =>
  downloadFile(`${BASE}/module-inboxes-list/export`, { reader_id: readerId }, 'secretary-inbox.xlsx', onProgress)
export const exportCodes = (readerId: number, onProgress: DownloadProgress) =>
  downloadFile(`${BASE}/advanced-reader/${readerId}/export-codes`, {}, 'gift-codes.xlsx', onProgress)
