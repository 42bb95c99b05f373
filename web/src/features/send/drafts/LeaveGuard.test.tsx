import { ChakraProvider } from '@chakra-ui/react'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useRef } from 'react'
import { createMemoryRouter, Link, RouterProvider } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { testSystem } from '../../../testing/render'
import { hasWork } from './useAutoDraft'
import { LeaveGuard } from './LeaveGuard'

function Wizard({ when, flush }: { when: boolean; flush: () => Promise<void> }) {
  const sent = useRef(false)
  return (
    <>
      <LeaveGuard when={when} passRef={sent} flush={flush} />
      <Link to="/reports">گزارش‌ها</Link>
      <Link to="/send-sms/quick?draft=3">پیش‌نویس</Link>
    </>
  )
}

function app(when: boolean, flush = vi.fn(() => Promise.resolve())) {
  const router = createMemoryRouter(
    [
      { path: '/send-sms/quick', element: <Wizard when={when} flush={flush} /> },
      { path: '/reports', element: <p>صفحه گزارش‌ها</p> },
    ],
    { initialEntries: ['/send-sms/quick'] },
  )
  render(
    <ChakraProvider value={testSystem}>
      <RouterProvider router={router} />
    </ChakraProvider>,
  )
  return { router, flush }
}

describe('LeaveGuard', () => {
  it('asks before a wizard holding work is left; «ماندن» stays, «خروج» saves and goes', async () => {
    const { router, flush } = app(true)
    await userEvent.click(screen.getByRole('link', { name: 'گزارش‌ها' }))
    expect(await screen.findByTestId('leave-dialog')).toBeInTheDocument()
    await userEvent.click(screen.getByTestId('leave-stay'))
    await waitFor(() => expect(screen.queryByTestId('leave-dialog')).toBeNull())
    expect(router.state.location.pathname).toBe('/send-sms/quick')
    await userEvent.click(screen.getByRole('link', { name: 'گزارش‌ها' }))
    await userEvent.click(await screen.findByTestId('leave-confirm'))
    expect(await screen.findByText('صفحه گزارش‌ها')).toBeInTheDocument()
    expect(flush).toHaveBeenCalledOnce()
  })

  it('lets an empty wizard go, and a change of query (a resumed draft) is not leaving', async () => {
    const { router } = app(true)
    await userEvent.click(screen.getByRole('link', { name: 'پیش‌نویس' }))
    expect(router.state.location.search).toBe('?draft=3')
    expect(screen.queryByTestId('leave-dialog')).toBeNull()
  })

  it('asks the browser on closing the tab only while there is work', () => {
    app(true)
    const e = new Event('beforeunload', { cancelable: true })
    window.dispatchEvent(e)
    expect(e.defaultPrevented).toBe(true)
  })

  it('does not ask without work', async () => {
    app(false)
    const e = new Event('beforeunload', { cancelable: true })
    window.dispatchEvent(e)
    expect(e.defaultPrevented).toBe(false)
    await userEvent.click(screen.getByRole('link', { name: 'گزارش‌ها' }))
    expect(await screen.findByText('صفحه گزارش‌ها')).toBeInTheDocument()
  })
})

describe('hasWork', () => {
  it('counts text and recipients, not the preselected line', () => {
    const base = { sender: '3000', advertising: false, cancel11: false, cancel11Touched: false, schedule: 'now' as const, sendAt: null, text: '' }
    expect(hasWork(base)).toBe(false)
    expect(hasWork({ ...base, text: '  ' })).toBe(false)
    expect(hasWork({ ...base, text: 'سلام' })).toBe(true)
    expect(hasWork({ ...base, numbers: ['09120000000'] })).toBe(true)
    expect(hasWork({ ...base, fileId: 4 })).toBe(true)
    expect(hasWork({ ...base, phonebookIds: [] })).toBe(false)
  })
})
