import { Box, Stack, Switch, Text } from '@chakra-ui/react'
import { useState } from 'react'
import type { DataTableColumn } from '../../components/DataTable'
import { formatNumber } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { ServerMessage } from '../../components/ServerMessage'
import { sendTypeLabel } from '../../lib/statuses'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { EditIcon, ListIcon, TrashIcon } from '../../components/actionIcons'
import { useCampaigns, useDeleteCampaign, useToggleCampaign, type Campaign } from './api'
import { CampaignFormModal } from './CampaignFormModal'
import { CampaignRuns } from './CampaignRuns'
import { scheduleSummary } from './form'
import { actionsColumn, PagedTable } from './ui'

const URL_OPTS = { pageKey: 'cpage', limitKey: 'climit' }

function EnabledSwitch({ row }: { row: Campaign }) {
  const toggle = useToggleCampaign()
  return (
    <Switch.Root
      size="sm"
      colorPalette="brand"
      checked={toggle.isPending ? toggle.variables?.enabled : row.enabled}
      disabled={toggle.isPending}
      onCheckedChange={(e) =>
        toggle.mutate(
          { id: row.id, enabled: e.checked },
          { onError: (err) => toaster.create({ type: 'error', description: <ServerMessage error={err} /> }) },
        )
      }
      aria-label={row.enabled ? 'غیرفعال کردن کمپین' : 'فعال کردن کمپین'}
      data-testid={`campaign-toggle-${row.id}`}
    >
      <Switch.HiddenInput />
      <Switch.Control>
        <Switch.Thumb />
      </Switch.Control>
    </Switch.Root>
  )
}

/** Recurring campaigns: list, create, edit, toggle, delete and their runs. */
export function RecurringCampaigns({ creating, onCreated }: { creating: boolean; onCreated: () => void }) {
  const list = useUrlListState(URL_OPTS)
  const campaigns = useCampaigns({ page: list.page, limit: list.limit })
  const [editing, setEditing] = useState<Campaign | null>(null)
  const [runs, setRuns] = useState<Campaign | null>(null)
  const [removing, setRemoving] = useState<Campaign | null>(null)
  const remove = useDeleteCampaign()

  const columns: DataTableColumn<Campaign>[] = [
    {
      key: 'title',
      title: 'عنوان',
      render: (r) => (
        <Box>
          <Text fontWeight="semibold">{r.title}</Text>
          <Text fontSize="xs" color="app.muted">
            {sendTypeLabel(r.type)} · <bdi>{toPersianDigits(r.sender ?? '')}</bdi>
          </Text>
        </Box>
      ),
    },
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
