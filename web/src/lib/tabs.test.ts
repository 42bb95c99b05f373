import { describe, expect, it } from 'vitest'
import { act, renderHook } from '@testing-library/react'
import { createElement, type ReactNode } from 'react'
import { MemoryRouter, useLocation } from 'react-router'
import { parseTabIndex, useTabParam } from './tabs'

describe('parseTabIndex', () => {
  it('returns the index when it is inside the list', () => {
    expect(parseTabIndex('0', 3)).toBe(0)
    expect(parseTabIndex('2', 3)).toBe(2)
  })
  it('falls back to the first tab when out of range or not a number', () => {
    expect(parseTabIndex('3', 3)).toBe(0)
    expect(parseTabIndex('-1', 3)).toBe(0)
    expect(parseTabIndex('1.5', 3)).toBe(0)
    expect(parseTabIndex('abc', 3)).toBe(0)
    expect(parseTabIndex('', 3)).toBe(0)
    expect(parseTabIndex(null, 3)).toBe(0)
  })
})

describe('useTabParam', () => {
  function setup(url: string, count: number) {
    const wrapper = ({ children }: { children: ReactNode }) =>
      createElement(MemoryRouter, { initialEntries: [url] }, children)
    return renderHook(
      () => {
        const tab = useTabParam(count)
        return { tab, search: useLocation().search }
      },
      { wrapper },
    )
  }

  it('reads ?tab= and keeps other parameters when switching', () => {
    const { result } = setup('/profile?tab=1&page=2', 3)
    expect(result.current.tab[0]).toBe(1)
    act(() => result.current.tab[1](2))
    expect(result.current.tab[0]).toBe(2)
    expect(result.current.search).toBe('?tab=2&page=2')
  })

  it('an out-of-range tab shows the first one', () => {
    const { result } = setup('/profile?tab=9', 3)
    expect(result.current.tab[0]).toBe(0)
  })
})
