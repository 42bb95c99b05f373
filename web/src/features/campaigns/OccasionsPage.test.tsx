import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderWithProviders } from '../../testing/render'
import { stubApi, stubDesktop } from '../../testing/stubs'
import OccasionsPage from './OccasionsPage'

const tomorrow = new Date(Date.now() + 86_400_000)
tomorrow.setSeconds(0, 0)

const day = (on: string, jalali: string, contacts: number) => ({ on, jalali, occasion: jalali, contacts })
const WEEK = [
  day('2025-03-20', '1403/12/30', 0), day('2025-03-21', '1404/01/01', 2), day('2025-03-22', '1404/01/02', 0), day('2025-03-23', '1404/01/03', 0),
  day('2025-03-24', '1404/01/04', 1), day('2025-03-25', '1404/01/05', 0), day('2025-03-26', '1404/01/06', 0),
]

function api() {
  return stubApi({
    '/number/numbers': () => [{ id: 1, number: '3000111', kind: 'service', is_default: true }],
    '/phonebooks/options': () => [{ id: 9, title_fa: 'سالگرد ازدواج', title_en: 'wedding', type: 'date', enabled: true }],
    '/phonebooks/options/list-new': () => [{ label: 'مشتریان', value: 3 }],
    '/phonebooks/numbers/count': () => ({ count: 40, unique: 40, blacklisted: 0 }),
    '/send/campaigns': () => [
      {
        id: 5, title: 'تبریک تولد', type: 'phonebook', sender: '3000111', text: '{name} عزیز، تولدت مبارک', cancel11: false,
        source: { phonebook_ids: [3] }, occasion: { field: 'birth_date', days_before: 0 }, schedule: { kind: 'daily', time: '09:00' },
        enabled: true, next_run_at: tomorrow.toISOString(), last_run_at: '2025-03-21T05:30:00Z', runs: 1, failed_runs: 0,
        created_at: '2025-03-20T06:30:00Z',
        last_run: { at: '2025-03-21T05:30:00Z', status: 'sent', send_id: 77, send_status: 'done', recipients: 3 },
      },
    ],
    '/send/campaigns/run-today': () => ({ id: 88, status: 'queued', price: 1230 }),
    '/send/campaigns/5/runs': () => [{ at: '2025-03-22T05:30:00Z', send_id: null, status: 'empty', error: '' }],
    '/send/occasions/upcoming': () => ({ days: WEEK, next: WEEK[1] }),
    '/send/calculate-price': (body) => {
      const b = body as { occasion?: { on?: string } }
      if (b.occasion?.on !== '2025-03-21') throw new Error(`quoted the wrong day: ${JSON.stringify(body)}`)
      return { recipients: 2, price: 2460, parts: 1, preview: [{ mobile: '09121237001', text: 'آقای علی عزیز، تولدت مبارک', parts: 1, price: 1230 }] }
    },
  })
}

beforeEach(() => stubDesktop())

describe('occasion messages', () => {
  it('lists occasions with their day, next send and last run, and sends today on demand', async () => {
    const calls = api()
    renderWithProviders(<OccasionsPage />, { route: '/send-sms/occasions' })
    expect(await screen.findByText(/تاریخ تولد · در روز مناسبت · هر روز ساعت ۰۹:۰۰/)).toBeInTheDocument()
    expect(screen.getByTestId('occasion-last-5')).toHaveTextContent('ارسال به ۳ مخاطب')
    expect(calls.find((c) => c.path === '/send/campaigns')?.url).toContain('kind=occasion')
    fireEvent.click(screen.getByRole('button', { name: 'اجراها' }))
    expect(await screen.findByText('بدون مخاطب')).toBeInTheDocument()
    expect(screen.getByText(/هیچ مخاطبی در این روز مناسبت نداشت/)).toBeInTheDocument()
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })
    fireEvent.click(screen.getByTestId('occasion-today-5'))
    fireEvent.click(await screen.findByTestId('occasion-today-confirm'))
    await waitFor(() => expect(calls.find((c) => c.path === '/send/campaigns/run-today')?.body).toEqual({ id: 5 }))
  })

  it('refuses an unknown tag before saving, previews the next occasion day and saves a daily occasion', async () => {
    const calls = api()
    renderWithProviders(<OccasionsPage />, { route: '/send-sms/occasions' })
    fireEvent.click(await screen.findByTestId('occasion-new'))
    const form = await screen.findByTestId('occasion-form')
    fireEvent.change(screen.getByTestId('occasion-title'), { target: { value: 'تبریک تولد' } })
    fireEvent.click(within(form).getByRole('combobox', { name: 'خط ارسال' }))
    fireEvent.click(await screen.findByRole('option', { name: /۳۰۰۰۱۱۱/ }))
    fireEvent.click(within(form).getByRole('combobox', { name: 'دفترچه‌های تلفن' }))
    fireEvent.click(await screen.findByRole('option', { name: 'مشتریان' }))
    fireEvent.change(within(form).getByRole('textbox', { name: 'متن پیامک' }), { target: { value: '{title} {nmae} عزیز' } })
    fireEvent.click(screen.getByTestId('occasion-save'))
    expect(await screen.findByText(/برچسب «{nmae}» در دفترچه تلفن تعریف نشده است/)).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/send/campaigns' && c.body)).toBe(false)

    fireEvent.change(within(form).getByRole('textbox', { name: 'متن پیامک' }), { target: { value: '{title} {name} عزیز، تولدت مبارک' } })
    expect(await screen.findByTestId('occasion-next')).toHaveTextContent('نزدیک‌ترین ارسال: ۱ فروردین ۱۴۰۴ به ۲ مخاطب')
    expect(screen.getByText('مخاطبان دارای مناسبت در ۷ روز آینده: ۳')).toBeInTheDocument()
    expect(await screen.findByText('آقای علی عزیز، تولدت مبارک')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/send/occasions/upcoming')?.body).toEqual({ phonebook_ids: [3], occasion: { field: 'birth_date', days_before: 0 } })

    fireEvent.click(screen.getByTestId('occasion-save'))
    await waitFor(() => expect(calls.find((c) => c.path === '/send/campaigns' && c.body)?.body).toEqual({
      title: 'تبریک تولد', type: 'phonebook', sender: '3000111', text: '{title} {name} عزیز، تولدت مبارک', cancel11: false,
      phonebook_ids: [3], schedule: { kind: 'daily', time: '09:00' }, enabled: true, occasion: { field: 'birth_date', days_before: 0 },
    }))
  })
})
