import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '../lib/apiError'
import { toaster } from '../lib/toaster'
import { createQueryClient, shouldRetry } from './queryClient'

afterEach(() => toaster.remove())

describe('query client (spec §9)', () => {
  it('retries twice, but not client errors', () => {
    const net = new ApiError({ status: 0 })
    expect(shouldRetry(0, net)).toBe(true)
    expect(shouldRetry(1, net)).toBe(true)
    expect(shouldRetry(2, net)).toBe(false)
    expect(shouldRetry(0, new ApiError({ status: 500 }))).toBe(true)
    expect(shouldRetry(0, new ApiError({ status: 422 }))).toBe(false)
    expect(shouldRetry(0, new ApiError({ status: 401 }))).toBe(false)
  })

  it('does not refetch on window focus', () => {
    expect(createQueryClient().getDefaultOptions().queries?.refetchOnWindowFocus).toBe(false)
  })

  it('toasts mutation errors unless the mutation is silent or a 401', async () => {
    const qc = createQueryClient()
    const run = (err: unknown, silent = false) =>
      qc.getMutationCache().build(qc, { mutationFn: () => Promise.reject(err), meta: { silent } }).execute(undefined).catch(() => {})
    await run(new ApiError({ status: 422, message: 'نامعتبر' }))
    expect(toaster.getVisibleToasts()).toHaveLength(1)
    await run(new ApiError({ status: 422 }), true)
    await run(new ApiError({ status: 401 }))
    expect(toaster.getVisibleToasts()).toHaveLength(1)
  })

  it('a 403-8 query error explains the access limit once', async () => {
    const qc = createQueryClient()
    const err = new ApiError({ status: 403, messageCode: '403-8' })
    const fail = (key: string) => qc.fetchQuery({ queryKey: [key], queryFn: () => Promise.reject(err), retry: false }).catch(() => {})
    await fail('a')
    await fail('b')
    const toasts = toaster.getVisibleToasts()
    expect(toasts).toHaveLength(1)
    expect(toasts[0].description).toBe('دسترسی شما محدود است؛ برای افزایش سطح دسترسی با مدیر خود هماهنگ کنید')
  })
})
