import { Code, Heading, Stack, Text } from '@chakra-ui/react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { useQuarantine, type QuarantinedEntry } from './api'

/** The raw bytes as hex octets in groups of two, for reading. */
const octets = (hex: string) => hex.match(/.{1,2}/g)?.join(' ') ?? ''

/**
 * /admin/inbound-quarantine: the receipts and MO parts a carrier sent that the worker could not apply
 * (bytes that are not UTF-8, a malformed entry, a value the database refused). Each is kept with its raw
 * bytes (the entry's fields as key=value lines), and everything else was applied.
 */
export default function QuarantinePage() {
  const list = useUrlListState()
  const { data, isPending, isError, refetch } = useQuarantine({ page: list.page, limit: list.limit })
  const columns: DataTableColumn<QuarantinedEntry>[] = [
    { key: 'created_at', title: 'زمان', render: (e) => formatJalaliDateTime(e.created_at) },
    { key: 'stream_id', title: 'شناسه ورودی', hideOnMobile: true, render: (e) => <bdi>{toPersianDigits(e.stream_id)}</bdi> },
    { key: 'reason', title: 'دلیل', render: (e) => <Text dir="ltr" textAlign="start" wordBreak="break-word">{e.reason}</Text> },
    {
      key: 'raw_hex', title: 'بایت‌های خام (هگز)', render: (e) => (
        <Code dir="ltr" display="block" whiteSpace="pre-wrap" wordBreak="normal" fontSize="xs" maxW="md">{octets(e.raw_hex)}</Code>
      ),
    },
  ]
  return (
    <Stack gap="4">
      <Heading size="lg">ورودی‌های قرنطینه‌شده</Heading>
      <Text color="fg.muted" fontSize="sm">
        رسیدها و پیام‌های دریافتی اپراتور که قابل ثبت نبودند؛ بقیهٔ ورودی‌ها ثبت شده‌اند و این موارد دیگر مانع چیزی نمی‌شوند.
      </Text>
      <DataTable caption="ورودی‌های قرنطینه‌شده" columns={columns} rows={data?.rows} total={data?.meta.total} rowKey={(e) => e.id}
        isLoading={isPending} isError={isError} onRetry={() => refetch()} emptyText="ورودی قرنطینه‌شده‌ای نیست" />
    </Stack>
  )
}
