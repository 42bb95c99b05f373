import { fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../testing/render'
import { isAllowedPhoneKey, NumberEntry, type NumberEntryProps } from './NumberEntry'

function Harness(props: Partial<NumberEntryProps> & { initial?: string[]; spy?: (v: string[]) => void }) {
  const { initial = [], spy, ...rest } = props
  const [value, setValue] = useState<string[]>(initial)
  return <NumberEntry label="گیرندگان" {...rest} value={value} onChange={(v) => { setValue(v); spy?.(v) }} />
}

const field = () => screen.getByRole('textbox', { name: 'گیرندگان' })

describe('NumberEntry', () => {
  it('allows only digit and editing keys', () => {
    expect(isAllowedPhoneKey({ key: '5', ctrlKey: false, metaKey: false })).toBe(true)
    expect(isAllowedPhoneKey({ key: '۵', ctrlKey: false, metaKey: false })).toBe(true)
    expect(isAllowedPhoneKey({ key: 'a', ctrlKey: false, metaKey: false })).toBe(false)
    expect(isAllowedPhoneKey({ key: 'v', ctrlKey: true, metaKey: false })).toBe(true)
    expect(isAllowedPhoneKey({ key: 'Backspace', ctrlKey: false, metaKey: false })).toBe(true)
  })

  it('adds a number on Enter, converting Persian digits, and shows it as a chip', async () => {
    const spy = vi.fn()
    renderWithProviders(<Harness validateMobile spy={spy} />)
    fireEvent.change(field(), { target: { value: '۰۹۱۲۱۲۳۴۵۶۷' } })
    expect(field()).toHaveValue('09121234567')
    await userEvent.type(field(), '{Enter}')
    expect(spy).toHaveBeenCalledWith(['989121234567'])
    expect(within(screen.getByRole('list', { name: 'شماره‌های واردشده' })).getByText('۰۹۱۲۱۲۳۴۵۶۷')).toBeInTheDocument()
    expect(field()).toHaveValue('')
  })

  it('refuses a duplicate', async () => {
    renderWithProviders(<Harness validateMobile initial={['989121234567']} />)
    await userEvent.type(field(), '9121234567{Enter}')
    expect(screen.getByText('این شماره قبلا وارد شده است')).toBeInTheDocument()
    expect(screen.getAllByRole('listitem')).toHaveLength(1)
  })

  it('sends invalid numbers to the invalid list', async () => {
    renderWithProviders(<Harness validateMobile />)
    await userEvent.type(field(), '12345{Enter}')
    expect(screen.getByText('شماره معتبر نیست')).toBeInTheDocument()
    const invalid = screen.getByRole('list', { name: 'شماره‌های نامعتبر' })
    expect(within(invalid).getByText('۹۸۱۲۳۴۵')).toBeInTheDocument()
    await userEvent.click(within(invalid).getByRole('button', { name: 'حذف ۹۸۱۲۳۴۵' }))
    expect(screen.queryByRole('list', { name: 'شماره‌های نامعتبر' })).not.toBeInTheDocument()
  })

  it('limits the length and disables the input at the maximum count', async () => {
    renderWithProviders(<Harness maxCount={2} />)
    fireEvent.change(field(), { target: { value: '1234567890123456' } })
    expect(field()).toHaveValue('123456789012')
    await userEvent.type(field(), '{Enter}')
    await userEvent.type(field(), '555{Enter}')
    expect(field()).toBeDisabled()
    expect(screen.getByText('حداکثر ۲ شماره مجاز است')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'حذف ۵۵۵' }))
    expect(field()).toBeEnabled()
  })

  it('rejects a leading zero in prefix mode and allows a single prefix', async () => {
    renderWithProviders(<Harness prefixMode />)
    expect(field()).toHaveAttribute('maxLength', '6')
    expect(screen.queryByRole('button', { name: /الصاق/ })).not.toBeInTheDocument()
    await userEvent.type(field(), '0912{Enter}')
    expect(screen.getByText('پیشوند نباید با صفر شروع شود')).toBeInTheDocument()
    await userEvent.clear(field())
    await userEvent.type(field(), '912{Enter}')
    expect(screen.getByText('۹۱۲')).toBeInTheDocument()
    expect(field()).toBeDisabled()
  })

  it('sorts pasted numbers and adds the correct ones', async () => {
    const spy = vi.fn()
    renderWithProviders(<Harness validateMobile initial={['989121234567']} spy={spy} />)
    await userEvent.click(screen.getByRole('button', { name: 'الصاق شماره‌ها' }))
    const dialog = await screen.findByRole('dialog')
    const area = within(dialog).getByRole('textbox', { name: 'فهرست شماره‌ها' })
    fireEvent.change(area, { target: { value: '09121234567\n09351112233, abc\n09351112233\n۰۹۱۹۸۷۶۵۴۳۲' } })
    await userEvent.click(within(dialog).getByRole('button', { name: 'بررسی شماره‌ها' }))
    const correct = within(dialog).getByRole('list', { name: 'شماره‌های صحیح' })
    expect(within(correct).getAllByRole('listitem')).toHaveLength(2)
    expect(within(within(dialog).getByRole('list', { name: 'شماره‌های نادرست' })).getByText('abc')).toBeInTheDocument()
    expect(within(within(dialog).getByRole('list', { name: 'شماره‌های تکراری' })).getAllByRole('listitem')).toHaveLength(2)
    await userEvent.click(within(correct).getByRole('button', { name: 'حذف ۰۹۱۹۸۷۶۵۴۳۲' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'افزودن ۱ شماره' }))
    expect(spy).toHaveBeenLastCalledWith(['989121234567', '989351112233'])
  })
})
