import { Avatar, Box, Button, HStack, Menu, Portal, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useNavigate } from 'react-router'
import { useMe } from '../../lib/me'
import { useLogout } from '../../features/auth/useLogout'
import { ChevronDownIcon, LogoutIcon, UserIcon } from '../../components/outlineIcons'

/** Display name and username (GET /acl/auth/check_token) with profile and logout. */
export function ProfileMenu({ compact = false }: { compact?: boolean }) {
  const { data: me, isPending } = useMe()
  const navigate = useNavigate()
  const { logout, dialog } = useLogout()
  const name = me?.name || me?.user_name || ''

  return (
    <>
      <Menu.Root positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          <Button variant="ghost" px={compact ? '1' : '2'} h="auto" py="1" rounded="full" data-testid="profile-menu">
            <HStack gap="2">
              <Avatar.Root size="sm" colorPalette="brand" variant="subtle">
                <Avatar.Fallback name={name || undefined}>{!name && <UserIcon />}</Avatar.Fallback>
              </Avatar.Root>
              {!compact && (
                <Stack gap="0" align="start" textAlign="start" lineHeight="1.3">
                  {isPending ? (
                    <Skeleton h="3" w="20" />
                  ) : (
                    <Text fontSize="sm" fontWeight="semibold" data-testid="me-name">
                      {me?.name || '—'}
                    </Text>
                  )}
                  <Text fontSize="xs" color="app.muted" dir="ltr" data-testid="me-username">
                    {me?.user_name ?? ''}
                  </Text>
                </Stack>
              )}
              {!compact && <ChevronDownIcon boxSize="4" color="app.muted" />}
            </HStack>
          </Button>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="52">
              {compact && me && (
                <Box px="3" py="2" borderBottomWidth="1px" mb="1">
                  <Text fontSize="sm" fontWeight="semibold">
                    {me.name}
                  </Text>
                  <Text fontSize="xs" color="app.muted" dir="ltr" textAlign="end">
                    {me.user_name}
                  </Text>
                </Box>
              )}
              <Menu.Item value="profile" onSelect={() => navigate('/profile')}>
                <UserIcon /> پروفایل
              </Menu.Item>
              <Menu.Item value="logout" color="fg.error" onSelect={logout} data-testid="logout">
                <LogoutIcon /> خروج از حساب
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
      {dialog}
    </>
  )
}
