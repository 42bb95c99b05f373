import { Box, Grid, HStack, Stack, Text } from '@chakra-ui/react'
import type { UseQueryResult } from '@tanstack/react-query'
import { formatNumber } from '../../../lib/format'
import { formatJalaliDateTime } from '../../../lib/jalali'
import { toPersianDigits } from '../../../lib/digits'
import { SectionCard } from '../../common/SectionCard'
import type { PriceQuote } from '../api'
import type { QuickDraft } from './draft'
import { PriceQuoteCard } from './PriceQuoteCard'

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <HStack justify="space-between" py="2.5" borderBottomWidth="1px" borderColor="app.border" _last={{ borderBottomWidth: 0 }} gap="4">
      <Text color="app.muted" fontSize="sm">
        {label}
      </Text>
      <Box fontWeight="semibold" fontSize="sm" textAlign="end">
        {children}
      </Box>
    </HStack>
  )
}

/** Step 3: a summary, the text as the recipient sees it and the price. */
export function StepReview({ draft, quote }: { draft: QuickDraft; quote: UseQueryResult<PriceQuote> }) {
  return (
    <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap="5" alignItems="start">
      <Stack gap="5">
        <SectionCard title="خلاصه ارسال" p="4" shadow="none">
          <Row label="خط ارسال">
            <bdi>{toPersianDigits(draft.sender)}</bdi>
          </Row>
          <Row label="تعداد شماره‌های واردشده">{formatNumber(draft.numbers.length)}</Row>
          <Row label="زمان ارسال">{draft.schedule === 'later' && draft.sendAt ? formatJalaliDateTime(draft.sendAt) : 'فوری'}</Row>
          <Row label="لغو۱۱">{draft.cancel11 ? 'افزوده می‌شود' : 'افزوده نمی‌شود'}</Row>
        </SectionCard>
        <Stack gap="2">
          <Text fontSize="sm" color="app.muted">
            پیش‌نمایش پیامک
          </Text>
          <Box
            alignSelf="flex-start"
            maxW="full"
            bg="brand.subtle"
            borderWidth="1px"
            borderColor="brand.muted"
            px="4"
            py="3"
            rounded="2xl"
            roundedTopLeft="sm"
            whiteSpace="pre-wrap"
            wordBreak="break-word"
            data-testid="review-text"
          >
            {draft.text}
            {draft.cancel11 && <Text color="app.muted">لغو۱۱</Text>}
          </Box>
        </Stack>
      </Stack>
      <SectionCard title="هزینه" p="4" shadow="none">
        <PriceQuoteCard quote={quote.data} loading={quote.isPending} error={quote.error} onRetry={() => quote.refetch()} />
      </SectionCard>
    </Grid>
  )
}
