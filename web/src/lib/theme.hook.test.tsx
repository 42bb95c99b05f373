import { beforeEach, describe, expect, it } from 'vitest'
import { act, cleanup, render, screen } from '@testing-library/react'
import { ThemeProvider } from 'next-themes'
import { afterEach } from 'vitest'
import { DARK_KEY, NEXT_THEMES_KEY, primeThemeStorage, useColorMode, useDarkKeySync } from './theme'

function Probe() {
  useDarkKeySync()
  const { mode, toggle } = useColorMode()
  return (
    <button type="button" onClick={toggle}>
      {mode}
    </button>
  )
}

function mount() {
  return render(
    <ThemeProvider attribute="class" storageKey={NEXT_THEMES_KEY} enableSystem={false} defaultTheme="light">
      <Probe />
    </ThemeProvider>,
  )
}

beforeEach(() => {
  localStorage.clear()
  document.documentElement.className = ''
  window.matchMedia = ((q: string) => ({ matches: false, media: q, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {} })) as unknown as typeof window.matchMedia
})
afterEach(() => cleanup())

describe('useDarkKeySync + useColorMode', () => {
  it('starts from the dark key and toggles it ("true" / removed)', () => {
    localStorage.setItem(DARK_KEY, 'true')
    primeThemeStorage()
    mount()
    expect(screen.getByRole('button')).toHaveTextContent('dark')
    expect(document.documentElement.classList.contains('dark')).toBe(true)
    act(() => screen.getByRole('button').click())
    expect(screen.getByRole('button')).toHaveTextContent('light')
    expect(localStorage.getItem(DARK_KEY)).toBeNull()
    act(() => screen.getByRole('button').click())
    expect(localStorage.getItem(DARK_KEY)).toBe('true')
  })

  it('the dark key wins over a stale next-themes value', () => {
    localStorage.setItem(NEXT_THEMES_KEY, 'dark')
    mount()
    expect(screen.getByRole('button')).toHaveTextContent('light')
    expect(localStorage.getItem(DARK_KEY)).toBeNull()
  })

  it('follows another tab through the storage event', () => {
    mount()
    act(() => {
      localStorage.setItem(DARK_KEY, 'true')
      window.dispatchEvent(new StorageEvent('storage', { key: DARK_KEY, newValue: 'true' }))
    })
    expect(screen.getByRole('button')).toHaveTextContent('dark')
    act(() => {
      localStorage.removeItem(DARK_KEY)
      window.dispatchEvent(new StorageEvent('storage', { key: DARK_KEY, newValue: null }))
    })
    expect(screen.getByRole('button')).toHaveTextContent('light')
    expect(localStorage.getItem(DARK_KEY)).toBeNull()
  })
})
