import { Flex, HStack, Heading, IconButton } from '@chakra-ui/react'
import { useLocation, useNavigate } from 'react-router'
import { ArrowRightIcon } from '../../components/outlineIcons'
import { Brand } from './Brand'
import { ProfileMenu } from './ProfileMenu'
import { ThemeToggle } from '../../components/ThemeToggle'
import { usePageMeta } from '../../lib/pageMeta'

/** Parent path for the back icon when there is no history to go back to. */
export function parentPath(pathname: string): string {
  const parts = pathname.split('/').filter(Boolean)
  return parts.length > 1 ? `/${parts.slice(0, -1).join('/')}` : '/dashboard'
}

/** Mobile header: back icon and page title (spec §2), theme and profile. */
export function MobileTopBar() {
  const { title, root } = usePageMeta()
  const location = useLocation()
  const navigate = useNavigate()
  const back = () => (location.key !== 'default' ? navigate(-1) : navigate(parentPath(location.pathname)))
  return (
    <Flex
      as="header"
      align="center"
      gap="1"
      h="14"
      px="2"
      bg="app.surface"
      borderBottomWidth="1px"
      borderColor="app.border"
      position="sticky"
      top="0"
      zIndex="sticky"
    >
      {root ? (
        <HStack ps="2" flex="1">
          <Brand subtitle={false} />
        </HStack>
      ) : (
        <>
          <IconButton aria-label="بازگشت" variant="ghost" rounded="full" onClick={back} data-testid="mobile-back">
            <ArrowRightIcon />
          </IconButton>
          <Heading as="h1" size="sm" flex="1" truncate data-testid="page-title">
            {title}
          </Heading>
        </>
      )}
      <ThemeToggle />
      <ProfileMenu compact />
    </Flex>
  )
}
