import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { registerWarmer, resetWarmers, warmChunks, warmSignedIn } from './warmup'

describe('warm-up', () => {
  afterEach(() => resetWarmers())

  it('loads the chunks once and starts the data on sign-in', () => {
    const chunks = vi.fn()
    const data = vi.fn()
    registerWarmer({ chunks, data })
    warmChunks()
    warmChunks()
    expect(chunks).toHaveBeenCalledTimes(1)
    expect(data).not.toHaveBeenCalled()
    const qc = new QueryClient()
    warmSignedIn(qc)
    expect(chunks).toHaveBeenCalledTimes(1)
    expect(data).toHaveBeenCalledWith(qc)
  })

  it('starts the chunks at sign-in when the form never warmed them', () => {
    const chunks = vi.fn()
    registerWarmer({ chunks })
    warmSignedIn(new QueryClient())
    expect(chunks).toHaveBeenCalledTimes(1)
  })
})
