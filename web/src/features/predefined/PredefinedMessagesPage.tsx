import { Button, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { Link as RouterLink, useNavigate } from 'react-router'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../components/DataTable'
import { Fact } from '../../components/Fact'
import { PlusIcon } from '../../components/icons'
import { SectionCard } from '../../components/SectionCard'
import type { TableFilter } from '../../components/TableFilters'
import { allows, useAcl } from '../../lib/acl'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDate } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { useDeleteGroup, usePredefinedCounts, usePredefinedGroups, type PredefinedGroup } from './api'
import { GroupFormModal, MessageFormModal } from './forms'

const FILTERS: TableFilter[] = [{ type: 'search', key: 'search', title: 'جستجو', placeholder: 'عنوان گروه' }]

/** /predefined-messages: the groups of saved texts with their counts; a group opens its messages. */
export default function PredefinedMessagesPage() {
  const navigate = useNavigate()
  const list = useUrlListState()
  const search = list.getFilter('search')
  const q = usePredefinedGroups({ page: list.page, limit: list.limit, search: search || undefined })
  const counts = usePredefinedCounts()
  const canManage = allows(useAcl().data, 'predefined.manage')
  const remove = useDeleteGroup()
  const [editing, setEditing] = useState<PredefinedGroup | 'new' | null>(null)
  const [newMessage, setNewMessage] = useState(false)
  const [deleting, setDeleting] = useState<PredefinedGroup | null>(null)
  const columns = groupColumns(canManage, setEditing, setDeleting)
  const confirmDelete = () =>
    deleting &&
    remove.mutate(deleting.id, {
      onSuccess: () => {
        toaster.create({ type: 'success', title: 'گروه و پیام‌هایش حذف شدند' })
        setDeleting(null)
      },
    })
  return (
    <Stack gap="5">
      <SimpleGrid columns={{ base: 3 }} gap="3">
        <Fact label="گروه‌ها" value={counts.data ? formatNumber(counts.data.groups) : '…'} testId="predefined-count-groups" />
        <Fact label="پیام‌ها" value={counts.data ? formatNumber(counts.data.messages) : '…'} testId="predefined-count-messages" />
        <Fact label="پیش‌نویس‌ها" value={counts.data ? formatNumber(counts.data.drafts) : '…'} />
      </SimpleGrid>
      <SectionCard
        title="پیام‌های از پیش تعریف‌شده"
        description="متن‌های پرکاربرد را در گروه‌ها ذخیره کنید و هنگام نوشتن پیامک با «درج متن آماده» در متن بگذارید."
        actions={
          <HStack gap="2" wrap="wrap">
            <Button asChild size="sm" variant="outline"><RouterLink to="/send-sms/drafts">پیش‌نویس‌ها</RouterLink></Button>
            {canManage && (
              <>
                <Button size="sm" variant="outline" colorPalette="brand" onClick={() => setNewMessage(true)} data-testid="predefined-new-message">
                  <PlusIcon /> پیام جدید
                </Button>
                <Button size="sm" colorPalette="brand" onClick={() => setEditing('new')} data-testid="predefined-new-group">
                  <PlusIcon /> گروه جدید
                </Button>
              </>
            )}
          </HStack>
        }
      >
        <DataTable
          caption="گروه‌های پیام"
          columns={columns}
          {...pagedQueryProps(q)}
          rowKey={(g) => g.id}
          filters={FILTERS}
          onRowClick={(g) => navigate(`/predefined-messages/${g.id}`)}
          emptyText={search ? 'موردی یافت نشد' : 'هنوز گروهی نساخته‌اید؛ با «گروه جدید» شروع کنید'}
        />
      </SectionCard>
      {editing && <GroupFormModal open onClose={() => setEditing(null)} group={editing === 'new' ? undefined : editing} />}
      {newMessage && <MessageFormModal open onClose={() => setNewMessage(false)} />}
      <ConfirmDialog
        open={!!deleting}
        onClose={() => { setDeleting(null); remove.reset() }}
        title="حذف گروه"
        confirmLabel="حذف گروه"
        onConfirm={confirmDelete}
        loading={remove.isPending}
        error={remove.error}
        testId="predefined-group-delete-confirm"
      >
        <Text>
          گروه «{toPersianDigits(deleting?.title ?? '')}» و {formatNumber(deleting?.messages ?? 0)} پیام آن حذف شوند؟
        </Text>
      </ConfirmDialog>
    </Stack>
  )
}

/** The groups table's columns; edit and delete only for roles that manage. */
function groupColumns(
  canManage: boolean, onEdit: (g: PredefinedGroup) => void, onDelete: (g: PredefinedGroup) => void,
): DataTableColumn<PredefinedGroup>[] {
  return [
    { key: 'title', title: 'گروه', render: (g) => <Text fontWeight="medium">{toPersianDigits(g.title)}</Text> },
    { key: 'messages', title: 'تعداد پیام', render: (g) => formatNumber(g.messages) },
    { key: 'created_at', title: 'تاریخ ساخت', hideOnMobile: true, render: (g) => formatJalaliDate(g.created_at) },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (g) => (
        <HStack gap="1" justify="flex-end" onClick={(e) => e.stopPropagation()}>
          <Button size="xs" variant="subtle" asChild><RouterLink to={`/predefined-messages/${g.id}`}>پیام‌ها</RouterLink></Button>
          {canManage && <Button size="xs" variant="ghost" onClick={() => onEdit(g)}>ویرایش</Button>}
          {canManage && (
            <Button size="xs" variant="ghost" colorPalette="red" onClick={() => onDelete(g)} data-testid={`predefined-group-delete-${g.id}`}>حذف</Button>
          )}
        </HStack>
      ),
    },
  ]
}
