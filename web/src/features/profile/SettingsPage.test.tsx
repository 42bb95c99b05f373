import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, fireEvent, screen } from '@testing-library/react'
import { QueryClient } from '@tanstack/react-query'
import { renderWithProviders } from '../../testing/render'
import { StubStatus, stubApi } from '../../testing/stubs'
import SettingsPage from './SettingsPage'

const LOW = { enabled: true, threshold: 500_000, minimum: 100_000 }

afterEach(() => vi.unstubAllGlobals())

describe('SettingsPage', () => {
  it('keeps the low-balance form and the amount being typed when a refresh fails, with a note', async () => {
    stubApi({ '/user/setting/low_balance': () => LOW })
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    renderWithProviders(<SettingsPage />, { route: '/profile/settings', queryClient })
    const input = await screen.findByTestId('settings-lowbalance')
    fireEvent.change(input, { target: { value: '750000' } })
    stubApi({ '/user/setting/low_balance': () => { throw new StubStatus(503) } })
    await act(async () => {
      await queryClient.refetchQueries({ queryKey: ['profile', 'low-balance'] }).catch(() => undefined)
    })
    expect(await screen.findByTestId('stale-note')).toBeInTheDocument()
    expect(screen.getByTestId('settings-lowbalance')).toHaveValue('۷۵۰۰۰۰')
  })
})
