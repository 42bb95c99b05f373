import { Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import type { DataTableColumn } from '../../components/DataTable'
import { formatNumber } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { sendTypeLabel } from '../../lib/statuses'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { EditIcon, ListIcon, TrashIcon } from '../../components/actionIcons'
import { useCampaigns, useDeleteCampaign, type Campaign } from './api'
import { CampaignFormModal } from './CampaignFormModal'
import { CampaignRuns } from './CampaignRuns'
import { scheduleSummary } from './form'
import { actionsColumn, EnabledSwitch, PagedTable, titleColumn } from './ui'

const URL_OPTS = { pageKey: 'cpage', limitKey: 'climit' }

/** Recurring campaigns: list, create, edit, toggle, delete and their runs. */
export function RecurringCampaigns({ creating, onCreated }: { creating: boolean; onCreated: () => void }) {
  const list = useUrlListState(URL_OPTS)
  const campaigns = useCampaigns({ page: list.page, limit: list.limit, kind: 'recurring' })
  const [editing, setEditing] = useState<Campaign | null>(null)
  const [runs, setRuns] = useState<Campaign | null>(null)
  const [removing, setRemoving] = useState<Campaign | null>(null)
  const remove = useDeleteCampaign()

  const columns: DataTableColumn<Campaign>[] = [
    titleColumn((r) => sendTypeLabel(r.type)),
    { key: 'schedule', title: 'زمان‌بندی', render: (r) => scheduleSummary(r.schedule) },
    { key: 'next_run_at', title: 'اجرای بعدی', render: (r) => <Text whiteSpace="nowrap">{r.enabled && r.next_run_at ? formatJalaliDateTime(r.next_run_at) : '—'}</Text> },
    { key: 'last_run_at', title: 'آخرین اجرا', hideOnMobile: true, render: (r) => <Text whiteSpace="nowrap">{r.last_run_at ? formatJalaliDateTime(r.last_run_at) : '—'}</Text> },
    {
      key: 'runs',
      title: 'اجراها',
      align: 'end',
      render: (r) => (
        <Stack gap="0" align="flex-end">
          <Text>{formatNumber(r.runs ?? 0)}</Text>
          {!!r.failed_runs && (
            <Text fontSize="xs" color="fg.error">
              {`${formatNumber(r.failed_runs)} ناموفق`}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'enabled', title: 'فعال', render: (r) => <EnabledSwitch row={r} /> },
    actionsColumn((r) => [
      { label: 'اجراها', title: 'اجراهای کمپین', icon: ListIcon, onClick: () => setRuns(r) },
      { label: 'ویرایش', title: 'ویرایش کمپین', icon: EditIcon, onClick: () => setEditing(r), testId: `campaign-edit-${r.id}` },
      {
        label: 'حذف',
        title: 'حذف کمپین',
        icon: TrashIcon,
        danger: true,
        testId: `campaign-delete-${r.id}`,
        onClick: () => {
          remove.reset()
          setRemoving(r)
        },
      },
    ]),
  ]

  return (
    <>
      <PagedTable caption="کمپین‌های تکرارشونده" columns={columns} query={campaigns} url={URL_OPTS} />
      {(creating || editing) && (
        <CampaignFormModal
          campaign={editing}
          onClose={() => {
            setEditing(null)
            onCreated()
          }}
        />
      )}
      {runs && <CampaignRuns campaign={runs} onClose={() => setRuns(null)} />}
      <ConfirmDialog
        open={!!removing}
        onClose={() => setRemoving(null)}
        title="حذف کمپین"
        confirmLabel="بله، حذف شود"
        loading={remove.isPending}
        error={remove.error}
        testId="campaign-delete-confirm"
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              setRemoving(null)
              toaster.create({ type: 'success', title: 'کمپین حذف شد' })
            },
          })
        }
      >
        {removing && `کمپین «${removing.title}» حذف می‌شود و دیگر اجرا نخواهد شد. ارسال‌های انجام‌شده در گزارش‌ها می‌مانند.`}
      </ConfirmDialog>
    </>
  )
}
