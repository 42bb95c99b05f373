import { Box, Flex } from '@chakra-ui/react'
import { Brand } from './Brand'
import { NavMenu } from './NavMenu'

/** Desktop side menu; with dir="rtl" it sits on the right. */
export function Sidebar() {
  return (
    <Flex
      as="aside"
      direction="column"
      w="268px"
      flexShrink={0}
      position="sticky"
      top="0"
      h="100dvh"
      bg="app.sidebar"
      borderInlineEndWidth="1px"
      borderColor="app.border"
      data-testid="sidebar"
    >
      <Box px="5" py="4" borderBottomWidth="1px" borderColor="app.border">
        <Brand />
      </Box>
      <Box flex="1" overflowY="auto" px="3" py="4" css={{ scrollbarWidth: 'thin' }}>
        <NavMenu />
      </Box>
    </Flex>
  )
}
