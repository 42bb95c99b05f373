import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { formatJalaliDateTime, jalaliText, parseJalali } from '../lib/jalali'
import { renderWithProviders } from '../testing/render'
import { calendarYears, JalaliCalendar, monthGrid } from './JalaliCalendar'
import { JalaliDateInput, JalaliDateTimeInput, TEXT_DEBOUNCE_MS, TYPING_DEBOUNCE_MS } from './JalaliDateInput'
import { composeTime, from12Hour, TimePicker, timeInRange, to12Hour } from './TimePicker'

function Harness({ initial = null, withTime = false, onChange = () => {}, ...rest }: {
  initial?: Date | null; withTime?: boolean; onChange?: (d: Date | null) => void; min?: Date; max?: Date; disablePast?: boolean
}) {
  const [value, setValue] = useState<Date | null>(initial)
  const Field = withTime ? JalaliDateTimeInput : JalaliDateInput
  return (
    <>
      <Field aria-label="تاریخ ارسال" value={value} onChange={(d) => { setValue(d); onChange(d) }} {...rest} />
      <output data-testid="value">{value ? jalaliText(value, withTime) : 'none'}</output>
      <button>بیرون</button>
    </>
  )
}

describe('calendar helpers', () => {
  it('lists 201 years with 103 before the current one', () => {
    const years = calendarYears(1404)
    expect(years).toHaveLength(201)
    expect(years[0]).toBe(1301)
    expect(years[103]).toBe(1404)
  })

  it('builds Saturday-first weeks', () => {
    const weeks = monthGrid(1404, 1)
    // 1404/01/01 is a Friday: six empty cells before it.
    expect(weeks[0]).toEqual([null, null, null, null, null, null, 1])
    expect(weeks.flat().filter(Boolean)).toHaveLength(31)
  })
})

describe('JalaliCalendar', () => {
  it('shows month names, Persian digits and disables days outside the bounds', async () => {
    const onSelect = vi.fn()
    const today = { year: 1404, month: 1, day: 10 }
    renderWithProviders(<JalaliCalendar value={null} today={today} min={{ year: 1404, month: 1, day: 5 }} onSelect={onSelect} />)
    expect(screen.getByRole('grid', { name: 'فروردین ۱۴۰۴' })).toBeInTheDocument()
    expect(screen.getAllByRole('columnheader')[0]).toHaveTextContent('ش')
    expect(screen.getByRole('button', { name: '۴ فروردین ۱۴۰۴' })).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: '۱۲ فروردین ۱۴۰۴' }))
    expect(onSelect).toHaveBeenCalledWith({ year: 1404, month: 1, day: 12 })
    await userEvent.click(screen.getByRole('button', { name: 'ماه بعد' }))
    expect(screen.getByRole('grid', { name: 'اردیبهشت ۱۴۰۴' })).toBeInTheDocument()
  })

  it('moves focus with arrow keys (RTL: left is the next day)', async () => {
    renderWithProviders(<JalaliCalendar value={{ year: 1404, month: 1, day: 31 }} today={{ year: 1404, month: 1, day: 1 }} onSelect={() => {}} />)
    screen.getByRole('button', { name: '۳۱ فروردین ۱۴۰۴' }).focus()
    await userEvent.keyboard('{ArrowLeft}')
    expect(screen.getByRole('grid', { name: 'اردیبهشت ۱۴۰۴' })).toBeInTheDocument()
    expect(document.activeElement).toHaveAccessibleName('۱ اردیبهشت ۱۴۰۴')
  })
})

