import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { toaster } from '../../../lib/toaster'
import { appClient, renderWithProviders, setViewport } from '../../../testing/render'
import { stubApi } from '../../../testing/stubs'
import { EMPTY_DRAFT } from '../quick/draft'
import { SendWizard } from './SendWizard'

const STEPS = ['گیرندگان', 'متن پیام', 'بازبینی و ارسال'] as const

function wizard(loading: boolean) {
  const resume = { draftId: 7, loading, error: null, retry: () => undefined }
  return (
    <SendWizard
      steps={STEPS}
      testId="quick"
      stepErrors={() => ({})}
      priceBody={{ to: [], text: '', sender: '' } as never}
      sendBody={() => ({}) as never}
      scheduled={false}
      draft={{ type: 'quick', state: EMPTY_DRAFT, resume }}
    >
      {() => <p>گام</p>}
    </SendWizard>
  )
}

describe('SendWizard resuming a draft', () => {
  beforeEach(() => setViewport(false))

  // A click on «مرحله بعد» before the draft arrives would judge an empty step, and
  // a save would overwrite the draft with it.
  it('holds next and save until the draft has loaded', () => {
    renderWithProviders(wizard(true))
    expect(screen.getByText('در حال بارگذاری پیش‌نویس')).toBeTruthy()
    expect((screen.getByTestId('wizard-next') as HTMLButtonElement).disabled).toBe(true)
    expect((screen.getByTestId('wizard-save-draft') as HTMLButtonElement).disabled).toBe(true)
  })

  it('lets both go once it has', () => {
    renderWithProviders(wizard(false))
    expect(screen.getByText('گام')).toBeTruthy()
    expect((screen.getByTestId('wizard-next') as HTMLButtonElement).disabled).toBe(false)
    expect((screen.getByTestId('wizard-save-draft') as HTMLButtonElement).disabled).toBe(false)
  })
})

describe('SendWizard, a scheduled send outside its sending hours', () => {
  beforeEach(() => setViewport(false))
  const next = '2026-12-07T03:30:00Z' // 07:00 in Tehran
  const quote = {
    parts: 1, encoding: 'ucs2', characters: 5, recipients: 1, price: 4000, per_operator: [],
    send_hours: { open: false, next_allowed_at: next, window: { from: '07:00', to: '22:00' }, note: 'ارسال از خط تبلیغاتی فقط از ساعت ۰۷:۰۰ تا ۲۲:۰۰ به وقت تهران مجاز است' },
  }

  function scheduledWizard(onSendAt: (at: Date) => void, price = quote) {
    const calls = stubApi({ '/send/calculate-price': () => price })
    renderWithProviders(
      <SendWizard steps={STEPS} testId="quick" stepErrors={() => ({})} priceBody={{ text: 'x', numbers: [], cancel11: true, sender: '3000', send_at: '2026-12-06T20:00:00Z' }}
        sendBody={() => ({}) as never} scheduled onSendAt={onSendAt}>
        {() => <p>گام</p>}
      </SendWizard>,
    )
    fireEvent.click(screen.getByTestId('wizard-next'))
    fireEvent.click(screen.getByTestId('wizard-next'))
    return calls
  }

  // The quote is asked for the send's time; outside the hours the review offers the next
  // allowed time, which becomes the send's time.
  it('offers the next allowed time on the review step', async () => {
    const onSendAt = vi.fn()
    const calls = scheduledWizard(onSendAt)
    const offer = await screen.findByTestId('outside-hours')
    expect(offer.textContent).toContain('۰۷:۰۰')
    expect(calls.find((c) => c.path === '/send/calculate-price')?.body).toMatchObject({ send_at: '2026-12-06T20:00:00Z' })
    fireEvent.click(screen.getByTestId('use-next-allowed'))
    expect(onSendAt).toHaveBeenCalledWith(new Date(next))
  })

  it('offers nothing inside the hours', async () => {
    scheduledWizard(vi.fn(), { ...quote, send_hours: { ...quote.send_hours, open: true } })
    // The send button waits for the quote: once it may be pressed, the quote is in.
    await waitFor(() => expect((screen.getByTestId('wizard-send') as HTMLButtonElement).disabled).toBe(false))
    expect(screen.queryByTestId('outside-hours')).toBeNull()
  })
})

describe('SendWizard, a send made outside its sending hours', () => {
  beforeEach(() => setViewport(false))
  afterEach(() => vi.restoreAllMocks())

  // The refusal is a question (hold until the window opens?), asked once: not a toast as well.
  it('asks whether to hold it, without a toast', async () => {
    const refusal = 'ارسال از خط تبلیغاتی فقط از ساعت ۰۷:۰۰ تا ۲۲:۰۰ به وقت تهران مجاز است'
    vi.stubGlobal('fetch', vi.fn(async (url: string) => {
      const path = String(url).split('?')[0].replace('/v1/api', '')
      const envelope = (status: number, data: unknown, meta: object = {}) =>
        new Response(JSON.stringify({ data, meta: { status, ...meta } }), { status })
      if (path === '/send/calculate-price') return envelope(200, { parts: 1, encoding: 'ucs2', characters: 1, recipients: 1, price: 4000, per_operator: [] })
      return envelope(422, { open: false, next_allowed_at: '2026-12-07T03:30:00Z', window: { from: '07:00', to: '22:00' }, note: refusal },
        { message: refusal, message_code: 'outside-send-hours' })
    }))
    const toast = vi.spyOn(toaster, 'create')
    renderWithProviders(
      <SendWizard steps={STEPS} testId="quick" stepErrors={() => ({})} priceBody={{ text: 'x', numbers: [], cancel11: true, sender: '3000' }}
        sendBody={() => ({}) as never} scheduled={false}>
        {() => <p>گام</p>}
      </SendWizard>,
      { queryClient: appClient() },
    )
    fireEvent.click(screen.getByTestId('wizard-next'))
    fireEvent.click(screen.getByTestId('wizard-next'))
    await waitFor(() => expect((screen.getByTestId('wizard-send') as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(screen.getByTestId('wizard-send'))
    expect(await screen.findByTestId('hold-until-window')).toBeTruthy()
    expect(toast).not.toHaveBeenCalled()
  })
})

describe('SendWizard on a phone', () => {
  beforeEach(() => setViewport(true))

  // «مرحله قبل», «پیش‌نویس» and the long «ثبت ارسال زمان‌بندی‌شده» overflow a 390 px bar:
  // the page then scrolls sideways. A phone gets the short label.
  it('labels the send of a scheduled send briefly', async () => {
    stubApi({ '/send/calculate-price': () => ({ parts: 1, encoding: 'ucs2', characters: 1, recipients: 1, price: 4000, per_operator: [] }) })
    renderWithProviders(
      <SendWizard steps={STEPS} testId="quick" stepErrors={() => ({})} priceBody={{ text: 'x', numbers: [], cancel11: true, sender: '3000' }}
        sendBody={() => ({}) as never} scheduled draft={{ type: 'quick', state: EMPTY_DRAFT, resume: { draftId: null, loading: false, error: null, retry: () => undefined } }}>
        {() => <p>گام</p>}
      </SendWizard>,
    )
    fireEvent.click(screen.getByTestId('wizard-next'))
    fireEvent.click(screen.getByTestId('wizard-next'))
    expect(screen.getByTestId('wizard-send').textContent).toBe(' ثبت زمان‌بندی')
  })
})
