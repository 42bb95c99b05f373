import { Button, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { PlusIcon, SendIcon } from '../../components/outlineIcons'
import { SectionCard } from '../../components/SectionCard'
import type { DataTableColumn } from '../../components/DataTable'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { EditIcon, ListIcon, TrashIcon } from '../../components/actionIcons'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { sendStatusInfo } from '../../lib/statuses'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { useDateFields } from '../../lib/contactTags'
import { useCampaigns, useDeleteCampaign, useRunToday, type Campaign } from './api'
import { CampaignRuns } from './CampaignRuns'
import { OccasionFormModal } from './OccasionFormModal'
import { lastRunText, occasionSummary } from './occasionForm'
import { actionsColumn, EnabledSwitch, PagedTable, titleColumn } from './ui'

const URL_OPTS = { pageKey: 'page', limitKey: 'limit' }

/** The occasion list's columns and row actions. */
function useColumns(act: { edit: (c: Campaign) => void; runs: (c: Campaign) => void; today: (c: Campaign) => void; remove: (c: Campaign) => void }) {
  const fields = useDateFields()
  const columns: DataTableColumn<Campaign>[] = [
    titleColumn((r) => occasionSummary(r, fields.data)),
    { key: 'next_run_at', title: 'ارسال بعدی', render: (r) => <Text whiteSpace="nowrap">{r.enabled && r.next_run_at ? formatJalaliDateTime(r.next_run_at) : '—'}</Text> },
    {
      key: 'last_run',
      title: 'آخرین ارسال',
      render: (r) => (
        <Stack gap="0">
          <Text whiteSpace="nowrap">{r.last_run ? formatJalaliDateTime(r.last_run.at) : '—'}</Text>
          <Text fontSize="xs" color={r.last_run?.status === 'failed' ? 'fg.error' : 'app.muted'} data-testid={`occasion-last-${r.id}`}>
            {lastRunText(r.last_run, (s) => sendStatusInfo(s).label)}
          </Text>
        </Stack>
      ),
    },
    { key: 'enabled', title: 'فعال', render: (r) => <EnabledSwitch row={r} /> },
    actionsColumn((r) => [
      { label: 'ارسال امروز', title: 'پیام‌های مناسبتی امروز همین حالا فرستاده شود', icon: SendIcon, onClick: () => act.today(r), testId: `occasion-today-${r.id}` },
      { label: 'اجراها', title: 'اجراهای پیام مناسبتی', icon: ListIcon, onClick: () => act.runs(r) },
      { label: 'ویرایش', title: 'ویرایش پیام مناسبتی', icon: EditIcon, onClick: () => act.edit(r), testId: `occasion-edit-${r.id}` },
      { label: 'حذف', title: 'حذف پیام مناسبتی', icon: TrashIcon, danger: true, onClick: () => act.remove(r), testId: `occasion-delete-${r.id}` },
    ]),
  ]
  return columns
}

/** /send-sms/occasions: birthdays and other contact dates, greeted automatically each day (docs/campaigns.md). */
export default function OccasionsPage() {
  const list = useUrlListState(URL_OPTS)
  const occasions = useCampaigns({ page: list.page, limit: list.limit, kind: 'occasion' })
  const [editing, setEditing] = useState<Campaign | null>(null)
  const [creating, setCreating] = useState(false)
  const [runs, setRuns] = useState<Campaign | null>(null)
  const [today, setToday] = useState<Campaign | null>(null)
  const [removing, setRemoving] = useState<Campaign | null>(null)
  const runToday = useRunToday()
  const remove = useDeleteCampaign()
  const columns = useColumns({
    edit: setEditing,
    runs: setRuns,
    today: (c) => { runToday.reset(); setToday(c) },
    remove: (c) => { remove.reset(); setRemoving(c) },
  })
  return (
    <Stack gap="5">
      <SectionCard
        title="پیام مناسبتی"
        description="تبریک تولد و مناسبت‌های مخاطبان، هر روز خودکار در ساعت انتخابی و به تقویم شمسی؛ هر ارسال یک ارسال عادی در گزارش‌هاست."
        actions={
          <Button colorPalette="brand" size="sm" onClick={() => setCreating(true)} data-testid="occasion-new">
            <PlusIcon /> پیام مناسبتی جدید
          </Button>
        }
      >
        <PagedTable caption="پیام‌های مناسبتی" columns={columns} query={occasions} url={URL_OPTS}
          emptyText="هنوز پیام مناسبتی نساخته‌اید؛ با «پیام مناسبتی جدید» تبریک تولد مخاطبان را خودکار کنید." />
      </SectionCard>
      {(creating || editing) && <OccasionFormModal campaign={editing} onClose={() => { setEditing(null); setCreating(false) }} />}
      {runs && <CampaignRuns campaign={runs} onClose={() => setRuns(null)} />}
      <ConfirmDialog open={!!today} onClose={() => setToday(null)} title="ارسال امروز" confirmLabel="بله، همین حالا" colorPalette="brand" loading={runToday.isPending}
        error={runToday.error} testId="occasion-today-confirm"
        onConfirm={() => today && runToday.mutate(today.id, {
          onSuccess: (a) => {
            setToday(null)
            toaster.create({ type: 'success', title: 'ارسال امروز ثبت شد', description: `گزارش ارسال ${toPersianDigits(String(a.id))}` })
          },
        })}>
        {today && `پیام‌های مناسبتی امروزِ «${today.title}» همین حالا فرستاده می‌شود و ارسال ساعت ${toPersianDigits(today.schedule?.time ?? '')} امروز دیگر تکرار نمی‌شود.`}
      </ConfirmDialog>
      <ConfirmDialog open={!!removing} onClose={() => setRemoving(null)} title="حذف پیام مناسبتی" confirmLabel="بله، حذف شود" loading={remove.isPending}
        error={remove.error} testId="occasion-delete-confirm"
        onConfirm={() => removing && remove.mutate(removing.id, {
          onSuccess: () => { setRemoving(null); toaster.create({ type: 'success', title: 'پیام مناسبتی حذف شد' }) },
        })}>
        {removing && `«${removing.title}» حذف می‌شود و دیگر فرستاده نخواهد شد. ارسال‌های انجام‌شده در گزارش‌ها می‌مانند.`}
      </ConfirmDialog>
    </Stack>
  )
}
