import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../lib/api'
import { PREDEFINED_KEY, type PredefinedGroup, type PredefinedMessage } from '../../lib/predefined'

export { usePredefinedGroups, usePredefinedMessages, type PredefinedGroup, type PredefinedMessage } from '../../lib/predefined'

/** GET /user/predefined/group/count. */
export interface PredefinedCounts {
  groups: number
  messages: number
  drafts: number
}

export interface GroupInput {
  id?: number
  title: string
}

export interface MessageInput {
  id?: number
  group_id: number
  title: string
  text: string
}

export function usePredefinedCounts() {
  return useQuery({
    queryKey: [...PREDEFINED_KEY, 'count'],
    queryFn: ({ signal }) => api.get<PredefinedCounts>('/user/predefined/group/count', undefined, signal),
  })
}

export function usePredefinedGroup(id: string | undefined) {
  return useQuery({
    queryKey: [...PREDEFINED_KEY, 'group', id],
    queryFn: ({ signal }) => api.get<PredefinedGroup>(`/user/predefined/group/show/${id}`, undefined, signal),
    enabled: !!id && /^\d+$/.test(id),
    retry: false,
  })
}

/** A predefined-message mutation that refreshes every predefined list on success. */
function usePredefinedMutation<In, Out>(fn: (input: In) => Promise<Out>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: PREDEFINED_KEY }) })
}

export const useSaveGroup = () =>
  usePredefinedMutation((g: GroupInput) => api.post<PredefinedGroup>(g.id ? '/user/predefined/group/update' : '/user/predefined/group', g))

export const useDeleteGroup = () => usePredefinedMutation((id: number) => api.post<null>('/user/predefined/group/delete', { id }))

export const useSaveMessage = () =>
  usePredefinedMutation((m: MessageInput) => api.post<PredefinedMessage>(m.id ? '/user/predefined/update' : '/user/predefined', m))

export const useDeleteMessage = () => usePredefinedMutation((id: number) => api.post<null>('/user/predefined/delete', { id }))
