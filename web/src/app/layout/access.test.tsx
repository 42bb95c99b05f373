import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ACL_KEY, missingAccessText, type Acl, type Permission } from '../../lib/acl'
import { renderWithProviders, testClient } from '../../testing/render'
import { AccessLimited } from './AccessLimited'
import { BottomBar } from './BottomBar'
import { CreditChip } from './CreditChip'
import { routePermission } from './menu'

/** A query client holding a colleague's access list (or the owner's). */
function clientWith(permissions: Permission[], owner = false) {
  const client = testClient()
  client.setQueryData<Acl>(ACL_KEY, { is_owner: owner, reseller_id: 0, permissions })
  return client
}

describe('header and bottom bar by permission', () => {
  it('hides the credit from a role that may not open the wallet', () => {
    renderWithProviders(<CreditChip />, { queryClient: clientWith(['report.view']) })
    expect(screen.queryByTestId('credit')).toBeNull()
  })

  it('shows the credit to a wallet viewer but «افزایش اعتبار» only to those who may pay', () => {
    const { unmount } = renderWithProviders(<CreditChip />, { queryClient: clientWith(['wallet.view']) })
    expect(screen.getByTestId('credit')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'افزایش اعتبار' })).toBeNull()
    unmount()
    renderWithProviders(<CreditChip />, { queryClient: clientWith([], true) })
    expect(screen.getByRole('link', { name: 'افزایش اعتبار' })).toHaveAttribute('href', '/wallet/credit')
  })

  it('shows a colleague only the tabs their role may open', () => {
    renderWithProviders(<BottomBar />, { queryClient: clientWith(['report.view']) })
    const nav = screen.getByRole('navigation', { name: 'منوی پایین' })
    expect(nav).toHaveTextContent('گزارش‌ها')
    expect(nav).toHaveTextContent('خانه')
    expect(nav).not.toHaveTextContent('ارسال')
    expect(nav).not.toHaveTextContent('مخاطبین')
  })
})

describe('«دسترسی محدود»', () => {
  it('names the permission the page needs in Persian', () => {
    renderWithProviders(<AccessLimited needs={routePermission('/colleagues')} />)
    expect(screen.getByTestId('access-limited')).toHaveTextContent('دسترسی شما محدود است')
    expect(screen.getByTestId('missing-permission')).toHaveTextContent('این صفحه به دسترسی «مدیریت همکاران و نقش‌ها» نیاز دارد که در نقش شما نیست.')
  })

  it('says when a page is the owner’s only, and names nothing it does not know', () => {
    expect(missingAccessText('owner')).toBe('این صفحه فقط در دسترس مالک حساب است.')
    expect(missingAccessText('wallet.view')).toContain('«مشاهده کیف پول»')
    expect(missingAccessText(undefined)).toBeUndefined()
    renderWithProviders(<AccessLimited needs={undefined} />)
    expect(screen.queryByTestId('missing-permission')).toBeNull()
  })
})
