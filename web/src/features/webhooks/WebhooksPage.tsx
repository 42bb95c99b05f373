import { Badge, Box, Button, HStack, Stack, Text, Wrap } from '@chakra-ui/react'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DataTable, type DataTableColumn, pagedQueryProps } from '../../components/DataTable'
import { PlusIcon } from '../../components/icons'
import { SectionCard } from '../../components/SectionCard'
import type { TableFilter } from '../../components/TableFilters'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { useDeleteEndpoint, useDeliveries, useEndpoints, useReplay, useTestEndpoint, type Delivery, type Endpoint } from './api'
import { EndpointModal } from './EndpointModal'
import { DELIVERY_STATUS, eventTitle } from './model'

/** /developers/webhooks: the account's webhook endpoints, their deliveries and the dead-letter list (docs/webhooks.md). */
export default function WebhooksPage() {
  return (
    <Stack gap="4">
      <Endpoints />
      <Deliveries />
    </Stack>
  )
}

function Endpoints() {
  const q = useEndpoints()
  const test = useTestEndpoint()
  const remove = useDeleteEndpoint()
  const [editing, setEditing] = useState<Endpoint | null>(null)
  const [open, setOpen] = useState(false)
  const [deleting, setDeleting] = useState<Endpoint | null>(null)
  const sendTest = (r: Endpoint) =>
    test.mutate(r.id, { onSuccess: () => toaster.create({ type: 'success', title: 'رویداد آزمایشی در صف ارسال قرار گرفت' }) })
  const columns: DataTableColumn<Endpoint>[] = [
    {
      key: 'url',
      title: 'نشانی',
      render: (r) => (
        <Stack gap="0.5" minW="0">
          <Text as="bdi" dir="ltr" fontFamily="mono" fontSize="xs" wordBreak="break-all" data-testid="webhook-row-url">{r.url}</Text>
          {r.description && <Text fontSize="xs" color="fg.muted">{r.description}</Text>}
        </Stack>
      ),
    },
    {
      key: 'events',
      title: 'رویدادها',
      hideOnMobile: true,
      render: (r) => (
        <Wrap gap="1">
          {r.events.map((e) => <Badge key={e} variant="subtle" size="sm">{eventTitle(e)}</Badge>)}
        </Wrap>
      ),
    },
    { key: 'enabled', title: 'وضعیت', render: (r) => <Badge colorPalette={r.enabled ? 'green' : 'gray'}>{r.enabled ? 'فعال' : 'غیرفعال'}</Badge> },
    {
      key: 'queue',
      title: 'در صف / ناموفق',
      hideOnMobile: true,
      render: (r) => toPersianDigits(`${r.pending} / ${r.dead}`),
    },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (r) => (
        <HStack gap="1" justify="flex-end" wrap="wrap">
          <Button size="xs" variant="outline" disabled={!r.enabled} loading={test.isPending && test.variables === r.id} onClick={() => sendTest(r)}
            data-testid={`webhook-test-${r.id}`}>
            ارسال آزمایشی
          </Button>
          <Button size="xs" variant="ghost" onClick={() => { setEditing(r); setOpen(true) }} data-testid={`webhook-edit-${r.id}`}>ویرایش</Button>
          <Button size="xs" variant="ghost" colorPalette="red" onClick={() => setDeleting(r)} data-testid={`webhook-delete-${r.id}`}>حذف</Button>
        </HStack>
      ),
    },
  ]
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toaster.create({ type: 'success', title: 'وب‌هوک حذف شد' })
        setDeleting(null)
      },
    })
  return (
    <SectionCard
      title="وب‌هوک‌ها"
      description={<>رویدادهای حساب (گزارش تحویل، پیامک دریافتی، وضعیت ارسال) در دسته‌های تا ۱۰۰ رویدادی به نشانی شما POST می‌شوند؛ هر درخواست با سرآیند <Box as="bdi" dir="ltr" whiteSpace="nowrap">X-Chapar-Signature</Box> امضا می‌شود.</>}
      actions={
        <Button size="sm" colorPalette="brand" onClick={() => { setEditing(null); setOpen(true) }} data-testid="webhook-new">
          <PlusIcon /> وب‌هوک جدید
        </Button>
      }
    >
      <DataTable
        caption="وب‌هوک‌ها"
        columns={columns}
        rows={q.data?.endpoints}
        isLoading={q.isPending}
        isError={q.isError}
        onRetry={() => void q.refetch()}
        rowKey={(r) => r.id}
        emptyText="هنوز وب‌هوکی نساخته‌اید"
      />
      <EndpointModal open={open} onClose={() => setOpen(false)} editing={editing} events={q.data?.events ?? []} />
      <ConfirmDialog
        open={!!deleting}
        onClose={() => { setDeleting(null); remove.reset() }}
        title="حذف وب‌هوک"
        confirmLabel="حذف"
        onConfirm={confirmDelete}
        loading={remove.isPending}
        error={remove.error}
        testId="webhook-delete-confirm"
      >
        <Text>این وب‌هوک و رویدادهای ارسال‌نشدهٔ آن حذف شوند؟</Text>
      </ConfirmDialog>
    </SectionCard>
  )
}

