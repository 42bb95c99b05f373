import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen } from '@testing-library/react'
import { Route, Routes } from 'react-router'
import { renderWithProviders } from '../../testing/render'
import { ADMIN_TOKEN_KEY, TOKEN_KEY } from '../../lib/auth'
import AdminLoginPage from './AdminLoginPage'

function mockApi(routes: Record<string, (body: Record<string, unknown>) => [number, unknown]>) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = String(url).replace('/v1/api', '').split('?')[0]
    const [status, data] = routes[path]?.(init?.body ? JSON.parse(String(init.body)) : {}) ?? [404, null]
    return new Response(JSON.stringify({ data, meta: { status, message: status === 401 ? 'کد تایید اشتباه است' : undefined } }), { status })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

beforeEach(() => localStorage.clear())

describe('AdminLoginPage', () => {
  it('always asks for the code and keeps the staff token apart from the customer token', async () => {
    mockApi({
      '/admin/auth/login': () => [200, { otp_required: true, login_token: 'lt', mobile_hint: '0912***0099' }],
      '/admin/auth/confirm_otp': (b) => (b.code === '123456' ? [200, { token: 'staff-tok' }] : [401, null]),
    })
    renderWithProviders(
      <Routes>
        <Route path="/admin/login" element={<AdminLoginPage />} />
        <Route path="/admin/reviews" element={<p>queues</p>} />
      </Routes>,
      { route: '/admin/login' },
    )
    fireEvent.change(screen.getByTestId('admin-username'), { target: { value: 'admin' } })
    fireEvent.change(screen.getByTestId('admin-password'), { target: { value: 'Admin@12345' } })
    fireEvent.click(screen.getByTestId('admin-login-submit'))
    fireEvent.change(await screen.findByTestId('admin-otp'), { target: { value: '111111' } })
    fireEvent.click(screen.getByTestId('admin-otp-submit'))
    expect(await screen.findByText('کد تایید اشتباه است')).toBeInTheDocument()
    fireEvent.change(screen.getByTestId('admin-otp'), { target: { value: '۱۲۳۴۵۶' } })
    fireEvent.click(screen.getByTestId('admin-otp-submit'))
    expect(await screen.findByText('queues')).toBeInTheDocument()
    expect(localStorage.getItem(ADMIN_TOKEN_KEY)).toBe('staff-tok')
    expect(localStorage.getItem(TOKEN_KEY)).toBeNull()
  })
})
