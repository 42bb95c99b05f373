import { Grid, Stack, Switch, Text } from '@chakra-ui/react'
import type { UseQueryResult } from '@tanstack/react-query'
import { formatNumber } from '../../../lib/format'
import { SectionCard } from '../../../components/SectionCard'
import type { PriceQuote } from '../api'
import type { BulkDraft, BulkErrors } from '../wizard/bulkDraft'
import { sendableCount, type UserFile } from '../../../lib/files'
import { Fact } from '../../../components/Fact'
import { PriceQuoteCard } from '../wizard/PriceQuoteCard'
import { ScheduleField } from '../wizard/ScheduleField'

/** Sum of the per-row parts of a peer-to-peer file, with or without the «لغو۱۱» footer. */
export function p2pParts(file: Pick<UserFile, 'per_operator'> | undefined, cancel11: boolean): number {
  return (file?.per_operator ?? []).reduce((sum, o) => sum + ((cancel11 ? o.parts_cancel11 : o.parts) ?? 0), 0)
}

interface Props {
  draft: BulkDraft
  errors: BulkErrors
  file: UserFile | undefined
  quote: UseQueryResult<PriceQuote>
  onChange: (patch: Partial<BulkDraft>) => void
}

/** Step 2 of peer-to-peer: no editor (each row has its text); cancel-11, schedule and the live price. */
export function P2PSettingsStep({ draft, errors, file, quote, onChange }: Props) {
  return (
    <Grid templateColumns={{ base: '1fr', lg: '1fr 1fr' }} gap="5" alignItems="start">
      <Stack gap="6" minW="0">
        <Stack gap="3">
          <Text fontSize="sm" color="app.muted">
            متن هر پیامک از ستون پیام همان ردیف فایل خوانده می‌شود؛ تعداد بخش‌ها و هزینه برای هر ردیف جداگانه حساب می‌شود.
          </Text>
          <Grid templateColumns="repeat(2, 1fr)" gap="3">
            <Fact label="گیرندگان" value={formatNumber(file ? sendableCount(file) : 0)} />
            <Fact label="مجموع بخش‌ها" value={formatNumber(p2pParts(file, draft.cancel11))} testId="p2p-parts" />
          </Grid>
          <Switch.Root
            size="sm"
            colorPalette="brand"
            checked={draft.cancel11}
            onCheckedChange={(e) => onChange({ cancel11: e.checked, cancel11Touched: true })}
            data-testid="p2p-cancel11"
          >
            <Switch.HiddenInput />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label fontSize="sm">افزودن «لغو۱۱» به انتهای هر پیام (۶ کاراکتر)</Switch.Label>
          </Switch.Root>
        </Stack>
        <ScheduleField value={draft} onChange={onChange} error={errors.sendAt} gradualError={errors.gradual} />
      </Stack>
      <SectionCard title="هزینه" p="4" shadow="none" minW="0">
        <PriceQuoteCard quote={quote.data} loading={quote.isPending} error={quote.error} onRetry={() => quote.refetch()} perRow />
      </SectionCard>
    </Grid>
  )
}
