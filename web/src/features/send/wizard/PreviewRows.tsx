import { Stack, Table, Text } from '@chakra-ui/react'
import { MiniTable } from '../../../components/MiniTable'
import { toPersianDigits } from '../../../lib/digits'
import { formatNumber, formatRial } from '../../../lib/format'
import type { PriceQuote } from '../api'

/** The first rows of a personalised send as each handset gets them, with parts and price per row. */
export function PreviewRows({ quote, cancel11 }: { quote: PriceQuote | undefined; cancel11: boolean }) {
  const rows = quote?.preview ?? []
  if (!rows.length) return null
  return (
    <Stack gap="2" data-testid="preview-rows">
      <Text fontSize="sm" color="app.muted">
        {`پیش‌نمایش ${formatNumber(rows.length)} گیرنده نخست (متن هر مخاطب با برچسب‌های خودش)${cancel11 ? '؛ «لغو۱۱» به انتهای هر پیامک افزوده می‌شود' : ''}`}
      </Text>
      <MiniTable caption="پیش‌نمایش گیرندگان" columns={[{ title: 'گیرنده' }, { title: 'متن پیامک' }, { title: 'بخش', align: 'end' }, { title: 'هزینه', align: 'end' }]}>
        {rows.map((r) => (
          <Table.Row key={r.mobile} data-testid="preview-row">
            <Table.Cell whiteSpace="nowrap"><bdi dir="ltr">{toPersianDigits(r.mobile)}</bdi></Table.Cell>
            <Table.Cell whiteSpace="pre-wrap" wordBreak="break-word" minW="48" data-testid="preview-text">{r.text}</Table.Cell>
            <Table.Cell textAlign="end">{formatNumber(r.parts)}</Table.Cell>
            <Table.Cell textAlign="end" whiteSpace="nowrap" data-testid="preview-price">{formatRial(r.price)}</Table.Cell>
          </Table.Row>
        ))}
      </MiniTable>
    </Stack>
  )
}
