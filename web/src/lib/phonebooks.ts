import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SelectOption } from '../components/selectUtils'
import { api } from './api'

export interface PhonebookCount {
  /** Numbers in the chosen phonebooks. */
  count: number
  /** Distinct numbers across them. */
  unique: number
  /** Of the distinct numbers, those on the send blacklist or the cancel-11 list. */
  blacklisted: number
}

/** GET /phonebooks/options/list-new: phonebooks as select options (value = id). */
export function usePhonebookOptions(search: string) {
  return useQuery({
    queryKey: ['phonebooks', 'options', search],
    queryFn: ({ signal }) => api.get<SelectOption<number>[]>('/phonebooks/options/list-new', { search }, signal),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  })
}

/** GET /phonebooks/numbers/count for the chosen phonebooks. */
export function usePhonebookCount(ids: Array<number | string>) {
  return useQuery({
    queryKey: ['phonebooks', 'count', ids],
    queryFn: ({ signal }) => api.get<PhonebookCount>('/phonebooks/numbers/count', { phonebook_ids: ids.join(',') }, signal),
    enabled: ids.length > 0,
    placeholderData: keepPreviousData,
  })
}

/** Numbers that will receive the send: distinct and not blacklisted. */
export function phonebookRecipients(c: PhonebookCount | undefined): number {
  return c ? Math.max(0, c.unique - c.blacklisted) : 0
}

/** POST /phonebooks from inside a picker: the new phonebook; the options are read again. */
export function useCreatePhonebookOption() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (name: string) => api.post<{ id: number; name: string }>('/phonebooks', { name }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['phonebooks'] }),
  })
}
