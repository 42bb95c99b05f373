import { Box, Flex, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { formatNumber } from '../../lib/format'
import { toPersianDigits } from '../../lib/digits'
import type { BulkStats } from '../../lib/reports'
import { percentOf, progressSegments } from './progress'

/** The live, status-segmented progress bar of one send with its legend. */
export function SendProgress({ stats }: { stats: BulkStats }) {
  const { total, processed, segments } = progressSegments(stats)
  const done = percentOf(processed, total)
  return (
    <Stack gap="4" data-testid="send-progress" data-processed={processed} data-total={total}>
      <HStack justify="space-between" fontSize="sm">
        <Text color="app.muted">پیشرفت ارسال</Text>
        <Text fontWeight="bold" data-testid="progress-percent">
          {toPersianDigits(done)}٪
        </Text>
      </HStack>
      <Flex h="3.5" rounded="full" overflow="hidden" bg="bg.muted" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={done} aria-label="پیشرفت ارسال">
        {segments
          .filter((s) => s.key !== 'pending' && s.value > 0)
          .map((s) => (
            <Box key={s.key} w={`${percentOf(s.value, total)}%`} bg={`${s.color}.solid`} transition="width 0.6s ease" title={s.label} />
          ))}
      </Flex>
      <SimpleGrid columns={{ base: 2, md: 5 }} gap="3">
        {segments.map((s) => (
          <Stack key={s.key} gap="0.5" p="3" rounded="lg" bg="app.raised" borderWidth="1px" borderColor="app.border" data-testid={`seg-${s.key}`} data-value={s.value}>
            <HStack gap="1.5">
              <Box boxSize="2.5" rounded="full" bg={`${s.color}.solid`} flexShrink={0} />
              <Text fontSize="xs" color="app.muted" truncate>
                {s.label}
              </Text>
            </HStack>
            <Text fontWeight="bold" fontSize="lg">
              {formatNumber(s.value)}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  )
}
