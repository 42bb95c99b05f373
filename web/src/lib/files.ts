import { useQuery, useQueryClient } from '@tanstack/react-query'
import { api, ApiError, buildUrl, downloadFile, type Meta } from './api'
import { getToken } from './auth'
import { formatNumber } from './format'
import { useLiveEvent, useLiveStatus } from './useLive'

/** What an upload is for (POST /user/files `purpose`). */
export type FilePurpose = 'send' | 'peer_to_peer' | 'contacts'
/** The sample files of GET /user/files/samples/{purpose}. */
export type SamplePurpose = FilePurpose | 'keyword'
export type FileStatus = 'parsing' | 'ready' | 'failed'

export interface FileColumn {
  index: number
  /** Spreadsheet letter: A, B, … */
  key: string
  /** Header text, or empty when the file has no header row. */
  title: string
}

export interface FileOperatorCount {
  operator: string
  recipients: number
  /** Peer-to-peer only: the sum of per-row parts without / with the «لغو۱۱» footer. */
  parts?: number
  parts_cancel11?: number
}

export interface FileRowError {
  row: number
  kind: 'empty' | 'format' | 'other'
  message: string
  value: string
}

/** GET /user/files/{id}: the upload's state and, once ready, its pre-flight report. */
export interface UserFile {
  id: number | string
  name: string
  purpose: FilePurpose
  size: number
  status: FileStatus
  progress: number
  error: string
  records: number
  valid: number
  invalid: number
  duplicates: number
  blacklisted: number
  columns: FileColumn[]
  mobile_col: number | null
  text_col: number | null
  per_operator: FileOperatorCount[]
  errors_sample?: FileRowError[]
  created_at: string
  parsed_at: string | null
}

export interface UploadResult {
  id: number | string
  name: string
  status: FileStatus
}

/** The byte limit of a send file (the server answers 413 above it). */
export const SEND_FILE_MAX_BYTES = 64 * 1024 * 1024

export const XLS_MESSAGE = 'فرمت فایل نامعتبر است؛ لطفا فایل را با فرمت xlsx ذخیره کنید'

const EXTENSIONS: Record<FilePurpose, string[]> = {
  send: ['xlsx', 'csv', 'txt', 'xls'],
  contacts: ['xlsx', 'csv', 'txt', 'xls'],
  peer_to_peer: ['xlsx'],
}

/** The `accept` attribute of a file input for a purpose. */
export function acceptFor(purpose: FilePurpose): string {
  return EXTENSIONS[purpose].map((e) => `.${e}`).join(',')
}

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase()
}

/** Checks a chosen file before uploading it; the Persian reason, or null when it may go. */
export function checkUploadFile(file: { name: string; size: number }, purpose: FilePurpose): string | null {
  const ext = extensionOf(file.name)
  if (purpose === 'peer_to_peer' && ext !== 'xlsx') return 'فایل نظیر به نظیر باید اکسل (xlsx) باشد'
  if (!EXTENSIONS[purpose].includes(ext)) return 'فرمت فایل نامعتبر است؛ فرمت‌های مجاز: xlsx، csv و txt'
  if (ext === 'xls') return XLS_MESSAGE
  if (file.size === 0) return 'فایل خالی است'
  if (file.size > SEND_FILE_MAX_BYTES) return `حجم فایل بیش از حد مجاز (${formatNumber(SEND_FILE_MAX_BYTES / 1024 / 1024)} مگابایت) است`
  return null
}

