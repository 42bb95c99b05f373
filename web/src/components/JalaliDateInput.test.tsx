import { fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { formatJalaliDateTime, jalaliText, parseJalali } from '../lib/jalali'
import { renderWithProviders } from '../testing/render'
import { calendarYears, JalaliCalendar, monthGrid } from './JalaliCalendar'
import { JalaliDateInput, JalaliDateTimeInput } from './JalaliDateInput'
import { composeTime, TimePicker, timeInRange } from './TimePicker'

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
    await userEvent.type(input, '۱۴۰۴۰۱۰')
    expect(input).toHaveValue('۱۴۰۴/۰۱/۰')
    expect(onChange).not.toHaveBeenCalled()
    await userEvent.type(input, '۵')
    expect(input).toHaveValue('۱۴۰۴/۰۱/۰۵')
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('value')).toHaveTextContent('1404/01/05')
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
    renderWithProviders(<Harness withTime />)
    const input = screen.getByRole('textbox', { name: 'تاریخ ارسال' })
    await userEvent.type(input, '140401052875')
    expect(input).toHaveValue('۱۴۰۴/۰۱/۰۵ ۲۳:۵۹')
    expect(screen.getByTestId('value')).toHaveTextContent('1404/01/05 23:59')
    await userEvent.click(screen.getByRole('button', { name: '۶ فروردین ۱۴۰۴' }))
    expect(screen.getByTestId('value')).toHaveTextContent('1404/01/06 23:59')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'تایید' }))
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
})
