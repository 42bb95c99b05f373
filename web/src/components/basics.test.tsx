import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../testing/render'
import { Drawer, Modal, SideModal } from './Overlays'
import { ProgressBar, progressPercent } from './ProgressBar'
import { EmptyState, ErrorState, LoadingState } from './States'
import { getStepStatus, WizardStepper } from './WizardStepper'

describe('state components', () => {
  it('shows the Persian empty, error and loading texts', async () => {
    const retry = vi.fn()
    renderWithProviders(
      <>
        <EmptyState />
        <ErrorState onRetry={retry} />
        <LoadingState />
      </>,
    )
    expect(screen.getByText('لیست خالی است')).toBeInTheDocument()
    expect(screen.getByText('خطا در دریافت اطلاعات')).toBeInTheDocument()
    expect(screen.getByText('در حال بارگذاری')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'تلاش مجدد' }))
    expect(retry).toHaveBeenCalledOnce()
  })
})

describe('ProgressBar', () => {
  it('caps the percentage at 100', () => {
    expect(progressPercent(150)).toBe(100)
    expect(progressPercent(-5)).toBe(0)
    expect(progressPercent(5, 20)).toBe(25)
    expect(progressPercent(5, 0)).toBe(0)
  })

  it('renders a capped progressbar with a Persian label', () => {
    renderWithProviders(<ProgressBar value={300} max={200} label="ارسال شده" showValue />)
    const bar = screen.getByRole('progressbar')
    expect(bar).toHaveAttribute('aria-valuenow', '100')
    expect(screen.getByText('۱۰۰٪')).toBeInTheDocument()
  })
})

describe('WizardStepper', () => {
  it('derives step statuses', () => {
    expect([0, 1, 2].map((i) => getStepStatus(i, 1, 3))).toEqual(['done', 'current', 'pending'])
    expect(getStepStatus(2, 2, 3, 'success')).toBe('success')
    expect(getStepStatus(2, 2, 3, 'failure')).toBe('failure')
    expect(getStepStatus(2, 1, 3, 'failure')).toBe('pending')
  })

  it('marks the current step', () => {
    renderWithProviders(<WizardStepper current={1} />)
    const items = within(screen.getByRole('list', { name: 'مراحل ارسال' })).getAllByRole('listitem')
    expect(items).toHaveLength(3)
    expect(items[1]).toHaveAttribute('aria-current', 'step')
    expect(items[0]).toHaveAttribute('data-status', 'done')
    expect(items[2]).toHaveTextContent('۳')
  })

  it('shows failure on the last step', () => {
    renderWithProviders(<WizardStepper current={2} result="failure" />)
    expect(screen.getAllByRole('listitem')[2]).toHaveAttribute('data-status', 'failure')
    expect(screen.getByText(/ناموفق/)).toBeInTheDocument()
  })
})

describe('overlays', () => {
  it('opens a modal with a Persian close button', async () => {
    const onClose = vi.fn()
    renderWithProviders(
      <Modal open onClose={onClose} title="عنوان" footer={<button>تایید</button>}>
        محتوا
      </Modal>,
    )
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByText('محتوا')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'بستن' }))
    expect(onClose).toHaveBeenCalled()
  })

  it('renders the bottom sheet and side modal sizes', async () => {
    renderWithProviders(
      <>
        <Drawer open onClose={() => {}} title="برگه پایین">الف</Drawer>
        <SideModal open onClose={() => {}} title="پنل کناری" size="lg">ب</SideModal>
      </>,
    )
    const dialogs = await screen.findAllByRole('dialog')
    expect(dialogs).toHaveLength(2)
    const side = dialogs.find((d) => d.getAttribute('data-size') === 'lg')
    expect(side).toBeDefined()
    expect(screen.getByText('برگه پایین')).toBeInTheDocument()
  })

  it('renders nothing while closed', () => {
    renderWithProviders(<Modal open={false} onClose={() => {}} title="بسته">x</Modal>)
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })
})
