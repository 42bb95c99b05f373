import { Box, HStack, Text } from '@chakra-ui/react'
import { formatNumber } from '../../lib/format'
import { toPersianDigits } from '../../lib/digits'
import type { PartState } from '../../lib/reports'
import { PART_STATE, isPartial, summarizeParts } from '../../lib/statuses'

/**
 * A recipient's parts: the count, and when it has part states, one small square per
 * part coloured by its state (hover or a screen reader gives the states in words).
 */
export function PartsIndicator({ parts, states }: { parts: number; states?: PartState[] }) {
  if (!states?.length) return <>{formatNumber(parts)}</>
  const summary = summarizeParts(states)
    .map((s) => `${toPersianDigits(String(s.count))} ${PART_STATE[s.state].label}`)
    .join('، ')
  return (
    <HStack gap="1.5" justify="flex-end" title={summary} data-testid="part-states" data-partial={isPartial(states)}>
      <Text as="span">{formatNumber(parts)}</Text>
      <HStack as="span" gap="0.5" flexWrap="wrap" maxW="24" role="img" aria-label={`وضعیت بخش‌ها: ${summary}`}>
        {states.map((s, i) => (
          <Box as="span" key={i} boxSize="2" rounded="xs" colorPalette={PART_STATE[s].color} bg="colorPalette.solid" />
        ))}
      </HStack>
    </HStack>
  )
}
