import { Alert, Button, Code, HStack, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { Link as RouterLink, useNavigate } from 'react-router'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { LinkStatusBadge } from '../../components/LinkStatusBadge'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../components/DataTable'
import { PlusIcon } from '../../components/icons'
import { SectionCard } from '../../components/SectionCard'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDate } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { useDeleteLink, useLinkSettings, useTrackedLinks, type TrackedLink } from './api'
import { LinkFormModal } from './LinkForm'

/** /links: the link tracker — tracked links with their clicks; a link opens its statistics. */
export default function LinksPage() {
  const navigate = useNavigate()
  const list = useUrlListState()
  const settings = useLinkSettings()
  const q = useTrackedLinks({ page: list.page, limit: list.limit })
  const remove = useDeleteLink()
  const [creating, setCreating] = useState(false)
  const [deleting, setDeleting] = useState<TrackedLink | null>(null)
  const enabled = settings.data?.enabled ?? false
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toaster.create({ type: 'success', title: 'لینک از ردیاب حذف شد' })
        setDeleting(null)
      },
    })
  return (
    <Stack gap="5">
      {settings.data && !enabled && (
        <Alert.Root status="info" rounded="lg" data-testid="links-plan">
          <Alert.Indicator />
          <Alert.Description>{settings.data.message}</Alert.Description>
        </Alert.Root>
      )}
      <SectionCard
        title="لینک‌های ردیابی"
        description="لینک را اینجا بسازید و در متن پیامک با «درج لینک ردیابی» بگذارید؛ هر گیرنده لینک کوتاه خودش را می‌گیرد و کلیک‌ها به تفکیک ارسال، اپراتور و روز شمرده می‌شوند."
        actions={
          <Button size="sm" colorPalette="brand" disabled={!enabled} onClick={() => setCreating(true)} data-testid="link-new">
            <PlusIcon /> لینک جدید
          </Button>
        }
      >
        <DataTable
          caption="لینک‌های ردیابی"
          columns={columns(setDeleting)}
          {...pagedQueryProps(q)}
          rowKey={(l) => l.id}
          onRowClick={(l) => navigate(`/links/${l.id}`)}
          emptyText="هنوز لینک ردیابی نساخته‌اید"
        />
      </SectionCard>
      <LinkFormModal open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={!!deleting}
        onClose={() => { setDeleting(null); remove.reset() }}
        title="حذف لینک از ردیاب"
        confirmLabel="حذف"
        onConfirm={confirmDelete}
        loading={remove.isPending}
        error={remove.error}
        testId="link-delete-confirm"
      >
        <Text>لینک «{toPersianDigits(deleting?.title ?? '')}» از ردیاب حذف شود؟ لینک‌های ارسال‌شده همچنان کار می‌کنند.</Text>
      </ConfirmDialog>
    </Stack>
  )
}

function columns(onDelete: (l: TrackedLink) => void): DataTableColumn<TrackedLink>[] {
  return [
    { key: 'title', title: 'عنوان', render: (l) => <Text fontWeight="medium">{toPersianDigits(l.title)}</Text> },
    { key: 'url', title: 'مقصد', hideOnMobile: true, render: (l) => <Text dir="ltr" textAlign="end" truncate maxW="64">{l.url}</Text> },
    { key: 'placeholder', title: 'درج در متن', hideOnMobile: true, render: (l) => <Code dir="ltr">{l.placeholder}</Code> },
    { key: 'status', title: 'بررسی', render: (l) => (
      <Stack gap="0.5" align="flex-start">
        <LinkStatusBadge status={l.status} />
        {l.status === 'rejected' && l.review_note && <Text fontSize="xs" color="fg.error">دلیل رد: {l.review_note}</Text>}
      </Stack>
    ) },
    { key: 'clicks', title: 'کلیک', render: (l) => <span data-testid={`link-clicks-${l.id}`}>{formatNumber(l.clicks)}</span> },
    { key: 'unique', title: 'کلیک یکتا', render: (l) => formatNumber(l.unique) },
    { key: 'created_at', title: 'تاریخ ساخت', hideOnMobile: true, render: (l) => formatJalaliDate(l.created_at) },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (l) => (
        <HStack gap="1" justify="flex-end" onClick={(e) => e.stopPropagation()}>
          <Button size="xs" variant="subtle" asChild><RouterLink to={`/links/${l.id}`}>آمار</RouterLink></Button>
          <Button size="xs" variant="ghost" colorPalette="red" onClick={() => onDelete(l)} data-testid={`link-delete-${l.id}`}>حذف</Button>
        </HStack>
      ),
    },
  ]
}
