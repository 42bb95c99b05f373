import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, type Query } from '../../lib/api'
import { useSenderLines } from '../../lib/lines'
import type { DocsAccount, OpenAPIDoc } from './docsModel'

/** An API key as listed: never its secret (spec §7 Developers). */
export interface ApiKey {
  id: number
  title: string
  prefix: string
  allowed_ips: string[]
  scopes: string[]
  expires_at: string | null
  last_used_at: string | null
  created_at: string
  created_by: string
  /** The sandbox key: never charged, never sent, every answer marked. */
  sandbox: boolean
}

/** A new key with its secret, shown this once. */
export interface CreatedKey extends ApiKey {
  secret: string
}

export interface Scope {
  key: string
  title: string
  group: string
  group_title: string
}

export interface StepUp {
  otp_token: string
  resend_after: number
  mobile_hint: string
}

export interface CreateKeyInput {
  title: string
  allowed_ips: string[]
  expires_at: string | null
  scopes: string[]
  otp_token: string
  code: string
  sandbox: boolean
}

const KEY = ['api-keys'] as const

export function useApiKeys(params: Query) {
  return useQuery({
    queryKey: [...KEY, 'list', params],
    queryFn: ({ signal }) => api.page<ApiKey>('/acl/api_key/list', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function useScopes() {
  return useQuery({
    queryKey: [...KEY, 'scopes'],
    queryFn: ({ signal }) => api.get<Scope[]>('/acl/api_key/scopes', undefined, signal),
    staleTime: 60_000,
  })
}

/** Sends the one-time code that creating a key needs to the user's mobile. */
export function useSendKeyOTP() {
  return useMutation({ mutationFn: () => api.post<StepUp>('/acl/api_key/otp') })
}

export function useCreateKey() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (input: CreateKeyInput) => api.post<CreatedKey>('/acl/api_key/create', input),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  })
}

export function useDeleteKey() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => api.delete<null>('/acl/api_key', { id }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: KEY }),
  })
}

/** The OpenAPI document of the public API (GET /panel/api-docs), for the reference page. */
export function useApiDocs() {
  return useQuery({
    queryKey: ['api-docs'],
    queryFn: ({ signal }) => api.get<OpenAPIDoc>('/panel/api-docs', undefined, signal),
    staleTime: 5 * 60_000,
  })
}

/** One value an integration asks for. */
export interface PluginSetting {
  name: string
  title: string
  example: string
}

/** One integration of the catalogue (GET /panel/plugins). */
export interface Plugin {
  id: string
  title: string
  summary: string
  status: 'ready' | 'guide'
  steps: string[]
  settings: PluginSetting[]
  example?: string
  permissions: string[]
  /** The path of the plugin's zip (public), when it has one. */
  download?: string
}

/** A client library of the public API (GET /panel/libraries; docs/sdk.md). Its sample carries
 * the sample line, key and address, which ownSample replaces with the reader's. */
export interface Library {
  /** The documentation page's language the library is for. */
  id: 'php' | 'python' | 'javascript' | 'go'
  title: string
  package: string
  install: string
  sample: string
  /** The path of the library's zip (public). */
  download: string
}

export function useLibraries() {
  return useQuery({
    queryKey: ['libraries'],
    queryFn: ({ signal }) => api.get<Library[]>('/panel/libraries', undefined, signal),
    staleTime: 5 * 60_000,
  })
}

export function usePlugins() {
  return useQuery({
    queryKey: ['plugins'],
    queryFn: ({ signal }) => api.get<Plugin[]>('/panel/plugins', undefined, signal),
    staleTime: 5 * 60_000,
  })
}

/**
 * The reader's first sender line (the default one first) and newest key's prefix: the examples
 * carry them, so a copied example sends from a line of the account instead of a sample one.
 */
export function useDocsAccount(): DocsAccount {
  const lines = useSenderLines()
  const keys = useApiKeys({ page: 1, limit: 1 })
  const list = lines.data ?? []
  const line = (list.find((l) => l.is_default) ?? list[0])?.number
  return { line, keyPrefix: keys.data?.rows[0]?.prefix }
}
