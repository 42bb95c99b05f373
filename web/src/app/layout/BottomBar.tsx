import { Box, CloseButton, Drawer, Flex, Portal, Text, chakra } from '@chakra-ui/react'
import { useState, type ComponentType } from 'react'
import { NavLink, useLocation } from 'react-router'
import type { IconProps } from '@chakra-ui/react'
import { ChartIcon, ContactsIcon, GridIcon, HomeIcon, SendIcon } from '../../components/outlineIcons'
import { allows, useAcl } from '../../lib/acl'
import { useInboxUnread } from '../../lib/inboxUnread'
import { CreditChip } from './CreditChip'
import { NavMenu } from './NavMenu'
import { routePermission } from './menu'

const RouterNavLink = chakra(NavLink)

/** The tabs; each shows only to roles that may open its page (the router guard's routePermission). */
const TABS: Array<{ label: string; to: string; icon: ComponentType<IconProps> }> = [
  { label: 'خانه', to: '/dashboard', icon: HomeIcon },
  { label: 'ارسال', to: '/send-sms', icon: SendIcon },
  { label: 'گزارش‌ها', to: '/reports', icon: ChartIcon },
  { label: 'مخاطبین', to: '/contacts', icon: ContactsIcon },
]

const tabStyle = {
  flex: '1',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '1',
  h: 'full',
  fontSize: '2xs',
  color: 'fg.muted',
  cursor: 'pointer',
} as const

/** A dot on «منو» while received messages are unread (the count is on the inbox item inside). */
function UnreadDot() {
  const { data } = useInboxUnread()
  if (!data?.unread) return null
  return <Box position="absolute" top="0.5" insetInlineEnd="3" boxSize="2.5" rounded="full" bg="red.solid"
    aria-label="پیام خوانده‌نشده" role="img" data-testid="menu-unread-dot" />
}

/** Mobile bottom bar: four main pages and «منو» opening the full menu in a bottom sheet. */
export function BottomBar() {
  const { pathname } = useLocation()
  const [open, setOpen] = useState(false)
  const acl = useAcl()
  return (
    <>
      <Flex
        as="nav"
        aria-label="منوی پایین"
        position="fixed"
        bottom="0"
        insetInline="0"
        h="16"
        pb="env(safe-area-inset-bottom)"
        bg="app.surface"
        borderTopWidth="1px"
        borderColor="app.border"
        zIndex="sticky"
        shadow="0 -4px 16px rgba(0,0,0,0.06)"
        data-testid="bottom-bar"
      >
        {TABS.filter((t) => allows(acl.data, routePermission(t.to))).map(({ label, to, icon: Icon }) => {
          const active = pathname === to || pathname.startsWith(`${to}/`)
          return (
            <RouterNavLink key={to} to={to} {...tabStyle} color={active ? 'brand.fg' : 'fg.muted'} fontWeight={active ? 'bold' : 'normal'}>
              <Box px="4" py="1" rounded="full" bg={active ? 'brand.subtle' : 'transparent'}>
                <Icon boxSize="5" />
              </Box>
              {label}
            </RouterNavLink>
          )
        })}
        <chakra.button type="button" {...tabStyle} onClick={() => setOpen(true)} aria-haspopup="dialog">
          <Box px="4" py="1" position="relative">
            <GridIcon boxSize="5" />
            {allows(acl.data, 'report.view') && <UnreadDot />}
          </Box>
          منو
        </chakra.button>
      </Flex>
      <Drawer.Root open={open} onOpenChange={(e) => setOpen(e.open)} placement="bottom">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content roundedTop="2xl" maxH="85dvh">
              <Drawer.Header pb="2">
                <Drawer.Title>
                  <Text fontSize="md">منوی چاپار</Text>
                </Drawer.Title>
              </Drawer.Header>
              <Drawer.Body pb="8">
                <Box mb="4">
                  <CreditChip />
                </Box>
                <NavMenu onNavigate={() => setOpen(false)} />
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </>
  )
}
