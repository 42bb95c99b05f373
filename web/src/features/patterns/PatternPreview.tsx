import { Box, Stack, Text } from '@chakra-ui/react'
import { counterText } from '../../components/MessageEditor'
import type { Variable } from './api'
import { render, sample } from './model'

/** The text as a recipient reads it, with sample (or given) values, and its part counter. */
export function PatternPreview({ text, variables, values }: { text: string; variables: Variable[]; values?: Record<string, string> }) {
  const filled = render(text, Object.fromEntries(variables.map((v) => [v.name, values?.[v.name] || sample(v)])))
  return (
    <Stack gap="2" data-testid="pattern-preview">
      <Text fontSize="sm" fontWeight="medium">پیش‌نمایش</Text>
      <Box bg="bg.muted" rounded="lg" p="3" whiteSpace="pre-wrap" fontSize="sm" minH="12" wordBreak="break-word">
        {filled || <Text as="span" color="fg.subtle">متن الگو اینجا دیده می‌شود</Text>}
      </Box>
      <Text fontSize="xs" color="fg.muted" aria-live="polite">{counterText(filled, false)}</Text>
    </Stack>
  )
}
