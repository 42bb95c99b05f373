import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { api, buildUrl, downloadFile, fileNameFrom, isUnauthorizedExempt, request, setUnauthorizedHandler } from './api'
import { ACCESS_LIMITED, ApiError, GENERIC_ERROR, errorDisplay, errorText } from './apiError'

function envelope(status: number, data: unknown, meta: Record<string, unknown> = {}) {
  return new Response(JSON.stringify({ data, meta: { status, ...meta } }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
}

const fetchMock = vi.fn<typeof fetch>()

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock)
  localStorage.clear()
})
afterEach(() => {
  fetchMock.mockReset()
  setUnauthorizedHandler(null)
})

describe('errorText — spec §8 display rule', () => {
  it('500 always shows the generic text, even with errors and message', () => {
    const err = new ApiError({ status: 500, message: 'boom', errors: { a: ['x'] } })
    expect(errorText(err)).toBe(GENERIC_ERROR)
  })

  it('joins the unique field errors with line breaks', () => {
    const err = new ApiError({
      status: 422,
      message: 'ignored',
      errors: { username: ['نام کاربری تکراری است', 'کوتاه است'], mobile: ['کوتاه است'] },
    })
    expect(errorText(err)).toBe('نام کاربری تکراری است\nکوتاه است')
    expect(errorDisplay(err).html).toBe(true)
  })

  it('falls back to meta.message, then to the generic text', () => {
    expect(errorText(new ApiError({ status: 409, message: 'تکراری' }))).toBe('تکراری')
    expect(errorText(new ApiError({ status: 404 }))).toBe(GENERIC_ERROR)
    expect(errorText(new ApiError({ status: 422, errors: { a: [] } }))).toBe(GENERIC_ERROR)
  })

  it('a response-less failure, an unknown error and a plain string', () => {
    expect(errorText(new ApiError({ status: 0 }))).toBe(GENERIC_ERROR)
    expect(errorText(new TypeError('x'))).toBe(GENERIC_ERROR)
    expect(errorText('متن ساده')).toBe('متن ساده')
    expect(errorDisplay('متن ساده').html).toBe(false)
  })

  it('403 with message_code 403-8 shows the access-limited text', () => {
    const err = new ApiError({ status: 403, message: 'forbidden', messageCode: '403-8' })
    expect(errorText(err)).toBe(ACCESS_LIMITED)
    expect(errorText(new ApiError({ status: 403, message: 'ممنوع' }))).toBe('ممنوع')
  })

  it('accepts a single string per field', () => {
    const err = new ApiError({ status: 422, errors: { code: 'کد اشتباه است' } })
    expect(err.fieldError('code')).toBe('کد اشتباه است')
  })
})

describe('request', () => {
  it('sends the bearer token and unwraps data and meta', async () => {
    localStorage.setItem('token', 'abc')
    fetchMock.mockResolvedValueOnce(envelope(200, [{ id: 1 }], { page: 2, limit: 5, total: 11 }))
    const page = await api.page<{ id: number }>('/report/new_list', { page: 2, limit: 5, status: '' })
    expect(page).toEqual({ rows: [{ id: 1 }], meta: { page: 2, limit: 5, total: 11 } })
    const [url, init] = fetchMock.mock.calls[0]
    expect(url).toBe('/v1/api/report/new_list?page=2&limit=5')
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer abc')
  })

  it('posts JSON with extra headers', async () => {
    fetchMock.mockResolvedValueOnce(envelope(201, { id: 9 }))
    const data = await api.post<{ id: number }>('/send', { text: 'سلام' }, { 'Idempotency-Key': 'k1' })
    expect(data).toEqual({ id: 9 })
    const init = fetchMock.mock.calls[0][1]!
    expect(init.method).toBe('POST')
    expect(init.body).toBe('{"text":"سلام"}')
    expect((init.headers as Record<string, string>)['Idempotency-Key']).toBe('k1')
  })

  it('throws ApiError with status, message, code and errors', async () => {
    fetchMock.mockResolvedValueOnce(
      envelope(422, null, { message: 'نامعتبر', message_code: 'v', errors: { name: ['الزامی'] } }),
    )
    const err = (await request('/user/register', { method: 'POST', body: {} }).catch((e) => e)) as ApiError
    expect(err).toBeInstanceOf(ApiError)
    expect(err.status).toBe(422)
    expect(err.messageCode).toBe('v')
    expect(err.errors).toEqual({ name: ['الزامی'] })
  })

  it('a network failure becomes status 0; a non-JSON error body is tolerated', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    const e1 = (await api.get('/x').catch((e) => e)) as ApiError
    expect(e1.status).toBe(0)
    fetchMock.mockResolvedValueOnce(new Response('<html>bad gateway</html>', { status: 502 }))
    const e2 = (await api.get('/x').catch((e) => e)) as ApiError
    expect(e2.status).toBe(502)
    expect(errorText(e2)).toBe(GENERIC_ERROR)
  })

  it('builds URLs without empty parameters and with arrays', () => {
    expect(buildUrl('/a', { x: undefined, y: null, z: '', n: 0, l: ['1', '2'] })).toBe('/v1/api/a?n=0&l=1&l=2')
  })
})

