import { Badge, Card, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { EmptyState } from '../../components/States'
import { ApiError } from '../../lib/apiError'
import { formatNumber } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { OPERATORS } from '../../lib/statuses'
import { useOperations, type OperationsBind, type OperationsQueue } from './api'

/** A bind's state as staff read it: bound (green), throttled (orange), anything else down (red). */
export function bindState(b: Pick<OperationsBind, 'state' | 'bound'>): { label: string; color: string } {
  if (b.state === 'throttled') return { label: 'کاهش سرعت (ESME_RTHROTTLED)', color: 'orange' }
  if (b.bound) return { label: 'متصل', color: 'green' }
  if (b.state === 'connecting') return { label: 'در حال اتصال', color: 'orange' }
  return { label: 'قطع', color: 'red' }
}

/** A rate per second, rounded to one decimal, in Persian digits. */
export const perSecond = (v: number) => `${formatNumber(Math.round(v * 10) / 10)} در ثانیه`

/** The age of a queue's oldest pending task, e.g. «۱۲ ثانیه»; «—» when none waits. */
export function waited(seconds: number): string {
  if (seconds < 1) return '—'
  if (seconds < 120) return `${formatNumber(Math.round(seconds))} ثانیه`
  return `${formatNumber(Math.round(seconds / 60))} دقیقه`
}

const bindColumns: DataTableColumn<OperationsBind>[] = [
  { key: 'name', title: 'اتصال', render: (b) => <bdi dir="ltr">{b.name}</bdi> },
  { key: 'operator', title: 'اپراتور', render: (b) => OPERATORS[b.operator] ?? b.operator },
  {
    key: 'state', title: 'وضعیت', render: (b) => {
      const s = bindState(b)
      return <Badge colorPalette={s.color}>{s.label}</Badge>
    },
  },
  { key: 'gateway', title: 'درگاه', hideOnMobile: true, render: (b) => (b.gateway ? <bdi dir="ltr">{b.gateway}</bdi> : '—') },
]

const count = (key: keyof OperationsQueue, title: string, hideOnMobile = false): DataTableColumn<OperationsQueue> => ({
  key, title, hideOnMobile, align: 'end', render: (q) => formatNumber(q[key] as number),
})

const queueColumns: DataTableColumn<OperationsQueue>[] = [
  {
    key: 'name', title: 'صف', render: (q) => (
      <>
        <bdi dir="ltr">{q.name}</bdi>
        {q.paused && <Badge ms="2" colorPalette="red">متوقف</Badge>}
      </>
    ),
  },
  count('pending', 'در انتظار'),
  count('active', 'در حال اجرا'),
  count('scheduled', 'زمان‌بندی‌شده', true),
  count('retry', 'تلاش دوباره', true),
  count('archived', 'شکست‌خورده', true),
  { key: 'latency_seconds', title: 'قدیمی‌ترین انتظار', align: 'end', render: (q) => waited(q.latency_seconds) },
]

/** A figure of the throughput row. */
function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card.Root size="sm" variant="outline">
      <Card.Body gap="1">
        <Text fontSize="sm" color="fg.muted">{label}</Text>
        <Text fontSize="2xl" fontWeight="bold" data-testid={testId}>{value}</Text>
      </Card.Body>
    </Card.Root>
  )
}

/**
 * /admin/operations: the send engine now, for the staff whose role grants it — the carriers' throughput,
 * every SMPP bind and the gateway holding it, and the task queues, read again every two seconds.
 */
export default function OperationsPage() {
  const { data, isPending, isError, error, refetch } = useOperations()
  if (error instanceof ApiError && error.status === 403) {
    return (
      <Stack gap="4">
        <Heading size="lg">پایش عملیات</Heading>
        <EmptyState title="شما دسترسی پایش عملیات ندارید"
          description="یکی از کاربران پشتیبانی می‌تواند در «کاربران پشتیبانی» این دسترسی را به شما بدهد." />
      </Stack>
    )
  }
  // Every bind and queue in one list each (a handful): no pages.
  const rows = { isLoading: isPending, isError, onRetry: () => void refetch() }
  return (
    <Stack gap="5">
      <Stack gap="1">
        <Heading size="lg">پایش عملیات</Heading>
        <Text color="fg.muted" fontSize="sm">
          هر دو ثانیه به‌روز می‌شود{data ? ` — آخرین به‌روزرسانی ${formatJalaliDateTime(data.at)}` : ''}
        </Text>
      </Stack>
      <SimpleGrid columns={{ base: 1, md: 3 }} gap="3">
        <Stat label="پیامک پذیرفته‌شده اپراتورها" value={data ? perSecond(data.throughput.submits) : '…'} testId="ops-submits" />
        <Stat label="رسید تحویل" value={data ? perSecond(data.throughput.receipts) : '…'} testId="ops-receipts" />
        <Stat label="درگاه‌های فعال" value={data ? formatNumber(data.gateways) : '…'} testId="ops-gateways" />
      </SimpleGrid>
      <Stack gap="2">
        <Heading size="md" as="h2">اتصال‌های SMPP</Heading>
        <DataTable caption="اتصال‌های SMPP" columns={bindColumns} rows={data?.binds}
          rowKey={(b) => b.name} emptyText="هیچ درگاهی اتصالی گزارش نکرده است" {...rows} />
      </Stack>
      <Stack gap="2">
        <Heading size="md" as="h2">صف‌های کار</Heading>
        <DataTable caption="صف‌های کار" columns={queueColumns} rows={data?.queues}
          rowKey={(q) => q.name} emptyText="صفی وجود ندارد" {...rows} />
      </Stack>
    </Stack>
  )
}
