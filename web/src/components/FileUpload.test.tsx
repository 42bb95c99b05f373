import { beforeEach, describe, expect, it } from 'vitest'
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { renderWithProviders } from '../testing/render'
import { liveClient } from '../lib/useLive'
import { FileUpload } from './FileUpload'
import type { UserFile } from '../lib/files'
import { FakeXhr, stubApi, stubXhr } from '../testing/stubs'

const REPORT: UserFile = {
  id: 7, name: 'numbers.xlsx', purpose: 'send', size: 2048, status: 'ready', progress: 100, error: '',
  records: 10, valid: 6, invalid: 2, duplicates: 1, blacklisted: 1,
  columns: [{ index: 0, key: 'A', title: 'موبایل' }], mobile_col: 0, text_col: null,
  per_operator: [{ operator: 'mci', recipients: 5 }],
  errors_sample: [{ row: 3, kind: 'format', message: 'قالب شماره اشتباه است', value: '9.89121E+11' }],
  created_at: '', parsed_at: '',
}

function Harness({ onId }: { onId?: (id: unknown) => void }) {
  const [id, setId] = useState<number | string | null>(null)
  return (
    <FileUpload
      purpose="send"
      sample="send"
      fileId={id}
      onFileId={(v) => {
        setId(v)
        onId?.(v)
      }}
    />
  )
}

const emit = (msg: unknown) => (liveClient() as unknown as { emit(m: unknown): void }).emit(msg)
const pick = (name: string, size = 2048) =>
  fireEvent.change(screen.getByTestId('file-input'), { target: { files: [new File([new Uint8Array(size)], name)] } })

beforeEach(() => stubXhr())

describe('FileUpload', () => {
  it('shows upload progress, then parse progress from live events, then the ready file', async () => {
    let file: UserFile = { ...REPORT, status: 'parsing', progress: 10, records: 0 }
    stubApi({ '/user/files/7': () => file })
    renderWithProviders(<Harness />)
    pick('numbers.xlsx')

    const xhr = FakeXhr.last!
    expect(xhr.method).toBe('POST')
    expect(xhr.url).toBe('/v1/api/user/files')
    expect(xhr.body?.get('purpose')).toBe('send')
    act(() => xhr.progress(1024, 2048))
    expect(screen.getByTestId('upload-progress')).toHaveAttribute('data-loaded', '1024')
    expect(screen.getByText('۵۰٪')).toBeInTheDocument()

    act(() => xhr.answer(201, { data: { id: 7, name: 'numbers.xlsx', status: 'parsing' }, meta: { status: 201 } }))
    await screen.findByTestId('parse-progress')
    act(() => emit({ event: 'file.progress', data: { id: 7, status: 'parsing', progress: 55, records: 4000 } }))
    await waitFor(() => expect(screen.getByTestId('parse-progress')).toHaveAttribute('data-progress', '55'))
    expect(screen.getByText('۴٬۰۰۰ ردیف خوانده شد')).toBeInTheDocument()
    // An event for another file changes nothing.
    act(() => emit({ event: 'file.progress', data: { id: 8, status: 'parsing', progress: 90 } }))
    expect(screen.getByTestId('parse-progress')).toHaveAttribute('data-progress', '55')

    file = REPORT
    act(() => emit({ event: 'file.progress', data: { id: 7, status: 'ready', progress: 100, records: 10 } }))
    await screen.findByTestId('file-ready')
    expect(screen.getByText('numbers.xlsx')).toBeInTheDocument()
  })

  it('shows the server error of a refused upload and a failed parse', async () => {
    stubApi({ '/user/files/9': () => ({ ...REPORT, id: 9, status: 'failed', error: 'ستون شماره موبایل در فایل یافت نشد' }) })
    renderWithProviders(<Harness />)
    pick('big.csv')
    act(() => FakeXhr.last!.answer(413, { data: null, meta: { status: 413, message: 'حجم فایل بیش از حد مجاز است' } }))
    expect((await screen.findByTestId('file-error')).textContent).toContain('حجم فایل بیش از حد مجاز است')

    pick('other.csv')
    act(() => FakeXhr.last!.answer(201, { data: { id: 9, name: 'other.csv', status: 'parsing' }, meta: { status: 201 } }))
    await waitFor(() => expect(screen.getByTestId('file-error').textContent).toContain('ستون شماره موبایل در فایل یافت نشد'))
    expect(screen.getByTestId('file-drop')).toBeInTheDocument()
  })

  it('refuses a file it can tell is wrong without uploading it', () => {
    renderWithProviders(<Harness />)
    pick('old.xls')
    expect(FakeXhr.last).toBeNull()
    expect(screen.getByTestId('file-error').textContent).toContain('xlsx')
  })
})
