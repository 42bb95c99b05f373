import { renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useSelectAfterCreate } from './hooks'
import { SELECT_AFTER_CREATE_MS } from './selectUtils'

describe('useSelectAfterCreate (spec §9: select-after-create 1000 ms)', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('selects a created item 1000 ms later, not before', () => {
    const select = vi.fn()
    const { result } = renderHook(() => useSelectAfterCreate(select))
    result.current({ value: 7 })
    vi.advanceTimersByTime(SELECT_AFTER_CREATE_MS - 1)
    expect(select).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(select).toHaveBeenCalledExactlyOnceWith({ value: 7 })
    expect(SELECT_AFTER_CREATE_MS).toBe(1000)
  })

  it('uses the latest select (the picker value at that time) and a new creation replaces a pending one', () => {
    const first = vi.fn()
    const second = vi.fn()
    const { result, rerender } = renderHook(({ fn }) => useSelectAfterCreate(fn), { initialProps: { fn: first } })
    result.current('a')
    vi.advanceTimersByTime(500)
    result.current('b')
    rerender({ fn: second })
    vi.advanceTimersByTime(SELECT_AFTER_CREATE_MS)
    expect(first).not.toHaveBeenCalled()
    expect(second).toHaveBeenCalledExactlyOnceWith('b')
  })

  it('does nothing after the picker is gone', () => {
    const select = vi.fn()
    const { result, unmount } = renderHook(() => useSelectAfterCreate(select))
    result.current(1)
    unmount()
    vi.advanceTimersByTime(SELECT_AFTER_CREATE_MS * 2)
    expect(select).not.toHaveBeenCalled()
  })
})
