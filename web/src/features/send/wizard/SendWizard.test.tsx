import { screen } from '@testing-library/react'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders, setViewport } from '../../../testing/render'
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
