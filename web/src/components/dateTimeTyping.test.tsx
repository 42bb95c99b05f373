import { screen, waitFor, within } from '@testing-library/react'
import base from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { jalaliText, parseJalali } from '../lib/jalali'
import { renderWithProviders } from '../testing/render'
import { JalaliDateInput, JalaliDateTimeInput } from './JalaliDateInput'
import { parseTimeText, TimePicker } from './TimePicker'

// Every date and time field of the panel is one of these three components (schedule
// steps, campaigns, scheduled sends, report filters, contacts, API keys, secretaries,
// offline payments): each takes a typed, pasted and picked value in Persian and Latin digits.

function Time({ initial = '08:00', twelveHour = false }: { initial?: string | null; twelveHour?: boolean }) {
  const [v, setV] = useState<string | null>(initial)
  return (
    <>
      <TimePicker value={v} onChange={setV} twelveHour={twelveHour} />
      <output data-testid="time">{v ?? 'none'}</output>
    </>
  )
}

function DateHarness({ withTime = false, initial = null }: { withTime?: boolean; initial?: Date | null }) {
  const [value, setValue] = useState<Date | null>(initial)
  const Field = withTime ? JalaliDateTimeInput : JalaliDateInput
  return (
    <>
      <Field aria-label="تاریخ" value={value} onChange={setValue} />
      <output data-testid="value">{value ? jalaliText(value, withTime) : 'none'}</output>
      <button>بیرون</button>
    </>
  )
}

// No pause between keystrokes (delay: null): the calendar re-renders on each one, and
// on a loaded machine the default pauses add up.
const userEvent = base.setup({ delay: null })
// A generous safety net for a loaded machine; nothing here waits on time.
const SLOW = { timeout: 90_000 }

const hourBox = () => screen.getByRole('spinbutton', { name: 'ساعت' })
const minuteBox = () => screen.getByRole('spinbutton', { name: 'دقیقه' })

describe('TimePicker typing', () => {
  it.each([['Latin', '10', '45'], ['Persian', '۱۰', '۴۵']])('takes a typed hour of two digits (%s)', SLOW, async (_, h, m) => {
    renderWithProviders(<Time />)
    await userEvent.click(hourBox())
    await userEvent.keyboard(h)
    expect(screen.getByTestId('time')).toHaveTextContent('10:00')
    expect(minuteBox()).toHaveFocus()
    await userEvent.keyboard(m)
    expect(screen.getByTestId('time')).toHaveTextContent('10:45')
    await userEvent.tab()
    expect(hourBox()).toHaveValue('۱۰')
    expect(minuteBox()).toHaveValue('۴۵')
  })

  it('moves on after an hour digit no second digit can follow', SLOW, async () => {
    renderWithProviders(<Time />)
    await userEvent.click(hourBox())
    await userEvent.keyboard('7')
    expect(minuteBox()).toHaveFocus()
    await userEvent.keyboard('05')
    expect(screen.getByTestId('time')).toHaveTextContent('07:05')
  })

  it('takes a typed hour on a 12-hour clock', SLOW, async () => {
    renderWithProviders(<Time initial="13:00" twelveHour />)
    await userEvent.click(hourBox())
    await userEvent.keyboard('۱۱')
    expect(screen.getByTestId('time')).toHaveTextContent('23:00')
  })

  it.each([['۱۰:۳۰'], ['10:30'], ['1030']])('takes a pasted time %s in either box', SLOW, async (pasted) => {
    renderWithProviders(<Time />)
    await userEvent.click(hourBox())
    await userEvent.paste(pasted)
    expect(screen.getByTestId('time')).toHaveTextContent('10:30')
    expect(hourBox()).toHaveValue('۱۰')
    expect(minuteBox()).toHaveValue('۳۰')
    await userEvent.click(minuteBox())
    await userEvent.paste('۲۱:۰۵')
    expect(screen.getByTestId('time')).toHaveTextContent('21:05')
  })

  it('reads whole times', SLOW, () => {
    expect(parseTimeText('۹:۵')).toBe('09:05')
    expect(parseTimeText('٢٣.٥٩')).toBe('23:59')
    expect(parseTimeText('24:00')).toBeNull()
    expect(parseTimeText('abc')).toBeNull()
  })
})

describe('date fields: typed, pasted and picked', () => {
  it.each([['Latin', '14040215'], ['Persian', '۱۴۰۴۰۲۱۵']])('a date typed in %s digits', SLOW, async (_, typed) => {
    renderWithProviders(<DateHarness />)
    const input = screen.getByRole('textbox', { name: 'تاریخ' })
    await userEvent.type(input, typed)
    await userEvent.keyboard('{Enter}')
    expect(screen.getByTestId('value')).toHaveTextContent('1404/02/15')
    expect(input).toHaveValue('۱۴۰۴/۰۲/۱۵')
  })

  it.each([['۱۴۰۴/۲/۱۵'], ['1404-02-15'], ['1404/02/15']])('a pasted date %s replaces the text and applies', SLOW, async (pasted) => {
    renderWithProviders(<DateHarness initial={parseJalali('1403/01/01')} />)
    const input = screen.getByRole('textbox', { name: 'تاریخ' })
    await userEvent.click(input)
    await userEvent.paste(pasted)
    expect(screen.getByTestId('value')).toHaveTextContent('1404/02/15')
    expect(input).toHaveValue('۱۴۰۴/۰۲/۱۵')
  })

  it('a date and time typed in the text box', SLOW, async () => {
    renderWithProviders(<DateHarness withTime />)
    const input = screen.getByRole('textbox', { name: 'تاریخ' })
    await userEvent.type(input, '۱۴۰۴۰۲۱۵۱۰۳۰')
    await userEvent.keyboard('{Enter}')
    expect(screen.getByTestId('value')).toHaveTextContent('1404/02/15 10:30')
  })

  it('a pasted date and time', SLOW, async () => {
    renderWithProviders(<DateHarness withTime />)
    await userEvent.click(screen.getByRole('textbox', { name: 'تاریخ' }))
    await userEvent.paste('۱۴۰۴/۰۲/۱۵ ۲۲:۴۰')
    expect(screen.getByTestId('value')).toHaveTextContent('1404/02/15 22:40')
  })

  it('a picked day, then the hour «10» typed in the popup time picker (not 01:00)', SLOW, async () => {
    renderWithProviders(<DateHarness withTime initial={parseJalali('1404/02/15 08:00')} />)
    await userEvent.click(screen.getByRole('textbox', { name: 'تاریخ' }))
    const dialog = screen.getByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: '۲۰ اردیبهشت ۱۴۰۴' }))
    expect(screen.getByTestId('value')).toHaveTextContent('1404/02/20 08:00')
    await userEvent.click(within(dialog).getByRole('spinbutton', { name: 'ساعت' }))
    await userEvent.keyboard('۱۰')
    await userEvent.keyboard('۱۵')
    expect(screen.getByTestId('value')).toHaveTextContent('1404/02/20 10:15')
    await userEvent.click(within(dialog).getByRole('button', { name: 'تایید' }))
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'تاریخ' })).toHaveValue('۱۴۰۴/۰۲/۲۰ ۱۰:۱۵'))
  })
})
