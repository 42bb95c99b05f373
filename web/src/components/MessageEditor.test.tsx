import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../testing/render'
import { ADVERTISING_CANCEL11_REASON, counterText, footerPartWarning, insertLimited, MessageEditor, type MessageEditorProps } from './MessageEditor'

function Harness(props: Partial<MessageEditorProps> & { initial?: string }) {
  const { initial = '', ...rest } = props
  const [value, setValue] = useState(initial)
  const [cancel11, setCancel11] = useState(props.cancel11 ?? false)
  return <MessageEditor value={value} onChange={setValue} cancel11={cancel11} onCancel11Change={setCancel11} {...rest} />
}

const area = () => screen.getByRole('textbox', { name: 'متن پیامک' })

describe('MessageEditor helpers', () => {
  it('builds the counter line', () => {
    expect(counterText('', false)).toBe('تعداد کاراکتر: ۰ | بخش‌ها: ۰ | باقیمانده تا بخش بعد: ۱۶۰')
    expect(counterText('سلام دنیا خوب', false)).toBe('تعداد کاراکتر: ۱۳ | بخش‌ها: ۱ | باقیمانده تا بخش بعد: ۵۷')
    expect(counterText('hello', true)).toBe('تعداد کاراکتر: ۱۱ | بخش‌ها: ۱ | باقیمانده تا بخش بعد: ۵۹')
  })

  it('inserts within the limit without halving an emoji', () => {
    expect(insertLimited('abcd', 'XYZ', 2, 2, 6)).toEqual({ text: 'abXYcd', caret: 4 })
    expect(insertLimited('ab', '😀😀', 1, 2, 2)).toEqual({ text: 'a😀', caret: 3 })
    expect(insertLimited('abc', 'Z', 0, 3, 5)).toEqual({ text: 'Z', caret: 1 })
  })
})

