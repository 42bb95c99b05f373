import { beforeEach, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { Route, Routes } from 'react-router'
import { renderWithProviders } from '../../../testing/render'
import type { UserFile } from '../../../lib/files'
import { FakeXhr, stubApi, stubDesktop, stubXhr } from '../../../testing/stubs'
import FileSendPage from './FileSendPage'
import KeywordSendPage from '../keyword/KeywordSendPage'

const FILE: UserFile = {
  id: 7, name: 'numbers.xlsx', purpose: 'send', size: 2048, status: 'ready', progress: 100, error: '',
  records: 10, valid: 6, invalid: 2, duplicates: 2, blacklisted: 1,
  columns: [{ index: 0, key: 'A', title: 'موبایل' }, { index: 1, key: 'B', title: 'نام' }], mobile_col: 0, text_col: null,
  per_operator: [{ operator: 'mci', recipients: 3 }, { operator: 'irancell', recipients: 2 }],
  errors_sample: [], created_at: '', parsed_at: '',
}
const QUOTE = {
  parts: 1, encoding: 'ucs2', characters: 10, chars_left: 60, recipients: 5, requested: 10, duplicates: 2, blacklisted: 1, price: 21150,
  per_operator: [{ operator: 'mci', recipients: 3, parts: 3, price: 12690 }, { operator: 'irancell', recipients: 2, parts: 2, price: 8460 }],
}

function routes() {
  return stubApi({
    '/number/numbers': () => [{ id: 1, number: '3000111', kind: 'advertising', is_default: true }],
    '/user/files/7': () => FILE,
    '/send/calculate-price': () => QUOTE,
    '/send': () => ({ id: 99, status: 'queued', price: 21150 }),
  })
}

function render(path: string, page: React.ReactNode) {
  renderWithProviders(
    <Routes>
      <Route path={path} element={page} />
      <Route path="/send-sms/success-send/:id" element={<div data-testid="success" />} />
    </Routes>,
    { route: path },
  )
}

async function uploadReadyFile() {
  await screen.findByTestId('sender-3000111')
  fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File(['x'], 'numbers.xlsx')] } })
  act(() => FakeXhr.last!.answer(201, { data: { id: 7, name: 'numbers.xlsx', status: 'parsing' }, meta: { status: 201 } }))
  await screen.findByTestId('preflight')
}

beforeEach(() => {
  stubXhr()
  stubDesktop()
})
describe('file send wizard', () => {
  it('upload → pre-flight → text → price → POST /send → success page', async () => {
    const calls = routes()
    render('/send-sms/file', <FileSendPage />)
    await screen.findByTestId('file-step-0')
    fireEvent.click(await screen.findByTestId('wizard-next'))
    expect(await screen.findByText('فایل گیرندگان را بارگذاری کنید')).toBeInTheDocument()

    await uploadReadyFile()
    expect(screen.getByTestId('preflight-sendable')).toHaveAttribute('data-value', '5')
    expect(screen.getByTestId('preflight-duplicates')).toHaveAttribute('data-value', '2')
    fireEvent.click(screen.getByTestId('wizard-next'))

    await screen.findByTestId('file-step-1')
    fireEvent.click(screen.getByTestId('wizard-next'))
    expect(await screen.findByText('متن پیامک را وارد کنید')).toBeInTheDocument()
    fireEvent.change(screen.getByTestId('message').querySelector('textarea')!, { target: { value: 'سلام دنیا' } })
    fireEvent.click(screen.getByTestId('wizard-next'))

    await screen.findByTestId('file-step-2')
    expect((await screen.findByTestId('quote-price')).textContent).toBe('۲۱٬۱۵۰ ریال')
    expect(screen.getByTestId('quote-operators').textContent).toContain('ایرانسل')
    expect(screen.getByTestId('quote-skipped').textContent).toContain('۲ شماره تکراری')
    expect(calls.find((c) => c.path === '/send/calculate-price')?.body).toEqual({ type: 'file', sender: '3000111', cancel11: true, file_id: 7, text: 'سلام دنیا', send_at: null })

    fireEvent.click(screen.getByTestId('wizard-send'))
    await screen.findByTestId('success')
    expect(calls.find((c) => c.path === '/send')?.body).toEqual({ type: 'file', sender: '3000111', cancel11: true, file_id: 7, text: 'سلام دنیا', send_at: null })
  })

  it('keyword: column tags go into the text and the preview shows the header titles', async () => {
    const calls = routes()
    render('/send-sms/keyword', <KeywordSendPage />)
    await uploadReadyFile()
    fireEvent.click(screen.getByTestId('wizard-next'))
    await screen.findByTestId('keyword-step-1')
    expect(screen.getByTestId('keyword-columns').textContent).toContain('نام')
    const textarea = screen.getByTestId('message').querySelector('textarea')!
    fireEvent.change(textarea, { target: { value: 'سلام ' } })
    textarea.setSelectionRange(5, 5)
    fireEvent.click(screen.getByRole('button', { name: 'درج برچسب ex_B' }))
    await waitFor(() => expect(textarea.value).toBe('سلام {ex_B}'))

    fireEvent.change(textarea, { target: { value: 'سلام {ex_B} {ex_Z}' } })
    fireEvent.click(screen.getByTestId('wizard-next'))
    expect((await screen.findByText(/با ستون‌های فایل مطابقت ندارند/)).textContent).toContain('{ex_Z}')
    fireEvent.change(textarea, { target: { value: 'سلام {ex_B}' } })
    fireEvent.click(screen.getByTestId('wizard-next'))

    await screen.findByTestId('keyword-step-2')
    expect(screen.getByTestId('review-text').textContent).toContain('سلام «نام»')
    await screen.findByTestId('quote-price')
    expect(calls.find((c) => c.path === '/send/calculate-price')?.body).toMatchObject({ type: 'keyword', file_id: 7, text: 'سلام {ex_B}' })
  })
})
