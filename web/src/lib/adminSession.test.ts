import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api, setUnauthorizedHandler } from './api'
import { ADMIN_TOKEN_KEY, TOKEN_KEY } from './auth'

const fetchMock = vi.fn<typeof fetch>()
const ok = () => new Response(JSON.stringify({ data: {}, meta: { status: 200 } }), { status: 200 })

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock)
  localStorage.clear()
  localStorage.setItem(TOKEN_KEY, 'customer')
  localStorage.setItem(ADMIN_TOKEN_KEY, 'staff')
})
afterEach(() => {
  fetchMock.mockReset()
  setUnauthorizedHandler(null)
})

const authOf = (call: number) => (fetchMock.mock.calls[call][1]?.headers as Record<string, string>).Authorization

describe('staff and customer sessions stay apart', () => {
  it('back-office calls carry the staff token, the panel the customer token', async () => {
    fetchMock.mockImplementation(async () => ok())
    await api.get('/admin/reviews')
    await api.get('/report/new_list')
    expect(authOf(0)).toBe('Bearer staff')
    expect(authOf(1)).toBe('Bearer customer')
  })

  it('a refused back-office call does not log the customer out', async () => {
    const onUnauthorized = vi.fn()
    setUnauthorizedHandler(onUnauthorized)
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ data: null, meta: { status: 401 } }), { status: 401 }))
    await expect(api.post('/admin/auth/confirm_otp', {})).rejects.toThrow()
    expect(onUnauthorized).not.toHaveBeenCalled()
  })
})
