import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, downloadFile, type DownloadProgress, type Query } from '../../lib/api'

/** A webhook endpoint as listed: never its secret (docs/webhooks.md). */
export interface Endpoint {
  id: number
  url: string
  events: string[]
  enabled: boolean
  description: string
  created_at: string
  updated_at: string
  pending: number
  dead: number
}

/** A new endpoint with its signing secret, shown this once. */
export interface CreatedEndpoint extends Endpoint {
  secret: string
}

export interface EndpointInput {
  id?: number
  url: string
  events: string[]
  enabled: boolean
  description: string
}

/** One POST of a batch of events to an endpoint. */
export interface Delivery {
  id: number
  endpoint_id: number
  url: string
  events: number
  status: 'pending' | 'delivered' | 'dead'
  attempts: number
  next_at: string
  last_status: number | null
  last_error: string
  test: boolean
  created_at: string
  delivered_at: string | null
}

/** One logged API-key call (GET /developers/api-calls). */
export interface ApiCall {
  id: number
  created_at: string
  method: string
  path: string
  api_key_id: number
  api_key_title: string
  api_key_prefix: string
  ip: string
  status: number
  latency_ms: number
}

export interface ApiCallDetail extends ApiCall {
  query: string
  request_body: string
  response_body: string
  request_id: string
}

/** An API key, for the key filter (GET /acl/api_key/list). */
export interface KeyOption {
  id: number
  title: string
}

const HOOKS = ['webhooks'] as const
const CALLS = ['api-calls'] as const

export function useEndpoints() {
  return useQuery({
    queryKey: [...HOOKS, 'endpoints'],
    queryFn: ({ signal }) => api.get<{ endpoints: Endpoint[]; events: string[] }>('/developers/webhooks', undefined, signal),
  })
}

/** The deliveries, refreshed every few seconds while the page is open. */
export function useDeliveries(params: Query) {
  return useQuery({
    queryKey: [...HOOKS, 'deliveries', params],
    queryFn: ({ signal }) => api.page<Delivery>('/developers/webhooks/deliveries', params, signal),
    placeholderData: keepPreviousData,
    refetchInterval: 3000,
  })
}

function useHookMutation<I, O>(fn: (input: I) => Promise<O>) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, onSuccess: () => void qc.invalidateQueries({ queryKey: HOOKS }) })
}

export const useCreateEndpoint = () => useHookMutation((i: EndpointInput) => api.post<CreatedEndpoint>('/developers/webhooks', i))
export const useUpdateEndpoint = () => useHookMutation((i: EndpointInput) => api.post<Endpoint>('/developers/webhooks/update', i))
export const useDeleteEndpoint = () => useHookMutation((id: number) => api.post<null>('/developers/webhooks/delete', { id }))
export const useTestEndpoint = () => useHookMutation((id: number) => api.post<null>('/developers/webhooks/test', { id }))
export const useReplay = () => useHookMutation((id: number) => api.post<null>('/developers/webhooks/replay', { id }))

export function useApiCalls(params: Query) {
  return useQuery({
    queryKey: [...CALLS, 'list', params],
    queryFn: ({ signal }) => api.page<ApiCall>('/developers/api-calls', params, signal),
    placeholderData: keepPreviousData,
  })
}

export function useApiCall(id: string | undefined) {
  return useQuery({
    queryKey: [...CALLS, 'one', id],
    queryFn: ({ signal }) => api.get<ApiCallDetail>(`/developers/api-calls/${id}`, undefined, signal),
    enabled: !!id,
  })
}

export function useKeyOptions() {
  return useQuery({
    queryKey: [...CALLS, 'keys'],
    queryFn: ({ signal }) => api.page<KeyOption>('/acl/api_key/list', { page: 1, limit: 100 }, signal),
    staleTime: 60_000,
  })
}

/** Streams the filtered API-call log as Excel (GET /developers/api-calls/export). */
export function exportApiCalls(filters: Query, onProgress: DownloadProgress): Promise<void> {
  return downloadFile('/developers/api-calls/export', filters, 'api-calls.xlsx', onProgress)
}
