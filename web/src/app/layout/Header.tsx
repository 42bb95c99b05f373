import { Flex, HStack, Heading } from '@chakra-ui/react'
import { CreditChip } from './CreditChip'
import { ProfileMenu } from './ProfileMenu'
import { ThemeToggle } from '../../components/ThemeToggle'
import { usePageMeta } from '../../lib/pageMeta'

/** Desktop header: page title, credit, theme toggle and the profile menu. */
export function Header() {
  const { title } = usePageMeta()
  return (
    <Flex
      as="header"
      align="center"
      gap="4"
      h="16"
      px="6"
      bg="app.surface"
      borderBottomWidth="1px"
      borderColor="app.border"
      position="sticky"
      top="0"
      zIndex="sticky"
    >
      <Heading as="h1" size="md" flex="1" truncate data-testid="page-title">
        {title}
      </Heading>
      <HStack gap="2">
        <CreditChip />
        <ThemeToggle />
        <ProfileMenu />
      </HStack>
    </Flex>
  )
}
