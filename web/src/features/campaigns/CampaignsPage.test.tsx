import { beforeEach, describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { renderWithProviders } from '../../testing/render'
import { stubApi, stubDesktop } from '../../testing/stubs'
import CampaignsPage from './CampaignsPage'

const tomorrow = new Date(Date.now() + 86_400_000)
tomorrow.setSeconds(0, 0)

function api() {
  return stubApi({
    '/number/numbers': () => [{ id: 1, number: '3000111', kind: 'service', is_default: true }],
    '/send/scheduled': () => [{ id: 31, type: 'file', sender: '3000111', text: 'سلام فردا', recipients: 120, price: 507600, send_at: tomorrow.toISOString(), campaign_id: null }],
    '/send/campaigns': () => [
      {
        id: 4, title: 'یادآوری اقساط', type: 'phonebook', sender: '3000111', text: 'قسط', cancel11: false, source: { phonebook_ids: [2] },
        schedule: { kind: 'monthly', time: '09:00', month_days: [1, 15] }, enabled: true, next_run_at: tomorrow.toISOString(),
        last_run_at: null, runs: 3, failed_runs: 1, created_at: '2025-03-21T06:30:00Z',
      },
    ],
    '/send/cancel': () => ({ id: 31, status: 'stopped', refunded: 507600 }),
    '/send/scheduled/update': () => ({}),
    '/send/campaigns/toggle': () => ({}),
    '/send/campaigns/4/runs': () => [{ at: '2025-03-21T05:30:00Z', send_id: 77, status: 'sent', error: '' }, { at: '2025-04-04T05:30:00Z', send_id: null, status: 'failed', error: 'اعتبار کافی نیست' }],
    '/send/campaigns/delete': () => ({}),
  })
}

beforeEach(() => stubDesktop())

describe('scheduled sends', () => {
  it('cancels a scheduled send with its refund after confirmation', async () => {
    const calls = api()
    renderWithProviders(<CampaignsPage />, { route: '/send-sms/campaigns' })
    fireEvent.click(await screen.findByTestId('scheduled-cancel-31'))
    expect(await screen.findByText(/۵۰۷٬۶۰۰ ریال به کیف پول شما بازمی‌گردد/)).toBeInTheDocument()
    fireEvent.click(screen.getByTestId('scheduled-cancel-confirm'))
    await waitFor(() => expect(calls.find((c) => c.path === '/send/cancel')?.body).toEqual({ id: 31 }))
  })

  it('moves a scheduled send to a new time and text', async () => {
    const calls = api()
    renderWithProviders(<CampaignsPage />, { route: '/send-sms/campaigns' })
    fireEvent.click(await screen.findByTestId('scheduled-edit-31'))
    const dialog = await screen.findByRole('dialog')
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'متن پیامک' }), { target: { value: 'سلام پس‌فردا' } })
    fireEvent.click(screen.getByTestId('scheduled-save'))
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/send/scheduled/update')?.body).toEqual({ id: 31, send_at: tomorrow.toISOString(), text: 'سلام پس‌فردا' }),
    )
  })
})

describe('recurring campaigns', () => {
  it('lists campaigns with their Jalali schedule, toggles one and shows its runs', async () => {
    const calls = api()
    renderWithProviders(<CampaignsPage />, { route: '/send-sms/campaigns?tab=1' })
    expect(await screen.findByText('هر ماه روز ۱ و ۱۵ ساعت ۰۹:۰۰')).toBeInTheDocument()
    expect(screen.getByText('۱ ناموفق')).toBeInTheDocument()
    fireEvent.click(within(screen.getByTestId('campaign-toggle-4')).getByRole('checkbox'))
    await waitFor(() => expect(calls.find((c) => c.path === '/send/campaigns/toggle')?.body).toEqual({ id: 4, enabled: false }))

    fireEvent.click(screen.getByRole('button', { name: 'اجراها' }))
    expect(await screen.findByText('اعتبار کافی نیست')).toBeInTheDocument()
    expect(screen.getByText('گزارش ارسال ۷۷')).toBeInTheDocument()
  })

  it('creates a weekly campaign to typed numbers', async () => {
    const calls = api()
    renderWithProviders(<CampaignsPage />, { route: '/send-sms/campaigns?tab=1' })
    fireEvent.click(await screen.findByTestId('campaign-new'))
    await screen.findByTestId('campaign-form')
    fireEvent.click(screen.getByTestId('campaign-save'))
    expect(await screen.findByText('عنوان کمپین را وارد کنید')).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/send/campaigns' && c.body)).toBe(false)

    fireEvent.change(screen.getByTestId('campaign-title'), { target: { value: 'خبرنامه هفتگی' } })
    fireEvent.click(screen.getByRole('combobox', { name: 'خط ارسال' }))
    fireEvent.click(await screen.findByRole('option', { name: /۳۰۰۰۱۱۱/ }))
    const phone = screen.getByTestId('campaign-form').querySelector('input[type="tel"]')!
    fireEvent.change(phone, { target: { value: '09121234567' } })
    fireEvent.keyDown(phone, { key: 'Enter' })
    fireEvent.change(screen.getByRole('textbox', { name: 'متن پیامک' }), { target: { value: 'خبر تازه' } })
    fireEvent.click(screen.getByTestId('campaign-kind-weekly'))
    fireEvent.click(await screen.findByRole('button', { name: 'شنبه' }))
    fireEvent.click(screen.getByRole('button', { name: 'چهارشنبه' }))
    fireEvent.click(screen.getByTestId('campaign-save'))
    await waitFor(() => expect(calls.find((c) => c.path === '/send/campaigns' && c.body)?.body).toEqual({
      title: 'خبرنامه هفتگی', type: 'quick', sender: '3000111', text: 'خبر تازه', cancel11: false, enabled: true,
      numbers: ['989121234567'], schedule: { kind: 'weekly', time: '09:00', weekdays: [0, 4] },
    }))
  })
})
