import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api'

/** The dashboard's staff-edited content (GET /content/dashboard). */

export type BannerPlacement = 'strip' | 'carousel'
export type BannerAction = 'popup' | 'same_window' | 'new_tab'

export interface BoardItem {
  id: number
  kind: 'banner' | 'news' | 'quick_access'
  title: string
  body: string
  link: string
  position: number
  starts_at: string | null
  ends_at: string | null
  placement: BannerPlacement
  action: BannerAction
  /** A banner's pictures (panel paths); the mobile one falls back to image, none keeps the text face. */
  image: string
  image_mobile: string
}

export interface Board {
  banners: BoardItem[]
  news: BoardItem[]
  quick_access: BoardItem[]
}

export const boardKey = ['dashboard', 'content'] as const

/** The banners, news and quick-access links (mounted only once the credit is on screen: DashboardPage). */
export const useBoard = () =>
  useQuery({ queryKey: boardKey, queryFn: () => api.get<Board>('/content/dashboard'), staleTime: 30_000 })

/** A live news item with whether this user has read it. */
export interface NewsItem extends BoardItem {
  read: boolean
}

/** The user's news and unread count (GET /user/news/user_news_list). */
export interface NewsList {
  items: NewsItem[]
  unread: number
}

export const newsKey = ['dashboard', 'news'] as const

/** The staff news with this user's read state. */
export const useNews = () =>
  useQuery({ queryKey: newsKey, queryFn: () => api.get<NewsList>('/user/news/user_news_list'), staleTime: 30_000 })

/**
 * Marks one item read (id) or all of them (no id); the list is updated at once and
 * read again afterwards.
 */
export function useMarkNewsRead() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id?: number) => (id ? api.post(`/user/news/${id}/read`) : api.post('/user/news/read_all')),
    onMutate: (id?: number) => {
      qc.setQueryData<NewsList>(newsKey, (l) => {
        if (!l) return l
        const items = l.items.map((n) => (!id || n.id === id ? { ...n, read: true } : n))
        return { items, unread: items.filter((n) => !n.read).length }
      })
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: newsKey }),
  })
}

/** One Tehran day of the account's activity (GET /panel/dashboard_charts). */
export interface ChartDay {
  date: string
  sends: number
  recipients: number
  parts: number
  delivered: number
  undelivered: number
  spend: number
  inbound: number
}

/** One operator's delivery over the 30 days; rate is a percentage. */
export interface ChartOperator {
  code: string
  name: string
  recipients: number
  sent: number
  delivered: number
  undelivered: number
  rate: number
}

export interface DashboardCharts {
  from: string
  to: string
  days: ChartDay[]
  operators: ChartOperator[]
  totals: ChartDay
}

/** The last 30 days from the daily rollups (refreshed by the worker every 30 s). */
export const useDashboardCharts = () =>
  useQuery({
    queryKey: ['dashboard', 'charts'],
    queryFn: () => api.get<DashboardCharts>('/panel/dashboard_charts'),
    staleTime: 30_000,
  })

/** One of the first week's steps (GET /panel/first-steps). */
export type FirstStepKey = 'credit' | 'line' | 'test' | 'phonebook'

/** The «اولین قدم‌ها» checklist: each step ticked from the account's real state. */
export interface FirstSteps {
  steps: Array<{ key: FirstStepKey; done: boolean }>
  done: number
  complete: boolean
  /** The owner's mobile (09…), where the test send goes. */
  mobile: string
}

export const firstStepsKey = ['dashboard', 'first-steps'] as const

/** The account's first steps; read again when the dashboard is shown. */
export const useFirstSteps = () =>
  useQuery({ queryKey: firstStepsKey, queryFn: () => api.get<FirstSteps>('/panel/first-steps'), staleTime: 10_000 })