/** «۱٫۵ مگابایت» */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${formatNumber(bytes)} بایت`
  if (bytes < 1024 * 1024) return `${formatNumber(Math.round(bytes / 102.4) / 10)} کیلوبایت`
  return `${formatNumber(Math.round(bytes / 1024 / 102.4) / 10)} مگابایت`
}

export interface UploadHandle {
  promise: Promise<UploadResult>
  abort: () => void
}

/**
 * POSTs a multipart form through XMLHttpRequest, whose upload events give a real progress
 * bar (fetch has none), and unwraps the envelope. onProgress receives bytes sent and the
 * total (size when the browser cannot tell).
 */
export function postFormWithProgress<T>(path: string, form: FormData, size: number, onProgress: (loaded: number, total: number) => void): { promise: Promise<T>; abort: () => void } {
  const xhr = new XMLHttpRequest()
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open('POST', buildUrl(path))
    xhr.setRequestHeader('Accept', 'application/json')
    const token = getToken()
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : size)
    xhr.onload = () => {
      let json: { data?: T; meta?: Meta } | null = null
      try {
        json = JSON.parse(xhr.responseText)
      } catch {
        /* not JSON: handled by the status below */
      }
      if (xhr.status >= 200 && xhr.status < 300 && json?.data) return resolve(json.data)
      const meta = json?.meta ?? {}
      // A 401 means the session ended: asking the API once more runs the app's logout path.
      if (xhr.status === 401) void api.get('/acl/auth/check_token').catch(() => undefined)
      reject(new ApiError({ status: xhr.status, message: meta.message, messageCode: meta.message_code, errors: meta.errors }))
    }
    xhr.onerror = () => reject(new ApiError({ status: 0 }))
    xhr.onabort = () => reject(new DOMException('upload aborted', 'AbortError'))
    xhr.send(form)
  })
  return { promise, abort: () => xhr.abort() }
}

/** POST /user/files with upload progress. */
export function uploadUserFile(file: File, purpose: FilePurpose, onProgress: (loaded: number, total: number) => void): UploadHandle {
  const form = new FormData()
  form.append('file', file)
  form.append('purpose', purpose)
  return postFormWithProgress<UploadResult>('/user/files', form, file.size, onProgress)
}

export const fileKey = (id: number | string | null) => ['user-file', String(id)] as const

/** Polling cadence while a file is parsed: fast without the live socket, slow as a safety net with it. */
export function filePollMs(status: FileStatus | undefined, liveOpen: boolean): number | false {
  if (status !== 'parsing') return false
  return liveOpen ? 3000 : 1000
}

/**
 * One uploaded file. While it parses, `file.progress` live events move its progress and the
 * query polls; the final event refetches the whole pre-flight report.
 */
export function useUserFile(id: number | string | null) {
  const qc = useQueryClient()
  const liveOpen = useLiveStatus() === 'OPEN'
  useLiveEvent((msg) => {
    if (msg.event !== 'file.progress' || id === null) return
    const data = (msg.data ?? {}) as Partial<UserFile>
    if (String(data.id) !== String(id)) return
    if (data.status === 'parsing') {
      qc.setQueryData<UserFile>(fileKey(id), (old) =>
        old ? { ...old, progress: Math.max(old.progress ?? 0, Number(data.progress) || 0), records: data.records ?? old.records } : old,
      )
    } else void qc.invalidateQueries({ queryKey: fileKey(id) })
  })
  return useQuery({
    queryKey: fileKey(id),
    queryFn: ({ signal }) => api.get<UserFile>(`/user/files/${id}`, undefined, signal),
    enabled: id !== null,
    refetchInterval: (q) => filePollMs(q.state.data?.status, liveOpen),
    staleTime: 30_000,
  })
}

export const fileApi = {
  remove: (id: number | string) => api.post<unknown>('/user/files/delete', { id }),
  downloadErrors: (id: number | string) => downloadFile(`/user/files/${id}/errors/download`, {}, `file-${id}-errors.xlsx`),
  downloadSample: (purpose: SamplePurpose) => downloadFile(`/user/files/samples/${purpose}`, {}, `sample-${purpose}.xlsx`),
  list: (params: { page?: number; limit?: number; purpose?: FilePurpose }, signal?: AbortSignal) =>
    api.page<UserFile>('/user/files', params, signal),
}

/** Rows that can be sent: valid unique numbers less those on the blacklist or the cancel-11 list. */
export function sendableCount(f: Pick<UserFile, 'valid' | 'blacklisted'>): number {
  return Math.max(0, (f.valid ?? 0) - (f.blacklisted ?? 0))
}

/** A column's name for people: «ستون B (نام)» or «ستون B». */
export function columnLabel(c: FileColumn): string {
  return c.title ? `ستون ${c.key} (${c.title})` : `ستون ${c.key}`
}
