import { Box, Center, Flex } from '@chakra-ui/react'
import { Suspense } from 'react'
import { Outlet, useLocation, useNavigate } from 'react-router'
import { useToken } from '../lib/auth'
import { lazyPage } from '../lib/chunkReload'
import { Brand } from './layout/Brand'
import { ErrorBoundary } from './layout/ErrorBoundary'
import { PageLoader } from './layout/PageLoader'

/** The main layout, loaded on demand (the login page does not need it). */
export const AppLayout = lazyPage(() => import('./layout/AppLayout'))

/** The back office's layout (/admin), loaded on demand. */
export const AdminLayout = lazyPage(() => import('./layout/AdminLayout'))

/** Top of the tree: catches render errors outside the layout and shows «در حال بارگذاری» for lazy pages. */
export function RootShell() {
  const { pathname } = useLocation()
  const navigate = useNavigate()
  return (
    <ErrorBoundary key={pathname} onBack={() => navigate(-1)}>
      <Suspense fallback={<PageLoader full />}>
        <Outlet />
      </Suspense>
    </ErrorBoundary>
  )
}

/** Not-found pages: inside the layout when signed in, on a bare page for visitors. */
export function SoftLayout() {
  const token = useToken()
  if (token) return <AppLayout />
  return (
    <Flex direction="column" minH="100dvh" bg="app.canvas">
      <Box px="6" py="4">
        <Brand />
      </Box>
      <Center flex="1">
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </Center>
    </Flex>
  )
}
