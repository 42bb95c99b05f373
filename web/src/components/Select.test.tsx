import { act, fireEvent, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../testing/render'
import { Modal } from './Overlays'
import { Select } from './Select'
import { filterOptions, multiSummary, nearBottom, nextEnabled, type SelectOption } from './selectUtils'

const cities: SelectOption[] = [
  { label: 'تهران', value: 'thr' },
  { label: 'اصفهان', value: 'isf' },
  { label: 'شیراز', value: 'shz', disabled: true },
  { label: 'تبریز', value: 'tbz' },
  { label: 'مشهد', value: 'msh' },
]

function Multi(props: { onChange?: (v: string[]) => void }) {
  const [value, setValue] = useState<string[]>([])
  return (
    <Select multiple aria-label="شهرها" options={cities} value={value}
      onChange={(v) => { setValue(v); props.onChange?.(v) }} />
  )
}

function Single({ onChange }: { onChange: (v: string | null) => void }) {
  const [value, setValue] = useState<string | null>(null)
  return <Select aria-label="شهر" options={cities} value={value} onChange={(v) => { setValue(v); onChange(v) }} />
}

describe('select helpers', () => {
  it('summarises two labels then the rest', () => {
    expect(multiSummary([])).toBe('')
    expect(multiSummary(['الف', 'ب'])).toBe('الف، ب')
    expect(multiSummary(['الف', 'ب', 'پ', 'ت', 'ث'])).toBe('الف، ب و ۳ مورد دیگر')
  })

  it('filters, skips disabled options and detects the list bottom', () => {
    expect(filterOptions(cities, 'تب').map((o) => o.value)).toEqual(['tbz'])
    expect(nextEnabled(cities, 1, 1)).toBe(3)
    expect(nextEnabled(cities, 4, 1)).toBe(0)
    expect(nearBottom({ scrollTop: 90, scrollHeight: 300, clientHeight: 200 })).toBe(true)
    expect(nearBottom({ scrollTop: 50, scrollHeight: 300, clientHeight: 200 })).toBe(false)
  })
})

describe('Select', () => {
  afterEach(() => vi.useRealTimers())

  it('shows the placeholder and closes after a single choice', async () => {
    const onChange = vi.fn()
    renderWithProviders(<Single onChange={onChange} />)
    const trigger = screen.getByRole('combobox', { name: 'شهر' })
    expect(trigger).toHaveTextContent('انتخاب کنید')
    await userEvent.click(trigger)
    await userEvent.click(screen.getByRole('option', { name: 'اصفهان' }))
    expect(onChange).toHaveBeenCalledWith('isf')
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
    expect(trigger).toHaveTextContent('اصفهان')
  })

  it('ignores disabled options', async () => {
    const onChange = vi.fn()
    renderWithProviders(<Single onChange={onChange} />)
    await userEvent.click(screen.getByRole('combobox'))
    const disabled = screen.getByRole('option', { name: 'شیراز' })
    expect(disabled).toHaveAttribute('aria-disabled', 'true')
    await userEvent.click(disabled)
    expect(onChange).not.toHaveBeenCalled()
    expect(screen.getByRole('listbox')).toBeInTheDocument()
  })

  it('toggles in multi mode and summarises the choice', async () => {
    renderWithProviders(<Multi />)
    const trigger = screen.getByRole('combobox', { name: 'شهرها' })
    await userEvent.click(trigger)
    for (const name of ['تهران', 'اصفهان', 'تبریز', 'مشهد']) await userEvent.click(screen.getByRole('option', { name }))
    expect(screen.getByRole('listbox')).toBeInTheDocument()
    expect(trigger).toHaveTextContent('تهران، اصفهان و ۲ مورد دیگر')
    await userEvent.click(screen.getByRole('option', { name: 'تهران' }))
    expect(screen.getByRole('option', { name: 'تهران' })).toHaveAttribute('aria-selected', 'false')
    expect(trigger).toHaveTextContent('اصفهان، تبریز و ۱ مورد دیگر')
  })

  it('closes on an outside click', async () => {
    renderWithProviders(<><Multi /><button>بیرون</button></>)
    await userEvent.click(screen.getByRole('combobox'))
    expect(screen.getByRole('listbox')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'بیرون' }))
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
  })

  it('closes on Escape and gives focus back to the trigger', async () => {
    renderWithProviders(<Multi />)
    const trigger = screen.getByRole('combobox')
    await userEvent.click(trigger)
    screen.getByRole('listbox').focus()
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
    expect(trigger).toHaveFocus()
  })

  it('is keyboard operable', async () => {
    const onChange = vi.fn()
    renderWithProviders(<Single onChange={onChange} />)
    screen.getByRole('combobox').focus()
    await userEvent.keyboard('{ArrowDown}')
    const list = await screen.findByRole('listbox')
    list.focus()
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}')
    // From تهران: down skips the disabled شیراز, landing on تبریز.
    expect(onChange).toHaveBeenCalledWith('tbz')
  })

  it('debounces the server search by 1000 ms and shows the empty text', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    const onSearch = vi.fn()
    renderWithProviders(
      <Select aria-label="مخاطب" searchable options={[]} value={null} onChange={() => {}} onSearchChange={onSearch} />,
    )
    await user.click(screen.getByRole('combobox'))
    await user.type(screen.getByRole('searchbox', { name: 'جستجو' }), 'علی')
    act(() => vi.advanceTimersByTime(900))
    expect(onSearch).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(200))
    expect(onSearch).toHaveBeenCalledTimes(1)
    expect(onSearch).toHaveBeenCalledWith('علی')
    expect(screen.getByText('موردی یافت نشد')).toBeInTheDocument()
  })

  it('filters locally without a server search', async () => {
    renderWithProviders(<Select aria-label="شهر" searchable options={cities} value={null} onChange={() => {}} />)
    await userEvent.click(screen.getByRole('combobox'))
    await userEvent.type(screen.getByRole('searchbox'), 'مش')
    expect(within(screen.getByRole('listbox')).getAllByRole('option')).toHaveLength(1)
  })

  it('asks for the next page near the bottom of the list', async () => {
    const onLoadMore = vi.fn()
    renderWithProviders(<Select aria-label="شهر" options={cities} value={null} onChange={() => {}} onLoadMore={onLoadMore} hasMore />)
    await userEvent.click(screen.getByRole('combobox'))
    const list = screen.getByRole('listbox')
    Object.defineProperties(list, { scrollHeight: { value: 400 }, clientHeight: { value: 200 } })
    list.scrollTop = 100
    fireEvent.scroll(list)
    expect(onLoadMore).not.toHaveBeenCalled()
    list.scrollTop = 195
    fireEvent.scroll(list)
    expect(onLoadMore).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('listbox')).toBeInTheDocument()
  })

  it('closes when the page scrolls more than 40 px', async () => {
    renderWithProviders(<Multi />)
    await userEvent.click(screen.getByRole('combobox'))
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: 100, configurable: true })
      fireEvent.scroll(window)
    })
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument()
    Object.defineProperty(window, 'scrollY', { value: 0, configurable: true })
  })

  it('works inside a modal without closing it', async () => {
    const onChange = vi.fn()
    renderWithProviders(
      <Modal open onClose={() => {}} title="فیلتر">
        <Single onChange={onChange} />
      </Modal>,
    )
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'شهر' }))
    expect(within(dialog).getByRole('listbox')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('option', { name: 'تبریز' }))
    expect(onChange).toHaveBeenCalledWith('tbz')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
  })
})
