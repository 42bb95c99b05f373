import { fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../testing/render'
import { stubApi } from '../testing/stubs'
import { MessageEditor } from './MessageEditor'

const GROUPS = [{ id: 1, title: 'تبریک', messages: 2, created_at: '2025-03-21T06:30:00Z' }]
const MESSAGES = [
  { id: 7, group_id: 1, group_title: 'تبریک', title: 'نوروز', text: 'نوروزتان پیروز', updated_at: '2025-03-21T06:30:00Z' },
  { id: 8, group_id: 1, group_title: 'تبریک', title: 'تولد', text: 'تولدتان مبارک', updated_at: '2025-03-21T06:30:00Z' },
]

function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial)
  return <MessageEditor value={value} onChange={setValue} predefined showCancel11={false} />
}

describe('MessageEditor «درج متن آماده»', () => {
  it('previews the chosen message and inserts it at the caret', async () => {
    const calls = stubApi({
      '/user/predefined/group/list': () => GROUPS,
      '/user/predefined/list': () => MESSAGES,
    })
    renderWithProviders(<Harness initial="سلام  عزیز" />)
    const area = screen.getByRole('textbox', { name: 'متن پیامک' }) as HTMLTextAreaElement
    area.setSelectionRange(5, 5) // between the two spaces
    await userEvent.click(screen.getByTestId('predefined-open'))
    await userEvent.click(await screen.findByTestId('predefined-option-8'))
    expect(screen.getByTestId('predefined-preview')).toHaveTextContent('تولدتان مبارک')
    await userEvent.click(screen.getByTestId('predefined-insert'))
    await waitFor(() => expect(area.value).toBe('سلام تولدتان مبارک عزیز'))
    expect(screen.queryByTestId('predefined-picker')).not.toBeInTheDocument()
    expect(calls.some((c) => c.path === '/user/predefined/group/list')).toBe(true)
  }, 20_000)

  it('searches and narrows by group through the API', async () => {
    const calls = stubApi({
      '/user/predefined/group/list': () => GROUPS,
      '/user/predefined/list': () => [],
    })
    renderWithProviders(<Harness initial="" />)
    await userEvent.click(screen.getByTestId('predefined-open'))
    expect(await screen.findByText('موردی یافت نشد')).toBeInTheDocument()
    await userEvent.click(await screen.findByRole('button', { name: /تبریک/ }))
    fireEvent.change(screen.getByLabelText('جستجو در پیام‌های آماده'), { target: { value: 'نوروز' } })
    await waitFor(() => {
      const last = calls.filter((c) => c.path === '/user/predefined/list').at(-1)
      expect(last?.url).toContain('group_id=1')
      expect(decodeURIComponent(last?.url ?? '')).toContain('search=نوروز')
    })
    expect(screen.getByTestId('predefined-insert')).toBeDisabled()
  }, 20_000)
})
