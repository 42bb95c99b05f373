import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, setViewport } from '../testing/render'
import { DataTable, type DataTableColumn } from './DataTable'
import { pageWindow } from './Pagination'
import type { TableFilter } from './TableFilters'

interface Row { id: number; name: string; count: number }
const rows: Row[] = [{ id: 1, name: 'ارسال اول', count: 10 }, { id: 2, name: 'ارسال دوم', count: 20 }]
const columns: DataTableColumn<Row>[] = [
  { key: 'name', title: 'عنوان' },
  { key: 'count', title: 'تعداد', render: (r) => r.count.toLocaleString('fa-IR'), align: 'end' },
]
const filters: TableFilter[] = [
  { type: 'search', key: 'q', title: 'جستجو' },
  { type: 'options', key: 'status', title: 'وضعیت', options: [{ label: 'موفق', value: 'ok' }, { label: 'ناموفق', value: 'fail' }] },
  { type: 'date_range', key: 'date', title: 'تاریخ', dateFromKey: 'from', dateToKey: 'to' },
]

function Location() {
  const loc = useLocation()
  return <output data-testid="search">{loc.search}</output>
}
const search = () => new URLSearchParams(screen.getByTestId('search').textContent ?? '')

function renderTable(props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}, route = '/reports') {
  return renderWithProviders(
    <>
      <DataTable<Row> caption="گزارش‌ها" columns={columns} rows={rows} rowKey={(r) => r.id} total={45} filters={filters} {...props} />
      <Location />
    </>,
    { route },
  )
}

afterEach(() => {
  delete (window as { matchMedia?: unknown }).matchMedia
})

describe('pageWindow', () => {
  it('keeps seven slots with gaps', () => {
    expect(pageWindow(1, 5)).toEqual([1, 2, 3, 4, 5])
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5, null, 20])
    expect(pageWindow(10, 20)).toEqual([1, null, 9, 10, 11, null, 20])
    expect(pageWindow(20, 20)).toEqual([1, null, 16, 17, 18, 19, 20])
  })
})

describe('DataTable states', () => {
  it('shows skeleton rows while loading', () => {
    renderTable({ rows: undefined, isLoading: true }, '/reports?limit=5')
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5)
    expect(screen.getByText('در حال بارگذاری')).toBeInTheDocument()
  })

  it('shows the empty text', () => {
    renderTable({ rows: [], total: 0 })
    expect(screen.getByText('لیست خالی است')).toBeInTheDocument()
    expect(screen.queryByRole('navigation', { name: 'صفحه‌بندی' })).not.toBeInTheDocument()
  })

  it('shows the error with a retry button', async () => {
    const onRetry = vi.fn()
    renderTable({ isError: true, onRetry })
    expect(screen.getByText('خطا در دریافت اطلاعات')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'تلاش مجدد' }))
    expect(onRetry).toHaveBeenCalledOnce()
  })

  it('renders rows with custom cells and reports clicks', async () => {
    const onRowClick = vi.fn()
    renderTable({ onRowClick })
    const table = screen.getByRole('table', { name: 'گزارش‌ها' })
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['عنوان', 'تعداد'])
    expect(within(table).getByText('۲۰')).toBeInTheDocument()
    await userEvent.click(within(table).getByText('ارسال دوم'))
    expect(onRowClick).toHaveBeenCalledWith(rows[1])
  })
})

describe('DataTable paging and filters in the URL', () => {
  it('moves between pages', async () => {
    renderTable()
    expect(screen.getByText('نمایش ۱ تا ۱۰ از ۴۵')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'صفحه ۳' }))
    expect(search().get('page')).toBe('3')
    expect(screen.getByRole('button', { name: 'صفحه ۳' })).toHaveAttribute('aria-current', 'page')
    await userEvent.click(screen.getByRole('button', { name: 'صفحه بعد' }))
    expect(search().get('page')).toBe('4')
  })

  it('resets the page to 1 when the page size changes', async () => {
    renderTable({}, '/reports?page=4&limit=10&tab=1')
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'تعداد در صفحه' }), '20')
    expect(search().get('limit')).toBe('20')
    expect(search().get('page')).toBe('1')
    expect(search().get('tab')).toBe('1')
  })

  it('uses configurable names and a prefix', async () => {
    renderTable({ url: { pageKey: 'p', limitKey: 'size', prefix: 'r' } }, '/reports?p=2&size=10')
    await userEvent.click(screen.getByRole('combobox', { name: 'وضعیت' }))
    await userEvent.click(screen.getByRole('option', { name: 'ناموفق' }))
    expect(search().get('r-status')).toBe('fail')
    expect(search().get('p')).toBe('1')
  })

  it('writes the search filter after typing settles and clears filters keeping limit and tab', async () => {
    renderTable({}, '/reports?page=2&limit=20&tab=2')
    await userEvent.type(screen.getByRole('textbox', { name: 'جستجو' }), 'تست')
    await waitFor(() => expect(search().get('q')).toBe('تست'))
    expect(search().get('page')).toBe('1')
    await userEvent.click(screen.getByRole('button', { name: 'پاک کردن فیلترها' }))
    expect(screen.getByTestId('search').textContent).toBe('?limit=20&tab=2')
  })

  it('writes date range filters as Tehran days', async () => {
    renderTable()
    const from = screen.getByRole('textbox', { name: 'تاریخ از' })
    fireEvent.change(from, { target: { value: '14040101' } })
    fireEvent.blur(from) // leaving the field applies the typed date at once (else 700 ms later)
    expect(search().get('from')).toBe('2025-03-21')
  })
})

describe('DataTable on mobile', () => {
  it('renders cards and applies filters from the modal on page 1', async () => {
    setViewport(true)
    renderTable({}, '/reports?page=3&limit=10')
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
    const cards = within(screen.getByRole('list', { name: 'گزارش‌ها' })).getAllByRole('listitem')
    expect(cards).toHaveLength(2)
    expect(within(cards[0]).getByText('عنوان')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'فیلترها' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'جستجو' }), 'abc')
    expect(search().get('q')).toBeNull()
    await userEvent.click(within(dialog).getByRole('button', { name: 'اعمال' }))
    expect(search().get('q')).toBe('abc')
    expect(search().get('page')).toBe('1')
    expect(screen.getByRole('button', { name: 'فیلترها (۱ فعال)' })).toBeInTheDocument()
  })
})