describe('MessageEditor', () => {
  it('updates the counter as the text changes', async () => {
    renderWithProviders(<Harness />)
    expect(screen.getByText('تعداد کاراکتر: ۰ | بخش‌ها: ۰ | باقیمانده تا بخش بعد: ۱۶۰')).toBeInTheDocument()
    await userEvent.type(area(), 'سلام')
    expect(screen.getByText('تعداد کاراکتر: ۴ | بخش‌ها: ۱ | باقیمانده تا بخش بعد: ۶۶')).toBeInTheDocument()
    fireEvent.change(area(), { target: { value: 'a'.repeat(161) } })
    expect(screen.getByText('تعداد کاراکتر: ۱۶۱ | بخش‌ها: ۲ | باقیمانده تا بخش بعد: ۱۴۵')).toBeInTheDocument()
  })

  it('counts the cancel-11 footer when switched on', async () => {
    renderWithProviders(<Harness initial="hello" />)
    expect(screen.getByText(/تعداد کاراکتر: ۵ \|/)).toBeInTheDocument()
    await userEvent.click(screen.getByRole('checkbox', { name: /لغو۱۱/ }))
    expect(screen.getByText('تعداد کاراکتر: ۱۱ | بخش‌ها: ۱ | باقیمانده تا بخش بعد: ۵۹')).toBeInTheDocument()
  })

  it('pastes plain text truncated to the maximum total', () => {
    renderWithProviders(<Harness initial="abc" maxLength={10} />)
    const el = area() as HTMLTextAreaElement
    el.setSelectionRange(3, 3)
    fireEvent.paste(el, { clipboardData: { getData: (type: string) => (type === 'text/plain' ? '0123456789' : '<b>x</b>') } })
    expect(el).toHaveValue('abc0123456')
  })

  it('truncates typed text at 2700 characters', () => {
    renderWithProviders(<Harness />)
    fireEvent.change(area(), { target: { value: 'س'.repeat(2800) } })
    expect((area() as HTMLTextAreaElement).value).toHaveLength(2700)
    expect(screen.getByText('۲۷۰۰ / ۲۷۰۰')).toBeInTheDocument()
  })

  it('inserts keyword tags at the caret', async () => {
    renderWithProviders(<Harness initial="سلام " keywords={[{ keyword: 'نام', col: 1 }]} />)
    const el = area() as HTMLTextAreaElement
    el.setSelectionRange(5, 5)
    const tag = screen.getByRole('button', { name: 'درج برچسب نام' })
    expect(tag).toHaveAttribute('title', 'ستون ex_1')
    fireEvent.click(tag)
    expect(el).toHaveValue('سلام {نام}')
  })

  it('shows the cancel-11 state read-only without a handler', () => {
    const onChange = vi.fn()
    renderWithProviders(<MessageEditor value="" onChange={onChange} cancel11 />)
    const sw = screen.getByRole('checkbox', { name: /لغو۱۱/ })
    expect(sw).toBeChecked()
    expect(sw).toBeDisabled()
    expect(screen.getByText('تعداد کاراکتر: ۰ | بخش‌ها: ۰ | باقیمانده تا بخش بعد: ۱۶۰')).toBeInTheDocument()
  })

  it('counts an empty text as nothing, the footer only once there is text', async () => {
    renderWithProviders(<Harness cancel11 />)
    expect(screen.getByText('تعداد کاراکتر: ۰ | بخش‌ها: ۰ | باقیمانده تا بخش بعد: ۱۶۰')).toBeInTheDocument()
    await userEvent.type(area(), 'a')
    expect(screen.getByText('تعداد کاراکتر: ۷ | بخش‌ها: ۱ | باقیمانده تا بخش بعد: ۶۳')).toBeInTheDocument()
  })

  it('warns when the footer makes the message one part longer', async () => {
    expect(footerPartWarning('س'.repeat(64), true)).toBeNull()
    expect(footerPartWarning('س'.repeat(65), false)).toBeNull()
    expect(footerPartWarning('س'.repeat(65), true)).toBe('افزودن «لغو۱۱» پیامک را ۲ بخشی می‌کند')
    renderWithProviders(<Harness initial={'س'.repeat(65)} />)
    expect(screen.queryByTestId('cancel11-warning')).toBeNull()
    await userEvent.click(screen.getByRole('checkbox', { name: /لغو۱۱/ }))
    expect(screen.getByTestId('cancel11-warning')).toHaveTextContent('افزودن «لغو۱۱» پیامک را ۲ بخشی می‌کند')
    await userEvent.click(screen.getByRole('checkbox', { name: /لغو۱۱/ }))
    expect(screen.queryByTestId('cancel11-warning')).toBeNull()
  })

  it('says why the footer is locked on an advertising line', () => {
    renderWithProviders(<MessageEditor value="سلام" onChange={vi.fn()} cancel11 cancel11LockedReason={ADVERTISING_CANCEL11_REASON} />)
    const sw = screen.getByRole('checkbox', { name: /لغو۱۱/ })
    expect(sw).toBeDisabled()
    expect(screen.getByTestId('cancel11-locked')).toHaveTextContent('مقررات اپراتورها الزامی')
    expect(sw).toHaveAccessibleDescription(ADVERTISING_CANCEL11_REASON)
  })

  it('says how much of a long paste was cut and the limit', () => {
    renderWithProviders(<Harness />)
    const el = area() as HTMLTextAreaElement
    expect(screen.queryByTestId('text-cut')).toBeNull()
    fireEvent.paste(el, { clipboardData: { getData: () => 'س'.repeat(3000) } })
    expect(el.value).toHaveLength(2700)
    expect(screen.getByTestId('text-cut')).toHaveTextContent('۳۰۰ کاراکتر از متن حذف شد؛ متن پیامک حداکثر ۲٬۷۰۰ کاراکتر است.')
    fireEvent.change(el, { target: { value: 'سلام' } })
    expect(screen.queryByTestId('text-cut')).toBeNull()
  })
})
