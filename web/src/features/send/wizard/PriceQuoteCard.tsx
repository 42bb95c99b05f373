import { Box, HStack, Separator, SimpleGrid, Skeleton, Stack, Table, Text } from '@chakra-ui/react'
import { ErrorState } from '../../../components/States'
import { formatNumber, formatRial } from '../../../lib/format'
import { ServerMessage } from '../../../components/ServerMessage'
import { Fact } from '../../../components/Fact'
import { MiniTable } from '../../../components/MiniTable'
import { operatorLabel } from '../../../lib/statuses'
import type { PriceQuote } from '../api'

interface Props {
  quote: PriceQuote | undefined
  loading: boolean
  error: unknown
  onRetry: () => void
  /** Texts differ per row (peer-to-peer, keyword): parts is the largest row's count. */
  perRow?: boolean
  /** A send to the number bank: the account's blacklist and «لغو۱۱» list do not apply to it. */
  bank?: boolean
}

/**
 * What the charity line means (spec §9 «Charity share: 5% of the send cost»): a part
 * of the price already shown, recorded apart, never an extra charge.
 */
export const CHARITY_HELP = 'سهم خیریه بخشی از همین هزینه است، نه مبلغی اضافه: ۵٪ از هزینه هر ارسال به‌عنوان سهم خیریه جداگانه ثبت می‌شود.'

/** The price of the send from POST /send/calculate-price, with the per-operator cost table. */
export function PriceQuoteCard({ quote, loading, error, onRetry, perRow = false, bank = false }: Props) {
  if (loading) return <Skeleton h="48" rounded="xl" />
  if (error || !quote) return <ErrorState py="6" description={<ServerMessage error={error} />} onRetry={onRetry} />
  const withParts = quote.per_operator?.some((o) => o.parts !== undefined)
  const skipped = (quote.duplicates ?? 0) + (quote.blacklisted ?? 0)
  return (
    <Stack gap="4" data-testid="price-quote">
      <SimpleGrid columns={{ base: 2, md: 4, lg: 2 }} gap="3">
        <Fact label="تعداد گیرندگان" value={formatNumber(quote.recipients)} testId="quote-recipients" />
        <Fact label={perRow ? 'بیشترین تعداد بخش هر پیامک' : 'تعداد بخش‌های پیامک'} value={formatNumber(quote.parts)} testId="quote-parts" />
        {!perRow && <Fact label="تعداد کاراکتر" value={formatNumber(quote.characters)} />}
        {!perRow && <Fact label="نوع نگارش" value={quote.encoding === 'ucs2' ? 'فارسی (یونیکد)' : 'لاتین'} />}
        {perRow && quote.total_parts !== undefined && <Fact label="مجموع بخش‌ها" value={formatNumber(quote.total_parts)} testId="quote-total-parts" />}
        {perRow && <Fact label="لغو۱۱" value={quote.cancel11 ? 'افزوده می‌شود' : 'افزوده نمی‌شود'} />}
      </SimpleGrid>
      {skipped > 0 && (
        <Text fontSize="sm" color="app.muted" data-testid="quote-skipped">
          {`${formatNumber(quote.duplicates ?? 0)} شماره تکراری و ${formatNumber(quote.blacklisted ?? 0)} شماره در لیست سیاه یا لغو۱۱ ارسال نمی‌شوند و هزینه‌ای ندارند.`}
        </Text>
      )}
      {(quote.operator_blocked ?? 0) > 0 && (
        <Text fontSize="sm" color="app.muted" data-testid="quote-operator-blocked">
          {`${formatNumber(quote.operator_blocked ?? 0)} شماره دریافت پیامک تبلیغاتی را نزد اپراتور خود (*۸۰۰#) مسدود کرده‌اند؛ به آن‌ها ارسال نمی‌شود و هزینه‌ای ندارند.`}
        </Text>
      )}
      {quote.send_hours && (
        <Text fontSize="sm" color={quote.send_hours.open ? 'app.muted' : 'fg.warning'} data-testid="quote-send-hours">
          {quote.send_hours.note}
        </Text>
      )}
      {quote.gradual && (
        <Text fontSize="sm" color="app.muted" data-testid="quote-gradual">
          {quote.gradual.note}
        </Text>
      )}
      {quote.per_operator?.length > 0 && (
        <MiniTable
          caption="هزینه به تفکیک اپراتور"
          testId="quote-operators"
          columns={[{ title: 'اپراتور' }, { title: 'گیرندگان', align: 'end' }, ...(withParts ? [{ title: 'بخش‌ها', align: 'end' as const }] : []), { title: 'هزینه', align: 'end' }]}
        >
          {quote.per_operator.map((o) => (
            <Table.Row key={o.operator}>
              <Table.Cell>{operatorLabel(o.operator)}</Table.Cell>
              <Table.Cell textAlign="end">{formatNumber(o.recipients)}</Table.Cell>
              {withParts && <Table.Cell textAlign="end">{formatNumber(o.parts ?? 0)}</Table.Cell>}
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {formatRial(o.price)}
              </Table.Cell>
            </Table.Row>
          ))}
        </MiniTable>
      )}
      <Separator />
      <HStack justify="space-between" align="baseline">
        <Text fontWeight="medium">هزینه کل ارسال</Text>
        <Box textAlign="end">
          <Text fontSize="2xl" fontWeight="black" color="brand.fg" data-testid="quote-price">
            {formatRial(quote.price)}
          </Text>
          {!!quote.charity && (
            <>
              <Text fontSize="xs" color="app.muted">
                {`شامل سهم خیریه: ${formatRial(quote.charity)}`}
              </Text>
              <Text fontSize="xs" color="app.muted" maxW="xs" data-testid="quote-charity-help">
                {CHARITY_HELP}
              </Text>
            </>
          )}
          {!bank && (
            <Text fontSize="xs" color="app.muted" data-testid="quote-lists-note">
              هزینه گیرندگان لیست سیاه و لغو۱۱ کسر نمی‌شود.
            </Text>
          )}
        </Box>
      </HStack>
      {bank && (
        <Text fontSize="xs" color="app.muted" data-testid="quote-lists-note">
          لیست سیاه و لغو۱۱ شما روی شماره‌های بانک اعمال نمی‌شود؛ هزینه همه گیرندگان محاسبه می‌شود.
        </Text>
      )}
    </Stack>
  )
}
