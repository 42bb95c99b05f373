import { describe, expect, it } from 'vitest'
import { DARK_KEY, NEXT_THEMES_KEY, modeFromStorageEvent, primeThemeStorage, readMode, writeMode } from './theme'

describe('theme key (spec §4 Theme)', () => {
  it('"true" under dark means dark; anything else is light', () => {
    localStorage.clear()
    expect(readMode()).toBe('light')
    localStorage.setItem(DARK_KEY, 'true')
    expect(readMode()).toBe('dark')
    localStorage.setItem(DARK_KEY, 'yes')
    expect(readMode()).toBe('light')
  })

  it('dark writes "true"; light removes the key', () => {
    localStorage.clear()
    writeMode('dark')
    expect(localStorage.getItem(DARK_KEY)).toBe('true')
    writeMode('light')
    expect(localStorage.getItem(DARK_KEY)).toBeNull()
    expect(localStorage.length).toBe(0)
  })

  it('follows other tabs through storage events', () => {
    expect(modeFromStorageEvent({ key: DARK_KEY, newValue: 'true' })).toBe('dark')
    expect(modeFromStorageEvent({ key: DARK_KEY, newValue: null })).toBe('light')
    expect(modeFromStorageEvent({ key: null, newValue: null })).toBe('light')
    expect(modeFromStorageEvent({ key: 'token', newValue: 'x' })).toBeNull()
  })

  it('primes next-themes storage from the dark key before render', () => {
    localStorage.clear()
    localStorage.setItem(NEXT_THEMES_KEY, 'dark')
    primeThemeStorage()
    expect(localStorage.getItem(NEXT_THEMES_KEY)).toBe('light')
    localStorage.setItem(DARK_KEY, 'true')
    primeThemeStorage()
    expect(localStorage.getItem(NEXT_THEMES_KEY)).toBe('dark')
  })
})
