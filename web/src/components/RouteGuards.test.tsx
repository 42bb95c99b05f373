import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { screen } from '@testing-library/react'
import { Route, Routes } from 'react-router'
import { renderWithProviders, setViewport } from '../testing/render'
import { DesktopOnly, GuestOnly, MobileOnly, RequireAuth } from './RouteGuards'

function app(route: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/login" element={<GuestOnly><p>login page</p></GuestOnly>} />
      <Route path="/dashboard" element={<RequireAuth><p>dashboard page</p></RequireAuth>} />
      <Route path="/contacts/all-contacts" element={<MobileOnly><p>mobile page</p></MobileOnly>} />
      <Route path="/desk" element={<DesktopOnly><p>desktop page</p></DesktopOnly>} />
      <Route path="/404" element={<p>not found</p>} />
    </Routes>,
    { route },
  )
}

beforeEach(() => localStorage.clear())
afterEach(() => localStorage.clear())

describe('route guards', () => {
  it('mobile-only pages go to /404 on desktop and render on mobile', () => {
    setViewport(false)
    app('/contacts/all-contacts')
    expect(screen.getByText('not found')).toBeInTheDocument()
  })

  it('a mobile-only page renders on mobile', () => {
    setViewport(true)
    app('/contacts/all-contacts')
    expect(screen.getByText('mobile page')).toBeInTheDocument()
  })

  it('desktop-only pages go to /404 on mobile', () => {
    setViewport(true)
    app('/desk')
    expect(screen.getByText('not found')).toBeInTheDocument()
    setViewport(false)
  })

  it('the layout needs a stored token; login is only for visitors', () => {
    setViewport(false)
    const first = app('/dashboard')
    expect(screen.getByText('login page')).toBeInTheDocument()
    first.unmount()
    localStorage.setItem('token', 'abc')
    app('/login')
    expect(screen.getByText('dashboard page')).toBeInTheDocument()
  })
})
