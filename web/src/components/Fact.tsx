import { Stack, Text } from '@chakra-ui/react'

/** A labelled figure of a summary (price, recipients, a phonebook's count). */
export function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Stack gap="0.5" p="3" rounded="lg" bg="app.raised" borderWidth="1px" borderColor="app.border">
      <Text fontSize="xs" color="app.muted">
        {label}
      </Text>
      <Text fontWeight="bold" data-testid={testId}>
        {value}
      </Text>
    </Stack>
  )
}