const DELIVERY_FILTERS: TableFilter[] = [
  {
    type: 'options',
    key: 'status',
    title: 'وضعیت',
    options: Object.entries(DELIVERY_STATUS).map(([value, s]) => ({ value, label: s.title })),
  },
]

function Deliveries() {
  const list = useUrlListState({ prefix: 'd_' })
  const filters = list.filters(['status'])
  const q = useDeliveries({ page: list.page, limit: list.limit, ...filters })
  const replay = useReplay()
  const columns: DataTableColumn<Delivery>[] = [
    { key: 'created_at', title: 'زمان', render: (r) => <Text as="span" whiteSpace="nowrap">{formatJalaliDateTime(r.created_at)}</Text> },
    {
      key: 'url',
      title: 'نشانی',
      hideOnMobile: true,
      render: (r) => <Text as="bdi" dir="ltr" fontFamily="mono" fontSize="xs" wordBreak="break-all">{r.url}</Text>,
    },
    { key: 'events', title: 'رویدادها', render: (r) => (r.test ? 'آزمایشی' : toPersianDigits(r.events)) },
    {
      key: 'status',
      title: 'وضعیت',
      render: (r) => (
        <Badge colorPalette={DELIVERY_STATUS[r.status]?.color} data-testid={`delivery-status-${r.id}`}>{DELIVERY_STATUS[r.status]?.title ?? r.status}</Badge>
      ),
    },
    { key: 'attempts', title: 'تلاش‌ها', render: (r) => toPersianDigits(r.attempts) },
    {
      key: 'last_error',
      title: 'آخرین خطا',
      hideOnMobile: true,
      render: (r) => (
        <Text as="bdi" dir="ltr" fontSize="xs" lineClamp={2} title={r.last_error}>
          {r.last_error || (r.last_status ? `HTTP ${r.last_status}` : '—')}
        </Text>
      ),
    },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (r) =>
        r.status === 'dead' ? (
          <Button size="xs" variant="outline" loading={replay.isPending && replay.variables === r.id} data-testid={`delivery-replay-${r.id}`}
            onClick={() => replay.mutate(r.id, { onSuccess: () => toaster.create({ type: 'success', title: 'دوباره در صف ارسال قرار گرفت' }) })}>
            ارسال دوباره
          </Button>
        ) : null,
    },
  ]
  return (
    <SectionCard title="ارسال‌ها" description="هر ردیف یک درخواست POST است؛ ارسال ناموفق تا ۲۴ ساعت با فاصلهٔ فزاینده دوباره فرستاده می‌شود و پس از آن به صف خطا می‌رود.">
      <DataTable
        caption="ارسال‌های وب‌هوک"
        columns={columns}
        {...pagedQueryProps(q)}
        rowKey={(r) => r.id}
        filters={DELIVERY_FILTERS}
        url={{ prefix: 'd_' }}
        emptyText="هنوز ارسالی نبوده است"
      />
    </SectionCard>
  )
}
