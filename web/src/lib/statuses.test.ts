import { describe, expect, it } from 'vitest'
import { isPartial, summarizeParts } from './statuses'

describe('summarizeParts', () => {
  it('counts each state in display order and leaves absent ones out', () => {
    expect(summarizeParts(['delivered', 'rejected', 'delivered', 'unknown'])).toEqual([
      { state: 'delivered', count: 2 },
      { state: 'rejected', count: 1 },
      { state: 'unknown', count: 1 },
    ])
    expect(summarizeParts(undefined)).toEqual([])
  })
})

describe('isPartial', () => {
  it('flags recipients with a part that did not surely reach the carrier', () => {
    expect(isPartial(['delivered', 'accepted'])).toBe(false)
    expect(isPartial(['delivered', 'unknown'])).toBe(true)
    expect(isPartial(['accepted', 'rejected'])).toBe(true)
    expect(isPartial(['unsent'])).toBe(true)
    expect(isPartial(undefined)).toBe(false)
  })
})
