import { describe, expect, it } from 'vitest'
import { fireEvent, screen } from '@testing-library/react'
import { Route, Routes } from 'react-router'
import { renderWithProviders, testClient } from '../../testing/render'
import { failRefresh, stubApi } from '../../testing/stubs'
import TicketDetailsPage from './TicketDetailsPage'

const TICKET = {
  id: 7, number: 1007, kind: 'ticket', category_id: 1, category: 'فنی', sub_category_id: null, sub_category: '',
  title: 'تأخیر در تحویل', state: 2, state_label: 'در انتظار پاسخ کارشناس', rating: null, rating_comment: '',
  assigned_to: null, assigned_name: '', account_id: 3, account_name: 'فروشگاه', created_at: '2026-11-20T08:00:00Z',
  updated_at: '2026-11-20T08:00:00Z', closed_at: null, notice: '',
  interactions: [{ id: 1, staff: false, author: 'علی', text: 'پیامک‌ها دیر می‌رسند', rating: null, created_at: '2026-11-20T08:00:00Z', attachments: [] }],
}

describe('TicketDetailsPage', () => {
  it('keeps the conversation and a reply being typed when a refresh fails, with a note', async () => {
    stubApi({ '/ticket/show/7': () => TICKET })
    const queryClient = testClient()
    renderWithProviders(
      <Routes>
        <Route path="/support/tickets/:id" element={<TicketDetailsPage />} />
      </Routes>,
      { route: '/support/tickets/7', queryClient },
    )
    fireEvent.change(await screen.findByTestId('reply-text'), { target: { value: 'هنوز هم دیر می‌رسد' } })
    await failRefresh(queryClient, '/ticket/show/7', ['support'])
    expect(await screen.findByTestId('stale-note')).toBeInTheDocument()
    expect(screen.getByText('پیامک‌ها دیر می‌رسند')).toBeInTheDocument()
    expect(screen.getByTestId('reply-text')).toHaveValue('هنوز هم دیر می‌رسد')
  })
})
