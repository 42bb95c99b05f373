import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, type Query } from './api'

/** A group of predefined messages with the count of its messages (GET /user/predefined/group/list). */
export interface PredefinedGroup {
  id: number
  title: string
  messages: number
  created_at: string
}

/** A predefined message: a titled text in one group (GET /user/predefined/list). */
export interface PredefinedMessage {
  id: number
  group_id: number
  group_title: string
  title: string
  text: string
  updated_at: string
}

/** The query-key root of everything predefined; the feature's mutations invalidate it. */
export const PREDEFINED_KEY = ['predefined'] as const

/** A page of the account's groups (search by title). */
export function usePredefinedGroups(params: Query, enabled = true) {
  return useQuery({
    queryKey: [...PREDEFINED_KEY, 'groups', params],
    queryFn: ({ signal }) => api.page<PredefinedGroup>('/user/predefined/group/list', params, signal),
    placeholderData: keepPreviousData,
    enabled,
  })
}

/** A page of the account's messages (group_id narrows, search looks in title and text). */
export function usePredefinedMessages(params: Query, enabled = true) {
  return useQuery({
    queryKey: [...PREDEFINED_KEY, 'messages', params],
    queryFn: ({ signal }) => api.page<PredefinedMessage>('/user/predefined/list', params, signal),
    placeholderData: keepPreviousData,
    enabled,
  })
}
