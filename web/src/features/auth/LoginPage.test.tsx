import { beforeEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { Route, Routes } from 'react-router'
import { renderWithProviders } from '../../testing/render'
import LoginPage from './LoginPage'

type Handler = (body: Record<string, unknown>) => [number, unknown, Record<string, unknown>?]

function mockApi(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const path = String(url).replace('/v1/api', '').split('?')[0]
    const handler = routes[path]
    const [status, data, meta] = handler ? handler(init?.body ? JSON.parse(String(init.body)) : {}) : [404, null]
    return new Response(JSON.stringify({ data, meta: { status, ...meta } }), { status })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

const OTP = { otp_required: true, login_token: 'lt', methods: ['sms', 'voice', 'app'], resend_after: 120, method: 'sms', mobile_hint: '0912***4567' }

function renderLogin() {
  return renderWithProviders(
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route path="/dashboard" element={<p>dashboard</p>} />
    </Routes>,
    { route: '/login' },
  )
}

async function submitCredentials() {
  fireEvent.change(screen.getByTestId('login-username'), { target: { value: 'ali' } })
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Secret@123' } })
  fireEvent.click(screen.getByTestId('login-submit'))
  await screen.findByTestId('otp-code')
}

beforeEach(() => localStorage.clear())

describe('LoginPage', () => {
  it('shows the branded description and logs in without a second step', async () => {
    mockApi({
      '/acl/auth/login_setting': () => [200, { title: 'چاپار', description: 'توضیح برند' }],
      '/acl/auth/login': () => [200, { token: 'tok1' }],
    })
    renderLogin()
    expect((await screen.findAllByText('توضیح برند')).length).toBeGreaterThan(0)
    fireEvent.change(screen.getByTestId('login-username'), { target: { value: 'demo' } })
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Demo@12345' } })
    fireEvent.click(screen.getByTestId('login-submit'))
    await screen.findByText('dashboard')
    expect(localStorage.getItem('token')).toBe('tok1')
  })

  it('asks for the code, accepts Persian digits and stores the token', async () => {
    const fetchMock = mockApi({
      '/acl/auth/login_setting': () => [200, {}],
      '/acl/auth/login': () => [200, OTP],
      '/acl/auth/confirm_otp': (b) => (b.code === '1234' && b.login_token === 'lt' ? [200, { token: 'tok2' }] : [422, null, { errors: { code: ['کد اشتباه است'] } }]),
    })
    renderLogin()
    await submitCredentials()
    expect(screen.getByTestId('otp-hint')).toHaveTextContent('۰۹۱۲***۴۵۶۷')
    expect(screen.getByTestId('otp-countdown')).toBeInTheDocument()
    fireEvent.change(screen.getByTestId('otp-code'), { target: { value: '۱۲۳۴' } })
    fireEvent.click(screen.getByTestId('otp-submit'))
    await screen.findByText('dashboard')
    expect(localStorage.getItem('token')).toBe('tok2')
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('confirm_otp'))).toBe(true)
  })

  it('switching to a voice call resends the code with that method', async () => {
    const fetchMock = mockApi({
      '/acl/auth/login_setting': () => [200, {}],
      '/acl/auth/login': () => [200, OTP],
      '/acl/auth/send_sms_otp': () => [200, { resend_after: 60 }],
    })
    renderLogin()
    await submitCredentials()
    fireEvent.click(screen.getByTestId('otp-method-voice'))
    await waitFor(() => {
      const call = fetchMock.mock.calls.find(([u]) => String(u).includes('send_sms_otp'))
      expect(call && JSON.parse(String(call[1]?.body))).toEqual({ login_token: 'lt', method: 'voice' })
    })
  })

  it('an expired code (401 otp-timeout) asks to log in again without logging out', async () => {
    mockApi({
      '/acl/auth/login_setting': () => [200, {}],
      '/acl/auth/login': () => [200, OTP],
      '/acl/auth/confirm_otp': () => [401, null, { message: 'زمان کد تایید به پایان رسیده است', message_code: 'otp-timeout' }],
    })
    renderLogin()
    await submitCredentials()
    fireEvent.change(screen.getByTestId('otp-code'), { target: { value: '5555' } })
    fireEvent.click(screen.getByTestId('otp-submit'))
    await screen.findByTestId('otp-restart')
    expect(screen.getByText('زمان کد تایید به پایان رسیده است')).toBeInTheDocument()
    fireEvent.click(screen.getByText('ورود مجدد'))
    expect(await screen.findByTestId('login-username')).toBeInTheDocument()
  })

  it('shows a wrong-password message from the server', async () => {
    mockApi({
      '/acl/auth/login_setting': () => [200, {}],
      '/acl/auth/login': () => [401, null, { message: 'نام کاربری یا رمز عبور اشتباه است' }],
    })
    renderLogin()
    fireEvent.change(screen.getByTestId('login-username'), { target: { value: 'x' } })
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'y' } })
    fireEvent.click(screen.getByTestId('login-submit'))
    expect(await screen.findByTestId('login-error')).toHaveTextContent('نام کاربری یا رمز عبور اشتباه است')
  })

  it('sends the stored device token with the login and keeps the one the answer carries', async () => {
    localStorage.setItem('device_token', 'dev-old')
    const fetchMock = mockApi({
      '/acl/auth/login_setting': () => [200, {}],
      '/acl/auth/login': () => [200, { token: 'tok3', device_token: 'dev-new' }],
    })
    renderLogin()
    fireEvent.change(screen.getByTestId('login-username'), { target: { value: 'demo' } })
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Demo@12345' } })
    fireEvent.click(screen.getByTestId('login-submit'))
    await screen.findByText('dashboard')
    const call = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/acl/auth/login'))
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ username: 'demo', password: 'Demo@12345', device_token: 'dev-old' })
    expect(localStorage.getItem('device_token')).toBe('dev-new')
  })

  it('logs in with a one-time code: a mobile in Persian digits, the neutral answer, the code, the device token', async () => {
    localStorage.setItem('device_token', 'dev1')
    const MESSAGE = 'اگر این نام کاربری یا شماره همراه در چاپار ثبت شده باشد، رمز پیامک شد'
    const fetchMock = mockApi({
      '/acl/auth/login_setting': () => [200, {}],
      '/acl/auth/login_otp': () => [200, { otp_required: true, login_token: 'cl', methods: ['sms', 'voice'], method: 'sms', resend_after: 120, message: MESSAGE }],
      '/acl/auth/confirm_otp': (b) => (b.code === '123456' && b.login_token === 'cl' && b.device_token === 'dev1' ? [200, { token: 'tok4', device_token: 'dev1' }] : [422, null, { errors: { code: ['کد تایید اشتباه است'] } }]),
    })
    renderLogin()
    fireEvent.click(screen.getByTestId('login-mode-code'))
    fireEvent.click(await screen.findByTestId('code-login-submit'))
    expect(await screen.findByText('نام کاربری یا شماره همراه را وارد کنید')).toBeInTheDocument()
    fireEvent.change(screen.getByTestId('code-login-username'), { target: { value: '۰۹۱۲ ۱۲۳ ۴۵۶۷' } })
    fireEvent.click(screen.getByTestId('code-login-submit'))
    await screen.findByTestId('otp-code')
    const call = fetchMock.mock.calls.find(([u]) => String(u).includes('login_otp'))
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ username: '0912 123 4567', device_token: 'dev1' })
    expect(screen.getByTestId('otp-hint')).toHaveTextContent(MESSAGE)
    expect(screen.getByTestId('otp-method-voice')).toBeInTheDocument()
    expect(screen.getByTestId('otp-code')).toHaveAttribute('autocomplete', 'one-time-code')
    fireEvent.change(screen.getByTestId('otp-code'), { target: { value: '۱۲۳۴۵۶' } })
    fireEvent.click(screen.getByTestId('otp-submit'))
    await screen.findByText('dashboard')
    expect(localStorage.getItem('token')).toBe('tok4')
    expect(localStorage.getItem('login_mode')).toBe('code')
  })

  it('shows a code login refused by the lock-out', async () => {
    mockApi({
      '/acl/auth/login_setting': () => [200, {}],
      '/acl/auth/login_otp': () => [429, null, { message: 'به دلیل تلاش‌های ناموفق زیاد، ورود به این حساب موقتا بسته است', message_code: 'login-locked' }],
    })
    localStorage.setItem('login_mode', 'code')
    renderLogin()
    fireEvent.change(await screen.findByTestId('code-login-username'), { target: { value: 'ali' } })
    fireEvent.click(screen.getByTestId('code-login-submit'))
    expect(await screen.findByTestId('code-login-error')).toHaveTextContent('ورود به این حساب موقتا بسته است')
  })

  it('explains invitations and links to «پذیرش دعوت»', () => {
    mockApi({})
    renderLogin()
    const help = screen.getByTestId('invite-help')
    expect(help).toHaveTextContent('کد دعوت برایتان پیامک شده')
    expect(screen.getByRole('link', { name: 'دعوت‌نامه دارید؟' })).toHaveAttribute('href', '/accept-invite')
  })
})
