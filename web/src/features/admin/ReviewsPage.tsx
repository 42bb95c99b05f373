import { Badge, Button, Card, Field, Heading, HStack, Stack, Text, Textarea } from '@chakra-ui/react'
import { useState } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { Modal } from '../../components/Overlays'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { downloadFile } from '../../lib/api'
import { ApiError } from '../../lib/apiError'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { ModerationDialog } from './ModerationDialog'
import { PatternVersionDialog } from './PatternVersionDialog'
import { OfflinePaymentDialog } from './OfflinePaymentDialog'
import { adminApi, useAdminMutation, useQueues, useReviewItems, type ReviewItem, type ReviewStatus } from './api'

const STATUS: Record<ReviewStatus, { label: string; color: string }> = {
  pending: { label: 'در انتظار بررسی', color: 'yellow' },
  approved: { label: 'تایید شده', color: 'green' },
  rejected: { label: 'رد شده', color: 'red' },
}

/** /admin/reviews: every review queue (held sends today; patterns, documents … as they plug in). */
export default function ReviewsPage() {
  const { data: queues } = useQueues()
  const filters: TableFilter[] = [
    { key: 'kind', title: 'صف', type: 'options', options: (queues ?? []).map((q) => ({ value: q.kind, label: q.title })) },
    { key: 'status', title: 'وضعیت', type: 'options', options: Object.entries(STATUS).map(([value, s]) => ({ value, label: s.label })) },
  ]
  const list = useUrlListState()
  const f = list.filters(allFilterKeys(filters))
  const { data, isPending, isError, refetch } = useReviewItems({
    page: list.page, limit: list.limit, kind: f.kind || undefined, status: (f.status || 'pending') as ReviewStatus,
  })
  const [rejecting, setRejecting] = useState<ReviewItem | null>(null)
  const [rules, setRules] = useState(false)
  const [viewing, setViewing] = useState<ReviewItem | null>(null)
  const [offline, setOffline] = useState<number | null>(null)
  const approve = useAdminMutation(adminApi.approve)
  const titles = Object.fromEntries((queues ?? []).map((q) => [q.kind, q.title]))

  const columns: DataTableColumn<ReviewItem>[] = [
    { key: 'id', title: 'شناسه', width: '80px', render: (r) => <bdi>{toPersianDigits(r.id)}</bdi> },
    { key: 'kind', title: 'صف', render: (r) => titles[r.kind] ?? r.kind },
    { key: 'account_name', title: 'حساب', render: (r) => `${r.account_name} (${toPersianDigits(r.account_id)})` },
    {
      key: 'summary', title: 'خلاصه', render: (r) => (
        <Stack gap="1" align="flex-start">
          <Text lineClamp={2} maxW="320px">{r.summary}</Text>
          {r.kind === 'offline_payment' && (
            <Button size="xs" variant="outline" onClick={() => setOffline(r.subject_id)} data-testid={`offline-detail-${r.subject_id}`}>جزئیات و رسید</Button>
          )}
          {r.kind === 'document' && (
            <Button size="xs" variant="outline" onClick={() => void downloadFile(`/admin/documents/${r.subject_id}/file`, {}, `document-${r.subject_id}`)}
              data-testid={`document-file-${r.subject_id}`}>دریافت فایل مدرک</Button>
          )}
        </Stack>
      ),
    },
    { key: 'reasons', title: 'دلیل بررسی', render: (r) => r.reasons.join('، ') || '—' },
    { key: 'created_at', title: 'زمان', hideOnMobile: true, render: (r) => formatJalaliDateTime(r.created_at) },
    { key: 'status', title: 'وضعیت', render: (r) => <Badge colorPalette={STATUS[r.status].color}>{STATUS[r.status].label}</Badge> },
    {
      key: 'actions', title: 'اقدام', render: (r) =>
        r.status === 'pending' ? (
          <HStack gap="2">
            {r.kind === 'pattern' && (
              <Button size="xs" variant="outline" onClick={() => setViewing(r)} data-testid={`view-${r.subject_id}`}>مشاهده</Button>
            )}
            <Button size="xs" colorPalette="green" loading={approve.isPending && approve.variables === r.id}
              onClick={() => approve.mutate(r.id)} data-testid={`approve-${r.subject_id}`}>تایید</Button>
            <Button size="xs" colorPalette="red" variant="outline" onClick={() => setRejecting(r)} data-testid={`reject-${r.subject_id}`}>رد</Button>
          </HStack>
        ) : (
          <Text fontSize="sm" color="fg.muted">{r.decision || '—'}{r.decided_by ? ` (${r.decided_by})` : ''}</Text>
        ),
    },
  ]

  return (
    <Stack gap="4">
      <HStack justify="space-between" wrap="wrap">
        <Heading size="lg">صف‌های بررسی</Heading>
        <Button size="sm" variant="outline" onClick={() => setRules(true)} data-testid="moderation-open">قوانین بررسی ارسال</Button>
      </HStack>
      <HStack gap="3" wrap="wrap">
        {(queues ?? []).map((q) => (
          <Card.Root key={q.kind} size="sm" variant="outline" data-testid={`queue-${q.kind}`}>
            <Card.Body>
              <Text fontSize="sm" color="fg.muted">{q.title}</Text>
              <Text fontWeight="bold" fontSize="xl">{toPersianDigits(q.pending)}</Text>
            </Card.Body>
          </Card.Root>
        ))}
      </HStack>
      <DataTable caption="موارد در انتظار بررسی" columns={columns} rows={data?.rows} total={data?.meta.total}
        rowKey={(r) => r.id} isLoading={isPending} isError={isError} onRetry={() => refetch()} filters={filters}
        emptyText="موردی برای بررسی نیست" />
      {rejecting && <RejectDialog item={rejecting} onClose={() => setRejecting(null)} />}
      {rules && <ModerationDialog onClose={() => setRules(false)} />}
      {viewing && <PatternVersionDialog versionID={viewing.subject_id} onClose={() => setViewing(null)} />}
      {offline !== null && <OfflinePaymentDialog id={offline} onClose={() => setOffline(null)} />}
    </Stack>
  )
}

function RejectDialog({ item, onClose }: { item: ReviewItem; onClose: () => void }) {
  const [reason, setReason] = useState('')
  const reject = useAdminMutation((r: string) => adminApi.reject(item.id, r))
  const err = reject.error instanceof ApiError ? reject.error.fieldError('reason') : undefined
  return (
    <Modal open onClose={onClose} title="رد و توقف" closeOnInteractOutside={false}
      footer={
        <HStack gap="2">
          <Button variant="outline" onClick={onClose}>انصراف</Button>
          <Button colorPalette="red" loading={reject.isPending} data-testid="reject-submit"
            onClick={() => reject.mutate(reason, { onSuccess: onClose })}>رد کن</Button>
        </HStack>
      }>
      <Field.Root required invalid={!!err}>
        <Field.Label>دلیل رد (به مشتری نشان داده می‌شود)</Field.Label>
        <Textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} data-testid="reject-reason" />
        <Field.ErrorText>{err}</Field.ErrorText>
      </Field.Root>
    </Modal>
  )
}
