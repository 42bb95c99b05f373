import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import { Route, Routes } from 'react-router'
import { renderWithProviders } from '../../testing/render'
import { ADMIN_TOKEN_KEY, TOKEN_KEY } from '../../lib/auth'
import { RequireStaff } from './guards'

function app() {
  return renderWithProviders(
    <Routes>
      <Route path="/admin/login" element={<p>staff login</p>} />
      <Route path="/admin/reviews" element={<RequireStaff><p>queues</p></RequireStaff>} />
    </Routes>,
    { route: '/admin/reviews' },
  )
}

function serverAnswers(status: number) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ data: { user_name: 'admin' }, meta: { status } }), { status })))
}

beforeEach(() => localStorage.clear())
afterEach(() => {
  localStorage.clear()
})

describe('RequireStaff', () => {
  it('a customer session does not open the back office', () => {
    localStorage.setItem(TOKEN_KEY, 'customer')
    app()
    expect(screen.getByText('staff login')).toBeInTheDocument()
  })

  it('a staff token the server does not know (404) is dropped', async () => {
    localStorage.setItem(ADMIN_TOKEN_KEY, 'stale')
    serverAnswers(404)
    app()
    expect(await screen.findByText('staff login')).toBeInTheDocument()
    await waitFor(() => expect(localStorage.getItem(ADMIN_TOKEN_KEY)).toBeNull())
  })

  it('a live staff session opens it', async () => {
    localStorage.setItem(ADMIN_TOKEN_KEY, 'live')
    serverAnswers(200)
    app()
    expect(await screen.findByText('queues')).toBeInTheDocument()
  })
})
