import { Badge, Box, Collapsible, HStack, Stack, Text, chakra } from '@chakra-ui/react'
import { useState } from 'react'
import { NavLink, useLocation } from 'react-router'
import { ChevronDownIcon } from '../../components/outlineIcons'
import { useAcl } from '../../lib/acl'
import { unreadBadge, useInboxUnread } from '../../lib/inboxUnread'
import { MENU, filterMenu, isItemActive, isLinkActive, type MenuItem, type MenuLink } from './menu'

const RouterNavLink = chakra(NavLink)

const itemStyle = {
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  px: '3',
  py: '2.5',
  rounded: 'lg',
  fontSize: 'sm',
  color: 'fg.muted',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'bg.muted', color: 'fg' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing' },
} as const

const activeStyle = { bg: 'brand.subtle', color: 'brand.fg', fontWeight: 'semibold', _hover: { bg: 'brand.muted' } } as const

/** The unread received messages on the inbox item: Persian digits, updated live. */
function InboxBadge() {
  const { data } = useInboxUnread()
  const text = unreadBadge(data?.unread)
  if (!text) return null
  return (
    <Badge colorPalette="red" variant="solid" rounded="full" size="sm" minW="5" justifyContent="center" flexShrink={0}
      aria-label={`${text} پیام خوانده‌نشده`} data-testid="menu-inbox-unread">
      {text}
    </Badge>
  )
}

function TopLink({ item, onNavigate }: { item: MenuItem & MenuLink; onNavigate?: () => void }) {
  const { pathname } = useLocation()
  const active = isLinkActive(item, pathname)
  const Icon = item.icon
  return (
    <RouterNavLink to={item.to} onClick={onNavigate} aria-current={active ? 'page' : undefined} {...itemStyle} {...(active ? activeStyle : {})}>
      <Icon boxSize="5" />
      <Text as="span" flex="1" truncate>
        {item.label}
      </Text>
      {item.badge === 'inbox' && <InboxBadge />}
    </RouterNavLink>
  )
}

function Group({ item, onNavigate }: { item: MenuItem; onNavigate?: () => void }) {
  const { pathname } = useLocation()
  const active = isItemActive(item, pathname)
  const [open, setOpen] = useState(active)
  const Icon = item.icon
  return (
    <Collapsible.Root open={open || active} onOpenChange={(e) => setOpen(e.open)}>
      <Collapsible.Trigger asChild>
        <chakra.button type="button" {...itemStyle} color={active ? 'brand.fg' : 'fg.muted'} cursor="pointer">
          <Icon boxSize="5" />
          <Text as="span" flex="1" textAlign="start" truncate>
            {item.label}
          </Text>
          <ChevronDownIcon boxSize="4" transition="transform 0.2s" transform={open || active ? 'rotate(180deg)' : undefined} />
        </chakra.button>
      </Collapsible.Trigger>
      <Collapsible.Content>
        <Stack gap="0.5" mt="0.5" ps="6" position="relative">
          <Box position="absolute" insetInlineStart="5" top="1" bottom="1" borderInlineStartWidth="1px" borderColor="app.border" />
          {item.children?.map((child) => {
            const on = isLinkActive(child, pathname)
            return (
              <RouterNavLink
                key={child.to}
                to={child.to}
                onClick={onNavigate}
                aria-current={on ? 'page' : undefined}
                {...itemStyle}
                py="2"
                ps="4"
                {...(on ? activeStyle : {})}
              >
                {child.label}
              </RouterNavLink>
            )
          })}
        </Stack>
      </Collapsible.Content>
    </Collapsible.Root>
  )
}

/** The grouped app menu (desktop side menu and the mobile «منو» drawer). */
export function NavMenu({ onNavigate }: { onNavigate?: () => void }) {
  const acl = useAcl()
  return (
    <Stack as="nav" aria-label="منوی اصلی" gap="5">
      {filterMenu(MENU, acl.data).map((group, i) => (
        <Box key={i}>
          {group.title && (
            <HStack px="3" mb="1.5">
              <Text fontSize="xs" fontWeight="semibold" color="app.muted" letterSpacing="wide">
                {group.title}
              </Text>
            </HStack>
          )}
          <Stack gap="0.5">
            {group.items.map((item) =>
              item.children ? (
                <Group key={item.label} item={item} onNavigate={onNavigate} />
              ) : (
                <TopLink key={item.label} item={item as MenuItem & MenuLink} onNavigate={onNavigate} />
              ),
            )}
          </Stack>
        </Box>
      ))}
    </Stack>
  )
}
