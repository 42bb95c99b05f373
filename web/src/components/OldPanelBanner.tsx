import { HStack, IconButton, Link, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { CloseIcon, ExternalIcon } from './outlineIcons'

export const OLD_PANEL_DISMISSED_KEY = 'old-panel-banner-dismissed'
export const OLD_PANEL_URL: string = import.meta.env.VITE_OLD_PANEL_URL || 'https://old.chapar.ir'

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
  if (hidden) return null
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
        <Link href={OLD_PANEL_URL} target="_blank" rel="noopener noreferrer" color="inherit" fontWeight="bold" textDecoration="underline">
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
