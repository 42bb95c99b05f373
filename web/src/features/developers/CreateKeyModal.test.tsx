import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../testing/render'
import { CreateKeyModal } from './CreateKeyModal'

const SCOPES = [{ key: 'send', title: 'ارسال پیامک', group: 'send', group_title: 'ارسال' }]

function mockApi() {
  const fetchMock = vi.fn(async (url: string) => {
    const path = String(url).replace('/v1/api', '').split('?')[0]
    const data = path === '/acl/api_key/scopes' ? SCOPES : path === '/acl/api_key/otp' ? { otp_token: 'ot', mobile_hint: '0912***4567' } : null
    return new Response(JSON.stringify({ data, meta: { status: 200 } }), { status: 200 })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

afterEach(() => vi.unstubAllGlobals())

describe('CreateKeyModal', () => {
  it('goes back from the code step to the form as it was filled in', async () => {
    const onClose = vi.fn()
    mockApi()
    renderWithProviders(<CreateKeyModal open onClose={onClose} />)
    fireEvent.change(await screen.findByTestId('apikey-title'), { target: { value: 'فروشگاه' } })
    fireEvent.change(screen.getByTestId('apikey-ips'), { target: { value: '10.0.0.1' } })
    await userEvent.click(screen.getByRole('checkbox', { name: 'ارسال پیامک' }))
    await userEvent.click(screen.getByTestId('apikey-send-otp'))
    await screen.findByTestId('apikey-otp-step')
    await userEvent.click(screen.getByTestId('apikey-code-back'))
    expect(await screen.findByTestId('apikey-form')).toBeInTheDocument()
    expect(onClose).not.toHaveBeenCalled()
    expect(screen.getByTestId('apikey-title')).toHaveValue('فروشگاه')
    expect(screen.getByTestId('apikey-ips')).toHaveValue('10.0.0.1')
    expect(screen.getByRole('checkbox', { name: 'ارسال پیامک' })).toBeChecked()
    expect(screen.getByTestId('apikey-send-otp')).toHaveTextContent('دریافت کد تایید')
  })
})
