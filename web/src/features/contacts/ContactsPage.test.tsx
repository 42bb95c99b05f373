import '@testing-library/jest-dom/vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { useLocation } from 'react-router'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../testing/render'
import ContactsPage from './ContactsPage'

type Handler = (url: URL, body: unknown) => { status?: number; data: unknown; meta?: Record<string, unknown> }

function mockApi(routes: Record<string, Handler>) {
  const calls: Array<{ method: string; path: string; query: URLSearchParams; body: unknown }> = []
  vi.stubGlobal('fetch', vi.fn(async (input: string, init?: RequestInit) => {
    const url = new URL(String(input), 'http://panel.test')
    const path = url.pathname.replace('/v1/api', '')
    const body = init?.body ? JSON.parse(String(init.body)) : undefined
    calls.push({ method: init?.method ?? 'GET', path, query: url.searchParams, body })
    const handler = routes[`${init?.method ?? 'GET'} ${path}`]
    const r = handler ? handler(url, body) : { data: [], meta: { page: 1, limit: 10, total: 0 } }
    return new Response(JSON.stringify({ data: r.data, meta: { status: r.status ?? 200, ...r.meta } }), { status: r.status ?? 200 })
  }))
  return calls
}

const paged = (rows: unknown[]) => () => ({ data: rows, meta: { page: 1, limit: 10, total: rows.length } })

function Location() {
  const loc = useLocation()
  return <output data-testid="location">{loc.search}</output>
}

beforeEach(() => {
  // Desktop viewport.
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener: () => {}, removeEventListener: () => {} }))
})
describe('ContactsPage', () => {
  it('opens the tab of ?tab= and a new tab starts without the old filters', async () => {
    mockApi({
      'GET /phonebooks/options': paged([{ id: 1, title_fa: 'شهر', title_en: 'city', type: 'text', enabled: true, flows: ['contacts'], created_at: '2025-03-21T00:00:00Z' }]),
      'GET /phonebooks/list-new': paged([{ id: 3, name: 'مشتریان', code: 'c3', members: 12, created_at: '2025-03-21T00:00:00Z' }]),
    })
    renderWithProviders(<><ContactsPage /><Location /></>, { route: '/contacts?tab=2&page=3&search=x' })
    expect(await screen.findByText('city')).toBeInTheDocument()
    expect(screen.getByTestId('tab-features')).toHaveAttribute('aria-selected', 'true')

    fireEvent.click(screen.getByTestId('tab-groups'))
    expect(await screen.findByText('مشتریان')).toBeInTheDocument()
    expect(screen.getByTestId('location').textContent).toBe('?tab=1')
    expect(screen.getByText('۱۲')).toBeInTheDocument()
  })

  it('falls back to the first tab for an index outside the list', async () => {
    mockApi({})
    renderWithProviders(<ContactsPage />, { route: '/contacts?tab=9' })
    expect(screen.getByTestId('tab-all')).toHaveAttribute('aria-selected', 'true')
    expect(await screen.findByText('لیست خالی است')).toBeInTheDocument()
  })

  it('adds a contact to every chosen group with a normalised number', async () => {
    const calls = mockApi({
      'GET /phonebooks/options/list-new': () => ({ data: [{ label: 'مشتریان', value: 3 }, { label: 'همکاران', value: 4 }] }),
      'POST /phonebooks/numbers/add-list-new': () => ({ status: 201, data: { added: 1, skipped: 0, invalid: [] } }),
    })
    renderWithProviders(<ContactsPage />, { route: '/contacts' })
    fireEvent.click(await screen.findByTestId('contact-add'))
    const form = await screen.findByTestId('contact-form')

    fireEvent.click(within(form).getByTestId('contact-save'))
    expect(await within(form).findByText('لطفا شماره موبایل صحیح وارد کنید')).toBeInTheDocument()
    expect(within(form).getByText('لطفا گروه را انتخاب کنید')).toBeInTheDocument()

    fireEvent.change(within(form).getByTestId('contact-number'), { target: { value: '۰۹۱۲۱۲۳۴۵۶۷' } })
    fireEvent.change(within(form).getByTestId('contact-name'), { target: { value: 'علی' } })
    fireEvent.click(within(form).getByRole('combobox', { name: 'گروه‌ها' }))
    fireEvent.click(await screen.findByRole('option', { name: 'مشتریان' }))
    fireEvent.click(screen.getByRole('option', { name: 'همکاران' }))
    fireEvent.click(within(form).getByTestId('contact-save'))

    await waitFor(() => expect(calls.filter((c) => c.path === '/phonebooks/numbers/add-list-new')).toHaveLength(2))
    const bodies = calls.filter((c) => c.path === '/phonebooks/numbers/add-list-new').map((c) => c.body)
    expect(bodies).toEqual([
      { phonebook_id: 3, contacts: [{ number: '989121234567', name: 'علی', gender: '', tags: [], features: {} }] },
      { phonebook_id: 4, contacts: [{ number: '989121234567', name: 'علی', gender: '', tags: [], features: {} }] },
    ])
  })

  it('shows «در حال نمایه‌سازی» while the name search catches up with an import, and no longer once it has', async () => {
    let indexing = true
    const row = { id: 9, phonebook_id: 3, phonebook_name: 'مشتریان', number: '989121234567', name: 'زهرا', gender: '', birth_date: null,
      tags: [], features: {}, blacklists: [], created_at: '2025-03-21T00:00:00Z' }
    const calls = mockApi({
      'GET /phonebooks/numbers/contact-list': () => ({ data: [row], meta: { page: 1, limit: 10, total: 1, indexing } }),
    })
    renderWithProviders(<ContactsPage />, { route: '/contacts' })
    const note = await screen.findByTestId('contacts-indexing')
    expect(note).toHaveTextContent('در حال نمایه‌سازی')
    expect(note).toHaveAttribute('role', 'status')
    expect(within(note).getByText('در حال نمایه‌سازی').closest('[dir="ltr"]')).toBeNull()
    expect(screen.getByText('زهرا')).toBeInTheDocument()

    // The list is read again while indexing; once the index has caught up the note goes.
    indexing = false
    await waitFor(() => expect(screen.queryByTestId('contacts-indexing')).not.toBeInTheDocument(), { timeout: 8000 })
    expect(calls.filter((c) => c.path === '/phonebooks/numbers/contact-list').length).toBeGreaterThan(1)
  }, 10000)

  it('shows no indexing note for a list without meta.indexing', async () => {
    mockApi({
      'GET /phonebooks/numbers/contact-list': () => ({ data: [], meta: { page: 1, limit: 10, total: 0, indexing: false } }),
    })
    renderWithProviders(<ContactsPage />, { route: '/contacts' })
    expect(await screen.findByText('لیست خالی است')).toBeInTheDocument()
    expect(screen.queryByTestId('contacts-indexing')).not.toBeInTheDocument()
  })

  it('shows «موردی یافت نشد» when a search finds nothing', async () => {
    mockApi({})
    renderWithProviders(<ContactsPage />, { route: '/contacts?tab=3&search=0912' })
    expect(await screen.findByText('موردی یافت نشد')).toBeInTheDocument()
  })
})