describe('401 handling', () => {
  it('a 401 from an ordinary call runs the unauthorized handler', async () => {
    const onUnauthorized = vi.fn()
    setUnauthorizedHandler(onUnauthorized)
    fetchMock.mockResolvedValueOnce(envelope(401, null, { message: 'توکن نامعتبر' }))
    await expect(api.get('/payment/credit/mine')).rejects.toBeInstanceOf(ApiError)
    expect(onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it.each([
    '/acl/auth/login',
    '/acl/auth/send_sms_otp',
    '/acl/auth/confirm_otp',
    '/acl/auth/forgot_password_check_otp',
    '/acl/auth/change_password_by_token',
    '/user/check_exist',
    '/user/register/verify',
    '/acl/auth/external_login',
  ])('%s is exempt', async (path) => {
    const onUnauthorized = vi.fn()
    setUnauthorizedHandler(onUnauthorized)
    fetchMock.mockResolvedValueOnce(envelope(401, null, { message: 'کد اشتباه', message_code: 'otp-timeout' }))
    const err = (await api.post(path, {}).catch((e) => e)) as ApiError
    expect(err.status).toBe(401)
    expect(err.messageCode).toBe('otp-timeout')
    expect(onUnauthorized).not.toHaveBeenCalled()
  })

  it('exemption matches the exact path only', () => {
    expect(isUnauthorizedExempt('/acl/auth/login?x=1')).toBe(true)
    expect(isUnauthorizedExempt('/acl/auth/logout')).toBe(false)
    expect(isUnauthorizedExempt('/acl/auth/check_token')).toBe(false)
    expect(isUnauthorizedExempt('/user/register')).toBe(false)
  })

  it('other error statuses do not log out', async () => {
    const onUnauthorized = vi.fn()
    setUnauthorizedHandler(onUnauthorized)
    fetchMock.mockResolvedValueOnce(envelope(403, null, { message_code: '403-8' }))
    const err = await api.get('/acl/partner/role_list').catch((e) => e)
    expect(errorText(err)).toBe(ACCESS_LIMITED)
    expect(onUnauthorized).not.toHaveBeenCalled()
  })
})

describe('downloads', () => {
  it('reads the file name from Content-Disposition', () => {
    expect(fileNameFrom('attachment; filename="report-5.xlsx"')).toBe('report-5.xlsx')
    expect(fileNameFrom("attachment; filename*=UTF-8''%DA%AF%D8%B2%D8%A7%D8%B1%D8%B4.xlsx")).toBe('گزارش.xlsx')
    expect(fileNameFrom(null)).toBeUndefined()
  })

  it('throws the envelope error of a failed download', async () => {
    fetchMock.mockResolvedValueOnce(envelope(404, null, { message: 'پیدا نشد' }))
    await expect(downloadFile('/report/download_recipients', { id: 1 }, 'x.xlsx')).rejects.toThrow('پیدا نشد')
  })

  it('reports the bytes received of a streamed download', async () => {
    const chunks = [new Uint8Array(3), new Uint8Array(5)]
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        chunks.forEach((x) => c.enqueue(x))
        c.close()
      },
    })
    fetchMock.mockResolvedValueOnce(new Response(body, { status: 200, headers: { 'Content-Type': 'application/octet-stream' } }))
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }))
    const seen: Array<[number, number]> = []
    await downloadFile('/user/audit/export', {}, 'a.xlsx', (received, total) => seen.push([received, total]))
    expect(seen).toEqual([[0, 0], [3, 0], [8, 0]])
  })
})

describe('noAuthRedirect', () => {
  it('leaves a 401 to the caller', async () => {
    const onUnauthorized = vi.fn()
    setUnauthorizedHandler(onUnauthorized)
    fetchMock.mockResolvedValueOnce(envelope(401, null))
    await expect(request('/acl/auth/check_token', { noAuthRedirect: true })).rejects.toBeInstanceOf(ApiError)
    expect(onUnauthorized).not.toHaveBeenCalled()
  })
})
