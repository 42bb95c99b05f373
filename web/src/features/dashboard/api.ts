import { useQuery } from '@tanstack/react-query'
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
