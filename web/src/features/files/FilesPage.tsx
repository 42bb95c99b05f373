import { Badge, Button, HStack, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../components/DataTable'
import { SectionCard } from '../../components/SectionCard'
import type { TableFilter } from '../../components/TableFilters'
import { errorText } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { formatBytes } from '../../lib/files'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { downloadManaged, useDeleteFile, useFileCategories, useManagedFiles, type ManagedFile } from './api'

const STATUS: Record<string, { label: string; color: string }> = {
  parsing: { label: 'در حال پردازش', color: 'blue' },
  ready: { label: 'آماده', color: 'green' },
  failed: { label: 'ناموفق', color: 'red' },
}

const REVIEW: Record<string, { label: string; color: string }> = {
  pending: { label: 'در انتظار بررسی', color: 'orange' },
  approved: { label: 'تأیید شده', color: 'green' },
  rejected: { label: 'رد شده', color: 'red' },
}

/** /file-management: every uploaded file (send sources, contact imports, receipts …) with download and delete. */
export default function FilesPage() {
  const list = useUrlListState()
  const category = list.getFilter('category')
  const categories = useFileCategories()
  const q = useManagedFiles({ page: list.page, limit: list.limit, category: category || undefined })
  const remove = useDeleteFile()
  const [deleting, setDeleting] = useState<ManagedFile | null>(null)
  const filters: TableFilter[] = [{
    type: 'options', key: 'category', title: 'دسته',
    options: (categories.data ?? []).map((c) => ({ value: c.value, label: c.label })),
  }]
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting, {
      onSuccess: () => {
        toaster.create({ type: 'success', title: 'فایل حذف شد' })
        setDeleting(null)
      },
    })
  return (
    <Stack gap="5">
      <SectionCard title="مدیریت فایل" description="همه فایل‌هایی که بارگذاری کرده‌اید: منبع ارسال‌ها، ورود مخاطبین و رسیدهای پرداخت.">
        <DataTable
          caption="فایل‌ها"
          columns={columns(setDeleting)}
          {...pagedQueryProps(q)}
          rowKey={(f) => `${f.category}-${f.id}`}
          filters={filters}
          emptyText={category ? 'فایلی در این دسته نیست' : 'هنوز فایلی بارگذاری نکرده‌اید'}
        />
      </SectionCard>
      <ConfirmDialog
        open={!!deleting}
        onClose={() => { setDeleting(null); remove.reset() }}
        title="حذف فایل"
        confirmLabel="حذف فایل"
        onConfirm={confirmDelete}
        loading={remove.isPending}
        error={remove.error}
        testId="file-delete-confirm"
      >
        <Text>فایل «{toPersianDigits(deleting?.name ?? '')}» و داده‌های آن حذف شوند؟</Text>
      </ConfirmDialog>
    </Stack>
  )
}

const download = (f: ManagedFile) =>
  downloadManaged(f).catch((e: unknown) => toaster.create({ type: 'error', title: errorText(e) }))

function columns(onDelete: (f: ManagedFile) => void): DataTableColumn<ManagedFile>[] {
  return [
    { key: 'name', title: 'نام فایل', render: (f) => <Text fontWeight="medium" truncate maxW="56" data-testid={`file-row-${f.category}-${f.id}`}>{toPersianDigits(f.name || '—')}</Text> },
    { key: 'category', title: 'دسته', render: (f) => f.category_label },
    { key: 'size', title: 'حجم', hideOnMobile: true, render: (f) => formatBytes(f.size) },
    { key: 'status', title: 'وضعیت', render: (f) => <Tag info={STATUS[f.status]} fallback={f.status} /> },
    {
      key: 'review', title: 'بررسی', hideOnMobile: true,
      render: (f) => (f.review ? <Tag info={REVIEW[f.review]} fallback={f.review} title={f.review_reason || undefined} /> : <Text color="fg.subtle">—</Text>),
    },
    { key: 'created_at', title: 'تاریخ بارگذاری', render: (f) => formatJalaliDateTime(f.created_at) },
    {
      key: 'actions', title: 'عملیات', align: 'end',
      render: (f) => (
        <HStack gap="1" justify="flex-end">
          <Button size="xs" variant="subtle" disabled={!f.download} onClick={() => void download(f)}>دریافت</Button>
          {f.deletable && (
            <Button size="xs" variant="ghost" colorPalette="red" onClick={() => onDelete(f)} data-testid={`file-delete-${f.category}-${f.id}`}>حذف</Button>
          )}
        </HStack>
      ),
    },
  ]
}

function Tag({ info, fallback, title }: { info?: { label: string; color: string }; fallback: string; title?: string }) {
  return <Badge colorPalette={info?.color ?? 'gray'} variant="subtle" rounded="full" title={title}>{info?.label ?? fallback}</Badge>
}
