import { Badge, Box, Grid, HStack, Stack, Table, Text } from '@chakra-ui/react'
import { formatNumber } from '../../../lib/format'
import { toPersianDigits } from '../../../lib/digits'
import { operatorLabel } from '../../../lib/statuses'
import { columnLabel, fileApi, sendableCount, type UserFile } from '../../../lib/files'
import { DownloadAction, MiniTable, type MiniColumn } from '../../../components/MiniTable'

/** Share of `part` in `whole` as «۱۲٫۵٪». */
export function percentText(part: number, whole: number): string {
  if (!whole) return '—'
  return `${formatNumber(Math.round((part / whole) * 1000) / 10)}٪`
}

/** The rows of the pre-flight table: what the file holds and what will be sent. */
export function preflightRows(f: UserFile): Array<{ key: string; label: string; value: number; tone?: string; strong?: boolean }> {
  const pairs = f.purpose === 'peer_to_peer'
  return [
    { key: 'records', label: 'کل ردیف‌های فایل', value: f.records },
    { key: 'valid', label: pairs ? 'ردیف‌های معتبر یکتا (شماره و پیام)' : 'شماره‌های معتبر یکتا', value: f.valid, tone: 'green' },
    { key: 'invalid', label: 'ردیف‌های نامعتبر', value: f.invalid, tone: 'red' },
    { key: 'duplicates', label: 'ردیف‌های تکراری', value: f.duplicates, tone: 'orange' },
    { key: 'blacklisted', label: 'لیست سیاه و لغو۱۱', value: f.blacklisted, tone: 'gray' },
    { key: 'sendable', label: 'قابل ارسال', value: sendableCount(f), strong: true },
  ]
}

/** The pre-flight report of a parsed file: counts, per-operator split and the row errors. Nothing is charged yet. */
export function PreflightReport({ file }: { file: UserFile }) {
  const rows = preflightRows(file)
  const p2p = file.purpose === 'peer_to_peer'
  const mobile = file.columns?.find((c) => c.index === file.mobile_col)
  const text = file.columns?.find((c) => c.index === file.text_col)
  const operatorColumns: MiniColumn[] = [
    { title: 'اپراتور' },
    { title: 'گیرندگان', align: 'end' },
    ...(p2p ? [{ title: 'بخش‌ها', align: 'end' as const }, { title: 'با لغو۱۱', align: 'end' as const }] : []),
  ]
  return (
    <Stack gap="4" data-testid="preflight">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Text fontWeight="semibold">گزارش پیش از ارسال</Text>
        <HStack gap="2" wrap="wrap" fontSize="xs" color="app.muted">
          {mobile && <Badge variant="outline">{`شماره موبایل: ${columnLabel(mobile)}`}</Badge>}
          {text && <Badge variant="outline">{`متن پیام: ${columnLabel(text)}`}</Badge>}
        </HStack>
      </HStack>
      <Grid templateColumns={{ base: '1fr', lg: '3fr 2fr' }} gap="4" alignItems="start">
        <MiniTable caption="گزارش پیش از ارسال" columns={[{ title: 'شرح' }, { title: 'تعداد', align: 'end' }, { title: 'درصد', align: 'end' }]}>
          {rows.map((r) => (
            <Table.Row key={r.key} data-testid={`preflight-${r.key}`} data-value={r.value} bg={r.strong ? 'brand.subtle' : undefined}>
              <Table.Cell fontWeight={r.strong ? 'bold' : undefined}>
                <HStack gap="2">
                  {r.tone && <Box boxSize="2" rounded="full" flexShrink={0} bg={`${r.tone}.solid`} aria-hidden />}
                  <Text as="span">{r.label}</Text>
                </HStack>
              </Table.Cell>
              <Table.Cell textAlign="end" fontWeight={r.strong ? 'bold' : 'semibold'}>
                {formatNumber(r.value ?? 0)}
              </Table.Cell>
              <Table.Cell textAlign="end" color="app.muted">
                {percentText(r.value ?? 0, file.records)}
              </Table.Cell>
            </Table.Row>
          ))}
        </MiniTable>
        {file.per_operator?.length > 0 && (
          <MiniTable caption="گیرندگان به تفکیک اپراتور" columns={operatorColumns}>
            {file.per_operator.map((o) => (
              <Table.Row key={o.operator}>
                <Table.Cell>{operatorLabel(o.operator)}</Table.Cell>
                <Table.Cell textAlign="end">{formatNumber(o.recipients)}</Table.Cell>
                {p2p && <Table.Cell textAlign="end">{formatNumber(o.parts ?? 0)}</Table.Cell>}
                {p2p && <Table.Cell textAlign="end">{formatNumber(o.parts_cancel11 ?? 0)}</Table.Cell>}
              </Table.Row>
            ))}
          </MiniTable>
        )}
      </Grid>
      {file.invalid > 0 && (
        <Stack gap="2" data-testid="row-errors">
          <HStack justify="space-between" wrap="wrap" gap="2">
            <Text fontSize="sm" color="app.muted">
              {`${formatNumber(file.invalid)} ردیف خطا دارد و ارسال نمی‌شود.`}
            </Text>
            <DownloadAction run={() => fileApi.downloadErrors(file.id)} label="دریافت خطاهای ردیف‌ها (اکسل)" testId="errors-download" />
          </HStack>
          {!!file.errors_sample?.length && (
            <MiniTable caption="نمونه خطاهای ردیف‌ها" maxH="60" columns={[{ title: 'ردیف', width: '20' }, { title: 'مقدار' }, { title: 'خطا' }]}>
              {file.errors_sample.map((e) => (
                <Table.Row key={`${e.row}-${e.kind}`}>
                  <Table.Cell>{toPersianDigits(e.row)}</Table.Cell>
                  <Table.Cell>
                    <bdi>{e.value ? toPersianDigits(e.value) : '—'}</bdi>
                  </Table.Cell>
                  <Table.Cell color="fg.error">{e.message}</Table.Cell>
                </Table.Row>
              ))}
            </MiniTable>
          )}
        </Stack>
      )}
    </Stack>
  )
}