describe('JalaliDateInput', () => {
  it('masks typing and takes the date once complete', async () => {
    const onChange = vi.fn()
    renderWithProviders(<Harness onChange={onChange} />)
    const input = screen.getByRole('textbox', { name: 'تاریخ ارسال' })
    // One session without pauses between keys, and the last key typed where the
    // caret already is (no second click): only the keystrokes decide the value,
    // not how long a loaded machine takes between them.
    const user = userEvent.setup({ delay: null })
    await user.type(input, '۱۴۰۴۰۱۰')
    expect(input).toHaveValue('۱۴۰۴/۰۱/۰')
    expect(onChange).not.toHaveBeenCalled()
    await user.type(input, '۵', { skipClick: true })
    expect(input).toHaveValue('۱۴۰۴/۰۱/۰۵')
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1))
    expect(screen.getByTestId('value')).toHaveTextContent('1404/01/05')
  })

  it('applies a typed date 700 ms after the last keystroke and moves the calendar after 500 ms (spec §9)', () => {
    vi.useFakeTimers()
    try {
      const onChange = vi.fn()
      renderWithProviders(<Harness initial={parseJalali('1404/01/05')} onChange={onChange} />)
      const input = screen.getByRole('textbox', { name: 'تاریخ ارسال' })
      fireEvent.focus(input)
      expect(screen.getByRole('grid', { name: 'فروردین ۱۴۰۴' })).toBeInTheDocument()
      fireEvent.change(input, { target: { value: '۱۴۰۴/۰۳/۱' } })
      act(() => vi.advanceTimersByTime(400))
      fireEvent.change(input, { target: { value: '۱۴۰۴/۰۳/۱۰' } }) // a keystroke restarts both clocks
      act(() => vi.advanceTimersByTime(TEXT_DEBOUNCE_MS - 1))
      expect(screen.getByRole('grid', { name: 'فروردین ۱۴۰۴' })).toBeInTheDocument()
      act(() => vi.advanceTimersByTime(1))
      expect(screen.getByRole('grid', { name: 'خرداد ۱۴۰۴' })).toBeInTheDocument()
      act(() => vi.advanceTimersByTime(TYPING_DEBOUNCE_MS - TEXT_DEBOUNCE_MS - 1))
      expect(onChange).not.toHaveBeenCalled()
      act(() => vi.advanceTimersByTime(1))
      expect(onChange).toHaveBeenCalledTimes(1)
      expect(screen.getByTestId('value')).toHaveTextContent('1404/03/10')
      expect(input).toHaveValue('۱۴۰۴/۰۳/۱۰')
    } finally {
      vi.useRealTimers()
    }
  })

  it('applies a typed date at once on Enter', () => {
    const onChange = vi.fn()
    renderWithProviders(<Harness onChange={onChange} />)
    const input = screen.getByRole('textbox', { name: 'تاریخ ارسال' })
    fireEvent.change(input, { target: { value: '۱۴۰۴/۰۲/۰۲' } })
    expect(onChange).not.toHaveBeenCalled()
    fireEvent.keyDown(input, { key: 'Enter' })
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('value')).toHaveTextContent('1404/02/02')
  })

  it('reverts an invalid text to the last valid value on blur', async () => {
    renderWithProviders(<Harness initial={parseJalali('1404/01/05')} />)
    const input = screen.getByRole('textbox', { name: 'تاریخ ارسال' })
    await userEvent.clear(input)
    await userEvent.type(input, '14041230')
    expect(input).toHaveValue('۱۴۰۴/۱۲/۳۰')
    await userEvent.click(screen.getByRole('button', { name: 'بیرون' }))
    expect(input).toHaveValue('۱۴۰۴/۰۱/۰۵')
    expect(screen.getByTestId('value')).toHaveTextContent('1404/01/05')
  })

  it('rejects dates before the minimum', async () => {
    renderWithProviders(<Harness min={parseJalali('1404/02/01')!} />)
    const input = screen.getByRole('textbox', { name: 'تاریخ ارسال' })
    await userEvent.type(input, '14040115')
    expect(screen.getByTestId('value')).toHaveTextContent('none')
    fireEvent.blur(input)
    await userEvent.click(screen.getByRole('button', { name: 'بیرون' }))
    expect(input).toHaveValue('')
  })

  it('opens the calendar on focus and closes after picking a day', async () => {
    renderWithProviders(<Harness initial={parseJalali('1404/01/05')} />)
    await userEvent.click(screen.getByRole('textbox', { name: 'تاریخ ارسال' }))
    const dialog = screen.getByRole('dialog', { name: 'انتخاب تاریخ ارسال' })
    await userEvent.click(within(dialog).getByRole('button', { name: '۲۰ فروردین ۱۴۰۴' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByTestId('value')).toHaveTextContent('1404/01/20')
  })

  it('clears the value when emptied', async () => {
    renderWithProviders(<Harness initial={parseJalali('1404/01/05')} />)
    await userEvent.clear(screen.getByRole('textbox', { name: 'تاریخ ارسال' }))
    await userEvent.click(screen.getByRole('button', { name: 'بیرون' }))
    expect(screen.getByTestId('value')).toHaveTextContent('none')
  })
})

