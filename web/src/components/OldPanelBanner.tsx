import { HStack, IconButton, Link, Text } from '@chakra-ui/react'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { api } from '../lib/api'
import { queryKeys } from '../lib/queryKeys'
import { CloseIcon, ExternalIcon } from './outlineIcons'

export const OLD_PANEL_DISMISSED_KEY = 'old-panel-banner-dismissed'

/** Where the strip links: staff set it in the back office (empty, the default, hides the strip). */
function useOldPanelUrl(): string {
  const q = useQuery({
    queryKey: queryKeys.loginSetting,
    queryFn: () => api.get<{ old_panel_url?: string }>('/acl/auth/login_setting'),
    staleTime: Infinity,
    retry: 1,
  })
  return q.data?.old_panel_url ?? ''
}

function wasDismissed() {
  try {
    return localStorage.getItem(OLD_PANEL_DISMISSED_KEY) === '1'
  } catch {
    return false
  }
}

/** The thin top strip linking to the old panel (new tab) on the login page and every panel page (spec §1); dismissal is remembered. */
export function OldPanelBanner() {
  const [hidden, setHidden] = useState(wasDismissed)
  const url = useOldPanelUrl()
  if (hidden || !url) return null
  const dismiss = () => {
    try {
      localStorage.setItem(OLD_PANEL_DISMISSED_KEY, '1')
    } catch {
      /* still hide for this page */
    }
    setHidden(true)
  }
  return (
    <HStack
      bg="app.banner"
      color="app.bannerFg"
      minH={{ base: '8', md: '10' }}
      px={{ base: '3', md: '6' }}
      gap="3"
      justify="center"
      fontSize={{ base: 'xs', md: 'sm' }}
      data-testid="old-panel-banner"
    >
      <Text flex="1" textAlign="center" truncate>
        به نسخه قبلی عادت دارید؟{' '}
        <Link href={url} target="_blank" rel="noopener noreferrer" color="inherit" fontWeight="bold" textDecoration="underline">
          ورود به نسخه قدیمی پنل
          <ExternalIcon boxSize="3.5" />
        </Link>
      </Text>
      <IconButton
        aria-label="بستن"
        size="2xs"
        variant="ghost"
        color="inherit"
        _hover={{ bg: 'whiteAlpha.200' }}
        onClick={dismiss}
      >
        <CloseIcon />
      </IconButton>
    </HStack>
  )
}
