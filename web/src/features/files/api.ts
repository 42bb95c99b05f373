import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, downloadFile, type Query } from '../../lib/api'

/** One file of GET /user/files: an upload, a receipt, or another category's file. */
export interface ManagedFile {
  id: number
  category: string
  category_label: string
  name: string
  size: number
  /** parsing, ready or failed. */
  status: string
  /** '' (not reviewed), pending, approved or rejected. */
  review: string
  review_reason: string
  created_at: string
  deletable: boolean
  /** The download path under /v1/api ('' when the bytes are gone). */
  download: string
}

/** GET /user/files/categories. */
export interface FileCategory {
  value: string
  label: string
}

const KEY = ['file-management'] as const

export function useManagedFiles(params: Query) {
  return useQuery({
    queryKey: [...KEY, 'list', params],
    queryFn: ({ signal }) => api.page<ManagedFile>('/user/files', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function useFileCategories() {
  return useQuery({
    queryKey: [...KEY, 'categories'],
    queryFn: ({ signal }) => api.get<FileCategory[]>('/user/files/categories', undefined, signal),
    staleTime: 10 * 60_000,
  })
}

export function useDeleteFile() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (f: Pick<ManagedFile, 'id' | 'category'>) => api.post<null>('/user/files/delete', { id: f.id, category: f.category }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  })
}

/** Downloads a file through its entry's download path. */
export function downloadManaged(f: ManagedFile): Promise<void> {
  const [path, search] = f.download.split('?')
  return downloadFile(path, Object.fromEntries(new URLSearchParams(search ?? '')), f.name || `file-${f.id}`)
}
