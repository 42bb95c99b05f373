import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { SelectOption } from '../../components/selectUtils'
import { api, downloadFile, type Query } from '../../lib/api'
import { useLiveEvent } from '../../lib/useLive'
import type { Contact, ContactInput, Feature, ImportJob, ListKind, ListSource } from './model'

export interface Phonebook {
  id: number
  name: string
  code: string
  members: number
  created_at: string
}

export interface Tag {
  id: number
  name: string
  contacts: number
}

export interface ListEntry {
  number: string
  kind: ListKind
  source: ListSource
  created_at: string
}

export interface AddContactsResult {
  added: number
  skipped: number
  invalid: Array<{ index: number; errors: Record<string, string[]> }>
}

/** Every query of the contacts pages lives under this key; writes invalidate it whole. */
export const CONTACTS_KEY = ['contacts'] as const
const key = (...parts: unknown[]) => [...CONTACTS_KEY, ...parts]

type Option = { label: string; value: number | string }
const asOptions = (rows: Option[] | null | undefined): SelectOption[] =>
  (rows ?? []).map((o) => ({ label: o.label, value: String(o.value) }))

// ---------------------------------------------------------------- reads

export function usePhonebooks(params: Query) {
  return useQuery({
    queryKey: key('phonebooks', params),
    queryFn: ({ signal }) => api.page<Phonebook>('/phonebooks/list-new', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function usePhonebook(id: string) {
  return useQuery({
    queryKey: key('phonebook', id),
    queryFn: ({ signal }) => api.get<Phonebook>(`/phonebooks/${encodeURIComponent(id)}`, undefined, signal),
  })
}

/** Phonebooks as select options (value = id as a string). */
export function usePhonebookOptions(search = '') {
  return useQuery({
    queryKey: key('phonebook-options', search),
    queryFn: async ({ signal }) => asOptions(await api.get<Option[]>('/phonebooks/options/list-new', { search }, signal)),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  })
}

/** How often the contact list is read again while its name search catches up with an import. */
export const INDEXING_POLL_MS = 5_000

/**
 * The contact list. While meta.indexing is set (an import's names are not all searchable yet)
 * it is read again every few seconds, and at once on the worker's contacts.indexed event.
 */
export function useContacts(params: Query) {
  const qc = useQueryClient()
  useLiveEvent((m) => {
    if (m.event === 'contacts.indexed') void qc.invalidateQueries({ queryKey: key('contact-list') })
  })
  return useQuery({
    queryKey: key('contact-list', params),
    queryFn: ({ signal }) => api.page<Contact>('/phonebooks/numbers/contact-list', params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.meta.indexing ? INDEXING_POLL_MS : false),
  })
}

export function useContact(id: string) {
  return useQuery({
    queryKey: key('contact', id),
    queryFn: ({ signal }) => api.get<Contact>(`/phonebooks/numbers/${encodeURIComponent(id)}`, undefined, signal),
  })
}

export function useTags(search = '') {
  return useQuery({
    queryKey: key('tags', search),
    queryFn: ({ signal }) => api.get<Tag[]>('/phonebooks/numbers/tags', { search }, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  })
}

export function useFeatures(params: Query) {
  return useQuery({
    queryKey: key('features', params),
    queryFn: ({ signal }) => api.page<Feature>('/phonebooks/options', params, signal),
    placeholderData: keepPreviousData,
  })
}

/** Every custom feature (for forms, filters and the import mapping). */
export function useAllFeatures() {
  return useQuery({
    queryKey: key('features', 'all'),
    queryFn: async ({ signal }) => (await api.page<Feature>('/phonebooks/options', { page: 1, limit: 100 }, signal)).rows,
    staleTime: 30_000,
  })
}

export function useListEntries(kind: ListKind, params: Query) {
  return useQuery({
    queryKey: key('list', kind, params),
    queryFn: ({ signal }) => api.page<ListEntry>('/phonebooks/blacklist', { ...params, kind }, signal),
    placeholderData: keepPreviousData,
  })
}

// ---------------------------------------------------------------- writes

/** A mutation that refreshes every contacts query when it settles. */
function useContactsMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSettled: () => qc.invalidateQueries({ queryKey: CONTACTS_KEY }),
  })
}

export const contactsApi = {
  createPhonebook: (body: { name: string; code?: string }) => api.post<Phonebook>('/phonebooks', body),
  renamePhonebook: (body: { id: number; name: string }) => api.post<Phonebook>('/phonebooks/update', body),
  deletePhonebooks: (ids: number[]) => api.post<{ deleted: number }>('/phonebooks/delete-list', { ids }),
  addContacts: (phonebookId: number, contacts: ContactInput[]) =>
    api.post<AddContactsResult>('/phonebooks/numbers/add-list-new', { phonebook_id: phonebookId, contacts }),
  /** Updates a contact; a different phonebook_id moves it there. */
  updateContact: (id: number, input: ContactInput, phonebookId?: number) =>
    api.post<Contact>('/phonebooks/numbers/update-new', { id, ...(phonebookId ? { phonebook_id: phonebookId } : {}), ...input }),
  deleteContacts: (ids: number[]) => api.post<{ deleted: number }>('/phonebooks/numbers/delete-list', { ids }),
  createTag: (name: string) => api.post<Tag>('/phonebooks/numbers/tags', { name }),
  saveFeature: (body: object) => api.post<Feature>('/phonebooks/options', body),
  deleteFeatures: (ids: number[]) => api.post<unknown>('/phonebooks/options/delete-list', { ids }),
  addToList: (kind: ListKind, numbers: string[]) => api.post<{ added: number; skipped: number }>('/phonebooks/blacklist', { numbers, kind }),
  removeFromList: (kind: ListKind, numbers: string[]) =>
    api.post<{ deleted: number }>('/phonebooks/blacklist/delete-list', { numbers, kind }),
  startImport: (body: { file_id: number | string; phonebook_id: number; mapping: object }) =>
    api.post<{ id: number | string; status: string }>('/phonebooks/numbers/import', body),
  importJob: (id: number | string, signal?: AbortSignal) => api.get<ImportJob>(`/phonebooks/numbers/import/${id}`, undefined, signal),
}

export const useCreatePhonebook = () => useContactsMutation(contactsApi.createPhonebook)
export const useRenamePhonebook = () => useContactsMutation(contactsApi.renamePhonebook)
export const useDeletePhonebooks = () => useContactsMutation(contactsApi.deletePhonebooks)
export const useDeleteContacts = () => useContactsMutation(contactsApi.deleteContacts)
export const useCreateTag = () => useContactsMutation(contactsApi.createTag)
export const useSaveFeature = () => useContactsMutation(contactsApi.saveFeature)
export const useDeleteFeatures = () => useContactsMutation(contactsApi.deleteFeatures)
export const useAddToList = () => useContactsMutation((v: { kind: ListKind; numbers: string[] }) => contactsApi.addToList(v.kind, v.numbers))
export const useRemoveFromList = () =>
  useContactsMutation((v: { kind: ListKind; numbers: string[] }) => contactsApi.removeFromList(v.kind, v.numbers))

/** Adds one contact to each chosen phonebook; a conflict in one does not stop the others. */
export const useSaveContact = () =>
  useContactsMutation(async (v: { id?: number; groups: number[]; input: ContactInput }) => {
    if (v.id) return { updated: await contactsApi.updateContact(v.id, v.input, v.groups[0]) }
    const results = await Promise.allSettled(v.groups.map((g) => contactsApi.addContacts(g, [v.input])))
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')
    if (failed.length === results.length) throw failed[0].reason
    return { added: results.length - failed.length, failed: failed.map((f) => f.reason as unknown) }
  })

// ---------------------------------------------------------------- downloads

export const downloads = {
  contacts: (query: Query) => downloadFile('/phonebooks/numbers/export', query, 'contacts.xlsx'),
  list: (kind: ListKind) => downloadFile('/phonebooks/blacklist/export', { kind }, `${kind}-list.xlsx`),
  importSample: () => downloadFile('/phonebooks/numbers/import/sample', {}, 'contacts-sample.xlsx'),
}
