import { Grid, Stack } from '@chakra-ui/react'
import type { UseQueryResult } from '@tanstack/react-query'
import { formatNumber } from '../../../lib/format'
import { toPersianDigits } from '../../../lib/digits'
import { SectionCard } from '../../../components/SectionCard'
import type { PriceQuote } from '../api'
import { PriceQuoteCard } from '../wizard/PriceQuoteCard'
import { MessagePreview, ReviewRow, gradualText, scheduleText } from '../wizard/review'
import { isGradual } from '../../../lib/gradual'
import type { QuickDraft } from './draft'

/** Step 3: a summary, the text as the recipient sees it and the price. */
export function StepReview({ draft, quote }: { draft: QuickDraft; quote: UseQueryResult<PriceQuote> }) {
  return (
    <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap="5" alignItems="start">
      <Stack gap="5">
        <SectionCard title="خلاصه ارسال" p="4" shadow="none">
          <ReviewRow label="خط ارسال">
            <bdi>{toPersianDigits(draft.sender)}</bdi>
          </ReviewRow>
          <ReviewRow label="تعداد شماره‌های واردشده">{formatNumber(draft.numbers.length)}</ReviewRow>
          <ReviewRow label="زمان ارسال">{scheduleText(draft)}</ReviewRow>
          {isGradual(draft) && <ReviewRow label="ارسال تدریجی">{gradualText(draft)}</ReviewRow>}
          <ReviewRow label="لغو۱۱">{draft.cancel11 ? 'افزوده می‌شود' : 'افزوده نمی‌شود'}</ReviewRow>
        </SectionCard>
        <MessagePreview text={draft.text} cancel11={draft.cancel11} />
      </Stack>
      <SectionCard title="هزینه" p="4" shadow="none">
        <PriceQuoteCard quote={quote.data} loading={quote.isPending} error={quote.error} onRetry={() => quote.refetch()} />
      </SectionCard>
    </Grid>
  )
}
