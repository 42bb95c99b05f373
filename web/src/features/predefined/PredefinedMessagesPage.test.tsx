import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../testing/render'
import { stubApi } from '../../testing/stubs'
import PredefinedMessagesPage from './PredefinedMessagesPage'

const GROUP = { id: 4, title: 'تبریک', messages: 3, created_at: '2025-03-21T06:30:00Z' }
const COUNTS = { groups: 1, messages: 3, drafts: 2 }

beforeEach(() => localStorage.setItem('token', 't'))
afterEach(() => {
  localStorage.clear()
})

describe('PredefinedMessagesPage', () => {
  it('lists the groups with their counts and creates a group', async () => {
    const calls = stubApi({
      '/acl/list': () => ({ is_owner: true, reseller_id: 1, permissions: [] }),
      '/user/predefined/group/list': () => [GROUP],
      '/user/predefined/group/count': () => COUNTS,
      '/user/predefined/group': (body) => ({ ...GROUP, id: 5, ...(body as object), messages: 0 }),
    })
    renderWithProviders(<PredefinedMessagesPage />, { route: '/predefined-messages' })
    expect((await screen.findAllByText('تبریک')).length).toBeGreaterThan(0)
    expect(screen.getByTestId('predefined-count-messages')).toHaveTextContent('۳')
    await userEvent.click(await screen.findByTestId('predefined-new-group'))
    await userEvent.click(screen.getByTestId('predefined-group-save'))
    expect(await screen.findByText('عنوان را وارد کنید')).toBeInTheDocument()
    await userEvent.type(screen.getByTestId('predefined-group-title'), '  یادآوری ')
    await userEvent.click(screen.getByTestId('predefined-group-save'))
    await waitFor(() => expect(calls.find((c) => c.path === '/user/predefined/group')?.body).toEqual({ title: 'یادآوری' }))
  }, 20_000) // userEvent typing on a loaded 2-core machine outlasts the 5 s default

  it('hides the manage buttons from a role that only reads, and shows the empty state', async () => {
    stubApi({
      '/acl/list': () => ({ is_owner: false, reseller_id: 1, permissions: ['predefined.view'] }),
      '/user/predefined/group/list': () => [],
      '/user/predefined/group/count': () => ({ groups: 0, messages: 0, drafts: 0 }),
    })
    renderWithProviders(<PredefinedMessagesPage />, { route: '/predefined-messages' })
    expect(await screen.findByText(/هنوز گروهی نساخته‌اید/)).toBeInTheDocument()
    expect(screen.queryByTestId('predefined-new-group')).not.toBeInTheDocument()
  })

  it('shows the error state when the list fails', async () => {
    stubApi({ '/user/predefined/group/count': () => COUNTS })
    renderWithProviders(<PredefinedMessagesPage />, { route: '/predefined-messages' })
    expect(await screen.findByText('خطا در دریافت اطلاعات')).toBeInTheDocument()
  })
})
