import { Box, Flex } from '@chakra-ui/react'
import { Suspense, useEffect } from 'react'
import { Outlet, useLocation, useNavigate } from 'react-router'
import { allows, useAcl } from '../../lib/acl'
import { AccessLimited } from './AccessLimited'
import { useIsMobile } from '../../lib/viewport'
import { BottomBar } from './BottomBar'
import { ErrorBoundary } from './ErrorBoundary'
import { Header } from './Header'
import { MobileTopBar } from './MobileTopBar'
import { OldPanelBanner } from '../../components/OldPanelBanner'
import { PageLoader } from './PageLoader'
import { routePermission } from './menu'
import { Sidebar } from './Sidebar'

/** Scrolls to the top on every path change (spec §2). */
function useScrollTopOnPath(pathname: string) {
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 })
  }, [pathname])
}

/** The main layout: side menu (desktop) or bottom bar (mobile), banner, header, content. */
export default function AppLayout() {
  const isMobile = useIsMobile()
  const { pathname } = useLocation()
  const navigate = useNavigate()
  useScrollTopOnPath(pathname)
  const acl = useAcl()
  const needs = routePermission(pathname)
  const limited = !!acl.data && !allows(acl.data, needs)

  return (
    <Flex minH="100dvh" bg="app.canvas">
      {!isMobile && <Sidebar />}
      <Flex direction="column" flex="1" minW="0">
        <OldPanelBanner />
        {isMobile ? <MobileTopBar /> : <Header />}
        <Box as="main" flex="1" px={{ base: '3', md: '6', xl: '8' }} py={{ base: '4', md: '6' }} pb={isMobile ? '24' : '10'}>
          <Box maxW="1280px" mx="auto">
            <ErrorBoundary key={pathname} onBack={() => navigate(-1)}>
              <Suspense fallback={<PageLoader />}>
                {limited ? <AccessLimited needs={needs} /> : <Outlet />}
              </Suspense>
            </ErrorBoundary>
          </Box>
        </Box>
      </Flex>
      {isMobile && <BottomBar />}
    </Flex>
  )
}
