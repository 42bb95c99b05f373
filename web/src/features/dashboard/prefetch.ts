import type { QueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api'
import { fetchMe } from '../../lib/me'
import { queryKeys } from '../../lib/queryKeys'
import type { ReportRow } from '../../lib/reports'

/** The recent-sends query of the dashboard (GET /report/new_list?page=1&limit=5). */
export const RECENT = { page: 1, limit: 5 }

/** Starts every query the dashboard shows, with the keys its components read. */
export function prefetchDashboard(qc: QueryClient) {
  void qc.prefetchQuery({ queryKey: queryKeys.me, queryFn: fetchMe })
  void qc.prefetchQuery({ queryKey: queryKeys.credit, queryFn: () => api.get('/payment/credit/mine') })
  void qc.prefetchQuery({
    queryKey: queryKeys.reportList(RECENT),
    queryFn: ({ signal }) => api.page<ReportRow>('/report/new_list', RECENT, signal),
  })
}
