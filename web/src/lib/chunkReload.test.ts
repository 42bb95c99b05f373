import { describe, expect, it, vi } from 'vitest'
import { CHUNK_RELOAD_KEY, importWithReload } from './chunkReload'

function memoryStorage() {
  const m = new Map<string, string>()
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  }
}

describe('importWithReload', () => {
  it('reloads on failure up to 3 times, then gives up with the error', async () => {
    const storage = memoryStorage()
    const reload = vi.fn()
    const fail = () => Promise.reject(new Error('chunk'))
    for (let i = 1; i <= 3; i++) {
      void importWithReload(fail, { storage, reload })
      await Promise.resolve()
      await Promise.resolve()
      expect(reload).toHaveBeenCalledTimes(i)
      expect(storage.getItem(CHUNK_RELOAD_KEY)).toBe(String(i))
    }
    await expect(importWithReload(fail, { storage, reload })).rejects.toThrow('chunk')
    expect(reload).toHaveBeenCalledTimes(3)
  })

  it('resets the counter on success', async () => {
    const storage = memoryStorage()
    storage.setItem(CHUNK_RELOAD_KEY, '2')
    const mod = await importWithReload(() => Promise.resolve({ default: 1 }), { storage, reload: vi.fn() })
    expect(mod).toEqual({ default: 1 })
    expect(storage.getItem(CHUNK_RELOAD_KEY)).toBeNull()
  })
})