describe('JalaliDateTimeInput', () => {
  it('clamps the time and keeps the popup open after a day is picked', async () => {
    // No pause between keystrokes (delay: null types in one go): a slow machine's
    // gap between two keys is not the user's pause that applies a typed date alone.
    const user = userEvent.setup({ delay: null })
    renderWithProviders(<Harness withTime />)
    const input = screen.getByRole('textbox', { name: 'تاریخ ارسال' })
    await user.type(input, '140401052875')
    expect(input).toHaveValue('۱۴۰۴/۰۱/۰۵ ۲۳:۵۹')
    await waitFor(() => expect(screen.getByTestId('value')).toHaveTextContent('1404/01/05 23:59'))
    await user.click(await screen.findByRole('button', { name: '۶ فروردین ۱۴۰۴' }))
    expect(screen.getByTestId('value')).toHaveTextContent('1404/01/06 23:59')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'تایید' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(formatJalaliDateTime(parseJalali('1404/01/06 23:59')!)).toBe('۱۴۰۴/۰۱/۰۶ ۲۳:۵۹')
  })
})

describe('TimePicker', () => {
  it('composes and checks times', () => {
    expect(composeTime(25, 70)).toBe('23:59')
    expect(composeTime(8, 5)).toBe('08:05')
    expect(timeInRange('10:00', '09:00', '18:00')).toBe(true)
    expect(timeInRange('08:59', '09:00')).toBe(false)
  })

  it('clamps typed values and ignores changes outside min/max', () => {
    function T({ onChange }: { onChange: (v: string) => void }) {
      const [v, setV] = useState<string | null>('10:00')
      return <TimePicker value={v} min="09:00" max="18:00" onChange={(x) => { setV(x); onChange(x) }} />
    }
    const onChange = vi.fn()
    renderWithProviders(<T onChange={onChange} />)
    const hour = screen.getByRole('spinbutton', { name: 'ساعت' })
    expect(hour).toHaveValue('۱۰')
    fireEvent.keyDown(hour, { key: 'ArrowUp' })
    expect(onChange).toHaveBeenLastCalledWith('11:00')
    fireEvent.change(hour, { target: { value: '99' } })
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(hour).toHaveValue('۲۳')
    fireEvent.blur(hour)
    expect(hour).toHaveValue('۱۱')
    fireEvent.change(screen.getByRole('spinbutton', { name: 'دقیقه' }), { target: { value: '۳۰' } })
    expect(onChange).toHaveBeenLastCalledWith('11:30')
  })

  it('maps between the 24-hour value and the 12-hour face', () => {
    expect(to12Hour(0)).toEqual({ hour: 12, pm: false })
    expect(to12Hour(11)).toEqual({ hour: 11, pm: false })
    expect(to12Hour(12)).toEqual({ hour: 12, pm: true })
    expect(to12Hour(23)).toEqual({ hour: 11, pm: true })
    expect(from12Hour(12, false)).toBe(0)
    expect(from12Hour(12, true)).toBe(12)
    expect(from12Hour(7, true)).toBe(19)
    expect(from12Hour(40, false)).toBe(0) // capped at 12
  })

  it('shows a 12-hour clock: hour capped at 12, arrows wrap 12→1 within the half day, the toggle flips it', () => {
    function T({ onChange }: { onChange: (v: string) => void }) {
      const [v, setV] = useState<string | null>('13:05')
      return <TimePicker twelveHour value={v} onChange={(x) => { setV(x); onChange(x) }} />
    }
    const onChange = vi.fn()
    renderWithProviders(<T onChange={onChange} />)
    const hour = screen.getByRole('spinbutton', { name: 'ساعت' })
    expect(hour).toHaveValue('۰۱')
    expect(hour).toHaveAttribute('aria-valuemax', '12')
    expect(screen.getByTestId('time-meridiem')).toHaveTextContent('ب.ظ')
    fireEvent.change(hour, { target: { value: '۱۹' } })
    expect(hour).toHaveValue('۱۲')
    expect(onChange).toHaveBeenLastCalledWith('12:05')
    fireEvent.keyDown(hour, { key: 'ArrowUp' })
    expect(onChange).toHaveBeenLastCalledWith('13:05')
    fireEvent.keyDown(hour, { key: 'ArrowDown' })
    fireEvent.keyDown(hour, { key: 'ArrowDown' })
    expect(onChange).toHaveBeenLastCalledWith('23:05')
    fireEvent.click(screen.getByTestId('time-meridiem'))
    expect(onChange).toHaveBeenLastCalledWith('11:05')
    expect(screen.getByTestId('time-meridiem')).toHaveTextContent('ق.ظ')
    fireEvent.change(hour, { target: { value: '۱۲' } })
    expect(onChange).toHaveBeenLastCalledWith('00:05')
  })
})
