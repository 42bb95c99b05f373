import { Box, Button, Flex, HStack, Link, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { Suspense } from 'react'
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router'
import { ThemeToggle } from '../../components/ThemeToggle'
import { api } from '../../lib/api'
import { clearAdminToken } from '../../lib/auth'
import { ErrorBoundary } from './ErrorBoundary'
import { useStaffMe } from './guards'
import { PageLoader } from './PageLoader'

/** The back office menu; an entry with `needs` shows only to staff whose role grants it. */
export const ADMIN_MENU: { to: string; label: string; needs?: 'operations' }[] = [
  { to: '/admin/reviews', label: 'صف‌های بررسی' },
  { to: '/admin/accounts', label: 'حساب‌های کاربری' },
  { to: '/admin/content', label: 'محتوای پنل' },
  { to: '/admin/patterns', label: 'الگوهای سیستمی' },
  { to: '/admin/staff', label: 'کاربران پشتیبانی' },
  { to: '/admin/operations', label: 'پایش عملیات', needs: 'operations' },
  { to: '/admin/inbound-quarantine', label: 'ورودی‌های قرنطینه' },
  { to: '/admin/send-hours', label: 'ساعت مجاز ارسال' },
  { to: '/admin/operator-blocklist', label: 'لیست سیاه اپراتورها' },
  { to: '/admin/invoice-seller', label: 'فروشنده فاکتور' },
  { to: '/admin/payment-gateway', label: 'درگاه پرداخت' },
  { to: '/admin/support/tickets', label: 'تیکت‌ها' },
  { to: '/admin/support/content', label: 'پرسش‌های متداول' },
]

/** The back office's own layout: a top bar with its menu, theme and logout; RTL like the panel. */
export default function AdminLayout() {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const qc = useQueryClient()
  const me = useStaffMe().data
  const menu = ADMIN_MENU.filter((m) => !m.needs || me?.[m.needs])
  const logout = async () => {
    await api.post('/admin/auth/logout').catch(() => undefined)
    clearAdminToken()
    qc.removeQueries({ queryKey: ['admin'] })
    navigate('/admin/login', { replace: true })
  }
  return (
    <Flex direction="column" minH="100dvh" bg="app.canvas" data-testid="admin-layout">
      <Flex as="header" align="center" gap="4" px={{ base: '3', md: '6' }} py="3" bg="app.sidebar" borderBottomWidth="1px"
        borderColor="app.border" wrap="wrap">
        <Text fontWeight="black" fontSize="lg">پنل پشتیبانی چاپار</Text>
        <HStack as="nav" gap="1" aria-label="منوی پشتیبانی" flex="1" order={{ base: 3, md: 0 }} w={{ base: 'full', md: 'auto' }}
          flexBasis={{ base: '100%', md: 'auto' }} overflowX="auto">
          {menu.map((m) => (
            <Link key={m.to} asChild px="3" py="1.5" rounded="md" fontSize="sm" whiteSpace="nowrap"
              bg={pathname.startsWith(m.to) ? 'brand.subtle' : undefined} color={pathname.startsWith(m.to) ? 'brand.fg' : 'fg'}>
              <NavLink to={m.to}>{m.label}</NavLink>
            </Link>
          ))}
        </HStack>
        <HStack gap="1" ms="auto">
          <ThemeToggle />
          <Button size="sm" variant="ghost" onClick={logout} data-testid="admin-logout">خروج</Button>
        </HStack>
      </Flex>
      <Box as="main" flex="1" px={{ base: '3', md: '6' }} py={{ base: '4', md: '6' }}>
        <Stack maxW="1280px" mx="auto">
          <ErrorBoundary key={pathname} onBack={() => navigate(-1)}>
            <Suspense fallback={<PageLoader />}>
              <Outlet />
            </Suspense>
          </ErrorBoundary>
        </Stack>
      </Box>
    </Flex>
  )
}
