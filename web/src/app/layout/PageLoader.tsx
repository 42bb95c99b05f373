import { Center, Spinner, Stack, Text } from '@chakra-ui/react'

/** The lazy-page fallback: «در حال بارگذاری». */
export function PageLoader({ full = false }: { full?: boolean }) {
  return (
    <Center minH={full ? '100dvh' : '50vh'} role="status" aria-live="polite">
      <Stack align="center" gap="3">
        <Spinner size="lg" color="brand.solid" borderWidth="3px" />
        <Text color="app.muted" fontSize="sm">
          در حال بارگذاری
        </Text>
      </Stack>
    </Center>
  )
}
