import { describe, expect, it } from 'vitest'
import { eventTitle, prettyBody, statusColor } from './model'

describe('webhooks model', () => {
  it('names events, falling back to the code', () => {
    expect(eventTitle('delivery.receipt')).toBe('گزارش تحویل پیامک')
    expect(eventTitle('other.thing')).toBe('other.thing')
  })
  it('pretty-prints JSON bodies and keeps others', () => {
    expect(prettyBody('{"a":1}')).toBe('{\n  "a": 1\n}')
    expect(prettyBody('{"a":1…')).toBe('{"a":1…')
    expect(prettyBody('')).toBe('')
  })
  it('colours statuses', () => {
    expect(statusColor(200)).toBe('green')
    expect(statusColor(403)).toBe('orange')
    expect(statusColor(502)).toBe('red')
  })
})
