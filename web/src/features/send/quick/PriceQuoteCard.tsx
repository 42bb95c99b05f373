import { Box, HStack, Separator, SimpleGrid, Skeleton, Stack, Table, Text } from '@chakra-ui/react'
import { ErrorState } from '../../../components/States'
import { formatNumber, formatRial } from '../../../lib/format'
import { ServerMessage } from '../../common/ServerMessage'
import { operatorLabel } from '../../reports/statuses'
import type { PriceQuote } from '../api'

interface Props {
  quote: PriceQuote | undefined
  loading: boolean
  error: unknown
  onRetry: () => void
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
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

/** The price of the send from POST /send/calculate-price, with the per-operator split. */
export function PriceQuoteCard({ quote, loading, error, onRetry }: Props) {
  if (loading) return <Skeleton h="48" rounded="xl" />
  if (error || !quote) return <ErrorState py="6" description={<ServerMessage error={error} />} onRetry={onRetry} />
  return (
    <Stack gap="4" data-testid="price-quote">
      <SimpleGrid columns={{ base: 2, md: 4, lg: 2 }} gap="3">
        <Fact label="تعداد گیرندگان" value={formatNumber(quote.recipients)} testId="quote-recipients" />
        <Fact label="تعداد بخش‌های پیامک" value={formatNumber(quote.parts)} testId="quote-parts" />
        <Fact label="تعداد کاراکتر" value={formatNumber(quote.characters)} />
        <Fact label="نوع نگارش" value={quote.encoding === 'ucs2' ? 'فارسی (یونیکد)' : 'لاتین'} />
      </SimpleGrid>
      {quote.per_operator?.length > 0 && (
        <Table.Root size="sm" variant="outline" rounded="lg" overflow="hidden">
          <Table.Header>
            <Table.Row bg="app.raised">
              <Table.ColumnHeader>اپراتور</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">گیرندگان</Table.ColumnHeader>
              <Table.ColumnHeader textAlign="end">هزینه</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {quote.per_operator.map((o) => (
              <Table.Row key={o.operator}>
                <Table.Cell>{operatorLabel(o.operator)}</Table.Cell>
                <Table.Cell textAlign="end">{formatNumber(o.recipients)}</Table.Cell>
                <Table.Cell textAlign="end">{formatRial(o.price)}</Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      )}
      <Separator />
      <HStack justify="space-between" align="baseline">
        <Text fontWeight="medium">هزینه کل ارسال</Text>
        <Box textAlign="end">
          <Text fontSize="2xl" fontWeight="black" color="brand.fg" data-testid="quote-price">
            {formatRial(quote.price)}
          </Text>
          <Text fontSize="xs" color="app.muted">
            هزینه گیرندگان لیست سیاه و لغو۱۱ کسر نمی‌شود.
          </Text>
        </Box>
      </HStack>
    </Stack>
  )
}
