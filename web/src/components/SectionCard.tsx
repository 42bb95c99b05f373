import { Box, Flex, Heading, Text, type BoxProps } from '@chakra-ui/react'
import type { ReactNode } from 'react'

interface Props extends Omit<BoxProps, 'title'> {
  title?: ReactNode
  description?: ReactNode
  actions?: ReactNode
  children?: ReactNode
}

/** The panel's card: surface, soft border and shadow, optional title row. */
export function SectionCard({ title, description, actions, children, ...rest }: Props) {
  return (
    <Box bg="app.surface" borderWidth="1px" borderColor="app.border" rounded="card" shadow="card" p={{ base: '4', md: '5' }} {...rest}>
      {(title || actions) && (
        <Flex align="center" gap="3" mb={children ? '4' : '0'} wrap="wrap">
          <Box flex="1" minW="0">
            {title && (
              <Heading as="h2" size="sm">
                {title}
              </Heading>
            )}
            {description && (
              <Text fontSize="sm" color="app.muted" mt="0.5">
                {description}
              </Text>
            )}
          </Box>
          {actions}
        </Flex>
      )}
      {children}
    </Box>
  )
}
