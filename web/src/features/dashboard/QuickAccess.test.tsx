import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../testing/render'
import { stubApi } from '../../testing/stubs'
import { QuickAccess } from './ContentBlocks'

beforeEach(() => localStorage.setItem('token', 't'))
afterEach(() => localStorage.clear())

describe('QuickAccess', () => {
  it('offers the panel’s own shortcuts while staff have published none', async () => {
    stubApi({ '/content/dashboard': () => ({ banners: [], news: [], quick_access: [] }) })
    renderWithProviders(<QuickAccess />)
    const tiles = await screen.findByTestId('quick-access-defaults')
    expect(tiles).toHaveTextContent('ارسال سریع')
    expect(screen.getByRole('link', { name: 'افزایش اعتبار' })).toHaveAttribute('href', '/wallet/credit')
  })

  it('shows the published links instead once there are some', async () => {
    stubApi({ '/content/dashboard': () => ({ banners: [], news: [], quick_access: [{ id: 1, kind: 'quick_access', title: 'تعرفه‌ها', link: '/tariffs' }] }) })
    renderWithProviders(<QuickAccess />)
    expect(await screen.findByText('تعرفه‌ها')).toBeInTheDocument()
    expect(screen.queryByTestId('quick-access-defaults')).not.toBeInTheDocument()
  })
})
