import { Button, HStack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { Link as RouterLink, useNavigate, useParams } from 'react-router'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../components/DataTable'
import { PlusIcon } from '../../components/icons'
import { ArrowRightIcon } from '../../components/outlineIcons'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState, LoadingState } from '../../components/States'
import type { TableFilter } from '../../components/TableFilters'
import { allows, useAcl } from '../../lib/acl'
import { isApiError } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { useDeleteGroup, useDeleteMessage, usePredefinedGroup, usePredefinedMessages, type PredefinedMessage } from './api'
import { GroupFormModal, MessageFormModal } from './forms'

const FILTERS: TableFilter[] = [{ type: 'search', key: 'search', title: 'جستجو', placeholder: 'عنوان یا متن پیام' }]

/** /predefined-messages/:id: one group and its messages, created, edited and deleted here. */
export default function GroupDetailsPage() {
  const { id = '' } = useParams()
  const navigate = useNavigate()
  const group = usePredefinedGroup(id)
  const list = useUrlListState()
  const search = list.getFilter('search')
  const q = usePredefinedMessages({ group_id: id, page: list.page, limit: list.limit, search: search || undefined }, !!group.data)
  const canManage = allows(useAcl().data, 'predefined.manage')
  const removeGroup = useDeleteGroup()
  const removeMessage = useDeleteMessage()
  const [editing, setEditing] = useState<PredefinedMessage | 'new' | null>(null)
  const [renaming, setRenaming] = useState(false)
  const [deletingGroup, setDeletingGroup] = useState(false)
  const [deleting, setDeleting] = useState<PredefinedMessage | null>(null)

  if (group.isPending) return <LoadingState />
  if (group.isError) {
    const missing = isApiError(group.error, 404) || !/^\d+$/.test(id)
    return (
      <ErrorState
        title={missing ? 'گروه یافت نشد' : undefined}
        onRetry={missing ? undefined : () => void group.refetch()}
        action={<Button asChild size="sm" variant="outline"><RouterLink to="/predefined-messages">بازگشت به گروه‌ها</RouterLink></Button>}
      />
    )
  }
  const g = group.data
  const columns = messageColumns(canManage, setEditing, setDeleting)
  const done = (title: string, after?: () => void) => () => {
    toaster.create({ type: 'success', title })
    after?.()
  }
  return (
    <SectionCard
      title={toPersianDigits(g.title)}
      description={`${formatNumber(g.messages)} پیام در این گروه`}
      actions={
        <HStack gap="2" wrap="wrap">
          <Button asChild size="sm" variant="ghost"><RouterLink to="/predefined-messages"><ArrowRightIcon /> گروه‌ها</RouterLink></Button>
          {canManage && (
            <>
              <Button size="sm" variant="outline" onClick={() => setRenaming(true)}>ویرایش گروه</Button>
              <Button size="sm" variant="outline" colorPalette="red" onClick={() => setDeletingGroup(true)}>حذف گروه</Button>
              <Button size="sm" colorPalette="brand" onClick={() => setEditing('new')} data-testid="predefined-new-message"><PlusIcon /> پیام جدید</Button>
            </>
          )}
        </HStack>
      }
    >
      <DataTable
        caption={`پیام‌های گروه ${g.title}`}
        columns={columns}
        {...pagedQueryProps(q)}
        rowKey={(m) => m.id}
        filters={FILTERS}
        emptyText={search ? 'موردی یافت نشد' : 'این گروه هنوز پیامی ندارد'}
      />
      {editing && <MessageFormModal open onClose={() => setEditing(null)} message={editing === 'new' ? undefined : editing} groupId={g.id} />}
      {renaming && <GroupFormModal open onClose={() => setRenaming(false)} group={g} />}
      <ConfirmDialog
        open={!!deleting}
        onClose={() => { setDeleting(null); removeMessage.reset() }}
        title="حذف پیام"
        confirmLabel="حذف"
        onConfirm={() => deleting && removeMessage.mutate(deleting.id, { onSuccess: done('پیام حذف شد', () => setDeleting(null)) })}
        loading={removeMessage.isPending}
        error={removeMessage.error}
        testId="predefined-delete-confirm"
      >
        <Text>پیام «{toPersianDigits(deleting?.title ?? '')}» حذف شود؟</Text>
      </ConfirmDialog>
      <ConfirmDialog
        open={deletingGroup}
        onClose={() => { setDeletingGroup(false); removeGroup.reset() }}
        title="حذف گروه"
        confirmLabel="حذف گروه"
        onConfirm={() => removeGroup.mutate(g.id, { onSuccess: done('گروه و پیام‌هایش حذف شدند', () => navigate('/predefined-messages')) })}
        loading={removeGroup.isPending}
        error={removeGroup.error}
      >
        <Text>گروه «{toPersianDigits(g.title)}» و {formatNumber(g.messages)} پیام آن حذف شوند؟</Text>
      </ConfirmDialog>
    </SectionCard>
  )
}

/** The messages table's columns; edit and delete only for roles that manage. */
function messageColumns(
  canManage: boolean, onEdit: (m: PredefinedMessage) => void, onDelete: (m: PredefinedMessage) => void,
): DataTableColumn<PredefinedMessage>[] {
  return [
    { key: 'title', title: 'عنوان', render: (m) => <Text fontWeight="medium">{toPersianDigits(m.title)}</Text> },
    { key: 'text', title: 'متن', render: (m) => <Text fontSize="sm" lineClamp={2} wordBreak="break-word" whiteSpace="pre-wrap">{m.text}</Text> },
    { key: 'updated_at', title: 'آخرین ویرایش', hideOnMobile: true, render: (m) => formatJalaliDateTime(m.updated_at) },
    ...(canManage
      ? [{
          key: 'actions',
          title: 'عملیات',
          align: 'end' as const,
          render: (m: PredefinedMessage) => (
            <HStack gap="1" justify="flex-end">
              <Button size="xs" variant="ghost" onClick={() => onEdit(m)} data-testid={`predefined-edit-${m.id}`}>ویرایش</Button>
              <Button size="xs" variant="ghost" colorPalette="red" onClick={() => onDelete(m)} data-testid={`predefined-delete-${m.id}`}>حذف</Button>
            </HStack>
          ),
        }]
      : []),
  ]
}
