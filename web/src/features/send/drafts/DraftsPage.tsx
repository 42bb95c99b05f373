import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { Link as RouterLink, useNavigate } from 'react-router'
import { ConfirmDialog } from '../../../components/ConfirmDialog'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../../components/DataTable'
import { MessageIcon } from '../../../components/outlineIcons'
import { SectionCard } from '../../../components/SectionCard'
import type { TableFilter } from '../../../components/TableFilters'
import { toPersianDigits } from '../../../lib/digits'
import { formatNumber } from '../../../lib/format'
import { formatJalaliDateTime } from '../../../lib/jalali'
import { toaster } from '../../../lib/toaster'
import { useUrlListState } from '../../../lib/urlState'
import { DRAFTS_KEY, draftApi, type Draft, type DraftType } from '../api'
import { DRAFT_TYPES, draftPath } from './model'

const FILTERS: TableFilter[] = [
  { type: 'search', key: 'search', title: 'جستجو', placeholder: 'عنوان یا متن' },
  {
    type: 'options',
    key: 'type',
    title: 'روش ارسال',
    options: (Object.keys(DRAFT_TYPES) as DraftType[]).map((t) => ({ value: t, label: DRAFT_TYPES[t].label })),
  },
]

/** Who receives the draft: its numbers, file or phonebooks. */
export function recipientsText(d: Draft): string {
  if (d.recipients) return `${formatNumber(d.recipients)} شماره`
  if (d.file_id) return d.file_name ? `فایل ${d.file_name}` : 'فایل'
  if (d.phonebook_ids.length) return `${formatNumber(d.phonebook_ids.length)} دفترچه تلفن`
  return 'بدون گیرنده'
}

/** /send-sms/drafts: the account's saved drafts (GET /user/draft/list); «ادامه» reopens the wizard filled in. */
export default function DraftsPage() {
  const navigate = useNavigate()
  const qc = useQueryClient()
  const list = useUrlListState()
  const filters = list.filters(['search', 'type'])
  const q = useQuery({
    queryKey: [...DRAFTS_KEY, 'list', list.page, list.limit, filters],
    queryFn: ({ signal }) => draftApi.list({ page: list.page, limit: list.limit, ...filters }, signal),
    placeholderData: keepPreviousData,
  })
  const remove = useMutation({ mutationFn: draftApi.remove, onSuccess: () => void qc.invalidateQueries({ queryKey: DRAFTS_KEY }) })
  const [deleting, setDeleting] = useState<Draft | null>(null)
  const columns = draftColumns((d) => navigate(draftPath(d)), setDeleting)
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toaster.create({ type: 'success', title: 'پیش‌نویس حذف شد' })
        setDeleting(null)
      },
    })
  return (
    <SectionCard
      title="پیش‌نویس‌ها"
      description="ارسال‌هایی که ذخیره کرده‌اید و هنوز فرستاده نشده‌اند؛ با «ادامه» همان مرحله‌ها با متن و تنظیمات ذخیره‌شده باز می‌شود."
      actions={
        <Button asChild size="sm" variant="outline" colorPalette="brand">
          <RouterLink to="/predefined-messages"><MessageIcon /> پیام‌های آماده</RouterLink>
        </Button>
      }
    >
      <DataTable
        caption="پیش‌نویس‌ها"
        columns={columns}
        {...pagedQueryProps(q)}
        rowKey={(d) => d.id}
        filters={FILTERS}
        emptyText="پیش‌نویسی ندارید؛ در هر روش ارسال «ذخیره پیش‌نویس» را بزنید"
      />
      <ConfirmDialog
        open={!!deleting}
        onClose={() => { setDeleting(null); remove.reset() }}
        title="حذف پیش‌نویس"
        confirmLabel="حذف"
        onConfirm={confirmDelete}
        loading={remove.isPending}
        error={remove.error}
        testId="draft-delete-confirm"
      >
        <Text>پیش‌نویس «{toPersianDigits(deleting?.title ?? '')}» حذف شود؟</Text>
      </ConfirmDialog>
    </SectionCard>
  )
}

/** The drafts table's columns with «ادامه» and «حذف». */
function draftColumns(onResume: (d: Draft) => void, onDelete: (d: Draft) => void): DataTableColumn<Draft>[] {
  return [
    {
      key: 'title',
      title: 'پیش‌نویس',
      render: (d) => (
        <Stack gap="0.5" minW="0">
          <Text fontWeight="medium">{toPersianDigits(d.title || DRAFT_TYPES[d.type].label)}</Text>
          <Text fontSize="xs" color="fg.muted" lineClamp={1} wordBreak="break-word">{d.text || '—'}</Text>
        </Stack>
      ),
    },
    { key: 'type', title: 'روش ارسال', render: (d) => <Badge variant="subtle">{DRAFT_TYPES[d.type].label}</Badge> },
    { key: 'recipients', title: 'گیرندگان', render: recipientsText },
    { key: 'send_at', title: 'زمان ارسال', hideOnMobile: true, render: (d) => (d.send_at ? formatJalaliDateTime(d.send_at) : 'فوری') },
    { key: 'updated_at', title: 'آخرین ذخیره', hideOnMobile: true, render: (d) => formatJalaliDateTime(d.updated_at) },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (d) => (
        <HStack gap="1" justify="flex-end">
          <Button size="xs" colorPalette="brand" onClick={() => onResume(d)} data-testid={`draft-resume-${d.id}`}>ادامه</Button>
          <Button size="xs" variant="ghost" colorPalette="red" onClick={() => onDelete(d)} data-testid={`draft-delete-${d.id}`}>حذف</Button>
        </HStack>
      ),
    },
  ]
}
