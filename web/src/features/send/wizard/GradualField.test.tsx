import { fireEvent, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../testing/render'
import { EMPTY_SCHEDULE, gradualOf, type ScheduleDraft } from '../../../lib/schedule'
import { EMPTY_DRAFT, stepErrors } from '../quick/draft'
import { GradualField } from '../../../components/GradualField'

let last: ScheduleDraft = EMPTY_SCHEDULE

function Harness({ start = EMPTY_SCHEDULE }: { start?: ScheduleDraft }) {
  const [d, setD] = useState<ScheduleDraft>(start)
  last = d
  return <GradualField value={d} onChange={(p) => setD((x) => ({ ...x, ...p }))} />
}

describe('GradualField («ارسال تدریجی»)', () => {
  it('starts all at once and sends no gradual', () => {
    renderWithProviders(<Harness />)
    expect(screen.getByText('ارسال تدریجی')).toBeTruthy()
    expect(screen.queryByTestId('gradual-count')).toBeNull()
    expect(gradualOf(last)).toBeUndefined()
  })

  it('sends a count an hour typed in Persian digits', () => {
    // The radio itself is clicked in e2e/gradual-send.test.mjs (jsdom does not drive its state machine).
    renderWithProviders(<Harness start={{ ...EMPTY_SCHEDULE, gradual: 'per_hour' }} />)
    fireEvent.change(screen.getByTestId('gradual-count'), { target: { value: '۲۰۰۰' } })
    expect(last.gradual).toBe('per_hour')
    expect(gradualOf(last)).toEqual({ per_hour: 2000 })
  })

  it('sends an end time on the send day, Tehran time', () => {
    const d: ScheduleDraft = { ...EMPTY_SCHEDULE, schedule: 'later', sendAt: new Date('2026-12-07T06:30:00Z'), gradual: 'until', gradualUntil: '14:00' }
    expect(gradualOf(d)).toEqual({ until: '2026-12-07T14:00:00+03:30' })
  })

  // The wizard holds «مرحله بعد» with a Persian error until the count is within the engine's bounds.
  it('refuses counts out of bounds and a missing end time', () => {
    const text = { ...EMPTY_DRAFT, sender: '3000', numbers: ['09121234567'], text: 'سلام' }
    expect(stepErrors(1, { ...text, gradual: 'per_hour', gradualCount: '5' }).gradual).toMatch(/در ساعت باید بین/)
    expect(stepErrors(1, { ...text, gradual: 'per_minute', gradualCount: '9000' }).gradual).toMatch(/در دقیقه باید بین/)
    expect(stepErrors(1, { ...text, gradual: 'until', gradualUntil: null }).gradual).toBe('ساعت پایان ارسال تدریجی را انتخاب کنید')
    expect(stepErrors(1, { ...text, gradual: 'per_minute', gradualCount: '50' }).gradual).toBeUndefined()
    expect(gradualOf({ ...text, gradual: 'per_hour', gradualCount: '5' })).toBeUndefined()
  })
})
