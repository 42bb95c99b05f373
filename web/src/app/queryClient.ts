import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query'
import { createElement } from 'react'
import { ACCESS_LIMITED, ACCESS_LIMITED_CODE, ApiError } from '../lib/apiError'
import { toaster } from '../lib/toaster'
import { ServerMessage } from '../components/ServerMessage'

/** Client errors that a retry cannot fix. */
const FINAL = new Set([400, 401, 403, 404, 409, 413, 422])

/** Spec §9: two retries, except for client errors a retry cannot fix. */
export function shouldRetry(failureCount: number, err: unknown): boolean {
  return failureCount < 2 && !(err instanceof ApiError && FINAL.has(err.status))
}

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The form shows the error itself (e.g. under fields): no toast. */
      silent?: boolean
    }
  }
}

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Spec §9: retry 2, no refetch on window focus.
        retry: shouldRetry,
        refetchOnWindowFocus: false,
        staleTime: 10_000,
      },
      mutations: { retry: false },
    },
    queryCache: new QueryCache({
      // A page's own error state says «خطا در دریافت اطلاعات»; a 403-8 also tells the user why (spec §6).
      onError: (err) => {
        if (err instanceof ApiError && err.status === 403 && err.messageCode === ACCESS_LIMITED_CODE) {
          toaster.create({ id: ACCESS_LIMITED_CODE, type: 'warning', description: ACCESS_LIMITED })
        }
      },
    }),
    mutationCache: new MutationCache({
      onError: (err, _vars, _ctx, mutation) => {
        if (mutation.meta?.silent) return
        if (err instanceof ApiError && err.status === 401) return // the session handler takes over
        toaster.create({ type: 'error', description: createElement(ServerMessage, { error: err }) })
      },
    }),
  })
}

export const queryClient = createQueryClient()
