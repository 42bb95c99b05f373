import { describe, expect, it } from 'vitest'
import { earliestSendAt, scheduleError, sendAtError, sendAtValue } from './schedule'

const now = new Date('2025-03-21T10:00:30Z')

describe('send scheduling', () => {
  it('needs a time at least five minutes ahead', () => {
    expect(sendAtError(null, now)).toBe('زمان ارسال را انتخاب کنید')
    expect(sendAtError(new Date('2025-03-21T10:04:00Z'), now)).toMatch('۵ دقیقه بعد از اکنون')
    expect(sendAtError(new Date('2025-03-21T10:05:29Z'), now)).toMatch('۵ دقیقه')
    expect(sendAtError(new Date('2025-03-21T10:05:30Z'), now)).toBeUndefined()
  })

  it('the earliest time is rounded up to a whole minute', () => {
    expect(earliestSendAt(now).toISOString()).toBe('2025-03-21T10:06:00.000Z')
    expect(earliestSendAt(new Date('2025-03-21T10:00:00Z')).toISOString()).toBe('2025-03-21T10:05:00.000Z')
  })

  it('only a later send is checked and sent with send_at', () => {
    expect(scheduleError({ schedule: 'now', sendAt: null }, now)).toBeUndefined()
    expect(scheduleError({ schedule: 'later', sendAt: null }, now)).toBeDefined()
    const at = new Date('2025-03-21T11:00:00Z')
    expect(sendAtValue({ schedule: 'later', sendAt: at })).toBe('2025-03-21T11:00:00.000Z')
    expect(sendAtValue({ schedule: 'now', sendAt: at })).toBeNull()
  })
})
