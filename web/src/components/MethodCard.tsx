import { Badge, Box, Center, HStack, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { ChevronLeftIcon } from './outlineIcons'
import type { SendMethod } from './sendMethods'

/** A send method tile: a link when active, a muted «به‌زودی» card (not clickable) otherwise. */
export function MethodCard({ method, compact = false }: { method: SendMethod; compact?: boolean }) {
  const Icon = method.icon
  const icon = (
    <Center
      boxSize={compact ? '10' : '12'}
      rounded="xl"
      flexShrink={0}
      bg={method.active ? 'brand.solid' : 'bg.muted'}
      color={method.active ? 'brand.contrast' : 'fg.muted'}
    >
      <Icon boxSize={compact ? '5' : '6'} />
    </Center>
  )
  const soon = !method.active && (
    <Badge size="sm" variant="subtle" colorPalette="gray" flexShrink={0}>
      به‌زودی
    </Badge>
  )
  const body = compact ? (
    <Stack gap="2" align="center" textAlign="center" w="full">
      {icon}
      <Text fontWeight="semibold" fontSize="xs" lineClamp={2} minH="2lh">
        {method.title}
      </Text>
      {soon || (
        <Badge size="sm" variant="solid" colorPalette="brand">
          فعال
        </Badge>
      )}
    </Stack>
  ) : (
    <HStack gap="3" align="center" w="full">
      {icon}
      <Stack gap="0.5" flex="1" minW="0">
        <HStack gap="2">
          <Text fontWeight="bold" fontSize="md" truncate>
            {method.title}
          </Text>
          {soon}
        </HStack>
        <Text fontSize="sm" color="app.muted" lineClamp={2}>
          {method.description}
        </Text>
      </Stack>
      {method.active && <ChevronLeftIcon color="brand.fg" boxSize="5" flexShrink={0} />}
    </HStack>
  )
  const frame = {
    display: 'flex',
    p: compact ? '3' : '4',
    rounded: 'xl',
    borderWidth: '1px',
    bg: 'app.surface',
    h: 'full',
  } as const

  if (!method.active) {
    return (
      <Box {...frame} borderColor="app.border" opacity={0.7} cursor="not-allowed" aria-disabled="true" data-testid={`method-${method.key}`}>
        {body}
      </Box>
    )
  }
  return (
    <Box
      asChild
      {...frame}
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
