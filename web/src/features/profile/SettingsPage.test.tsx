import { describe, expect, it } from 'vitest'
import { fireEvent, screen } from '@testing-library/react'
import { renderWithProviders, testClient } from '../../testing/render'
import { failRefresh, stubApi } from '../../testing/stubs'
import SettingsPage from './SettingsPage'

const LOW = { enabled: true, threshold: 500_000, minimum: 100_000 }

describe('SettingsPage', () => {
  it('keeps the low-balance form and the amount being typed when a refresh fails, with a note', async () => {
    stubApi({ '/user/setting/low_balance': () => LOW })
    const queryClient = testClient()
    renderWithProviders(<SettingsPage />, { route: '/profile/settings', queryClient })
    const input = await screen.findByTestId('settings-lowbalance')
    fireEvent.change(input, { target: { value: '750000' } })
    await failRefresh(queryClient, '/user/setting/low_balance', ['profile', 'low-balance'])
    expect(await screen.findByTestId('stale-note')).toBeInTheDocument()
    expect(screen.getByTestId('settings-lowbalance')).toHaveValue('۷۵۰۰۰۰')
  })
})
