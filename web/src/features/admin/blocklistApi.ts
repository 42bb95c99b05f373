import { useQuery } from '@tanstack/react-query'
import { api } from '../../lib/api'

/** The operators' advertising block lists (*800#) in the back office (docs/sending-rules.md). */

export interface BlocklistCount {
  operator: string
  count: number
}

export interface BlocklistSummary {
  operators: BlocklistCount[]
  total: number
}

export interface BlocklistEntry {
  mobile: string
  operator: string
  /** import: a staff import; receipt: a carrier answered the number blocked. */
  source: 'import' | 'receipt'
  created_at: string
}

export interface BlocklistImportResult {
  rows: number
  valid: number
  invalid: number
  added: number
  existing: number
}

export const BLOCKLIST_SOURCES: Record<string, string> = { import: 'بارگذاری پشتیبانی', receipt: 'گزارش اپراتور' }

export const blocklistApi = {
  summary: () => api.get<BlocklistSummary>('/admin/operator-blocklist'),
  search: (mobile: string) => api.get<BlocklistEntry[]>('/admin/operator-blocklist/search', { mobile }),
  /** operator '' lists each number under the operator of its prefix. */
  importFile: (file: File, operator: string) => {
    const form = new FormData()
    form.append('operator', operator)
    form.append('file', file)
    return api.post<BlocklistImportResult>('/admin/operator-blocklist/import', form)
  },
  remove: (e: Pick<BlocklistEntry, 'mobile' | 'operator'>) => api.post<unknown>('/admin/operator-blocklist/delete', e),
}

export const useBlocklistSummary = () => useQuery({ queryKey: ['admin', 'operator-blocklist'], queryFn: blocklistApi.summary })
export const useBlocklistSearch = (mobile: string) =>
  useQuery({ queryKey: ['admin', 'operator-blocklist', 'search', mobile], queryFn: () => blocklistApi.search(mobile), enabled: mobile !== '' })
