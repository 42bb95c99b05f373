import { Badge, Box, Center, HStack, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { ChevronLeftIcon } from './outlineIcons'
import type { SendMethod } from './sendMethods'

/** A send method tile, a link to its form. */
export function MethodCard({ method, compact = false }: { method: SendMethod; compact?: boolean }) {
  const Icon = method.icon
  const icon = (
    <Center
      boxSize={compact ? '10' : '12'}
      rounded="xl"
      flexShrink={0}
      bg="brand.solid"
      color="brand.contrast"
    >
      <Icon boxSize={compact ? '5' : '6'} />
    </Center>
  )
  const body = compact ? (
    <Stack gap="2" align="center" textAlign="center" w="full">
      {icon}
      <Text fontWeight="semibold" fontSize="xs" lineClamp={2} minH="2lh">
        {method.title}
      </Text>
      <Badge size="sm" variant="solid" colorPalette="brand">
        فعال
      </Badge>
    </Stack>
  ) : (
    <HStack gap="3" align="center" w="full">
      {icon}
      <Stack gap="0.5" flex="1" minW="0">
        <Text fontWeight="bold" fontSize="md" truncate>
          {method.title}
        </Text>
        <Text fontSize="sm" color="app.muted" lineClamp={2}>
          {method.description}
        </Text>
      </Stack>
      <ChevronLeftIcon color="brand.fg" boxSize="5" flexShrink={0} />
    </HStack>
  )
  return (
    <Box
      asChild
      display="flex"
      p={compact ? '3' : '4'}
      rounded="xl"
      borderWidth="1px"
      bg="app.surface"
      h="full"
      borderColor="brand.emphasized"
      shadow="card"
      transition="transform 0.15s, box-shadow 0.15s, border-color 0.15s"
      _hover={{ borderColor: 'brand.solid', transform: 'translateY(-2px)' }}
      _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing' }}
      data-testid={`method-${method.key}`}
    >
      <RouterLink to={method.path}>{body}</RouterLink>
    </Box>
  )
}
