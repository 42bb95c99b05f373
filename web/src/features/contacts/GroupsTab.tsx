import { Button, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import type { TableFilter } from '../../components/TableFilters'
import { PlusIcon } from '../../components/outlineIcons'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { useUrlListState } from '../../lib/urlState'
import { useDeletePhonebooks, usePhonebooks, type Phonebook } from './api'
import { PhonebookFormModal } from './PhonebookFormModal'
import {
  dateCell, DeleteDialog, emptyText, faText, RowActions, selectColumn, SelectionBar, tableState, Toolbar, useDeleteFlow, useSelection,
} from './ui'

const FILTERS: TableFilter[] = [{ type: 'search', key: 'search', title: 'جستجو', placeholder: 'نام گروه' }]

/** Phonebooks («گروه‌ها»): create, rename, delete, member counts; a row opens the group. */
export function GroupsTab() {
  const navigate = useNavigate()
  const list = useUrlListState()
  const search = list.getFilter('search')
  const query = { page: list.page, limit: list.limit, search }
  const phonebooks = usePhonebooks(query)
  const selection = useSelection<number>(JSON.stringify(query))
  const remove = useDeletePhonebooks()
  const [editing, setEditing] = useState<Phonebook | 'new' | null>(null)
  const deleting = useDeleteFlow<number>(remove.mutateAsync, (n) => `${formatNumber(n)} گروه حذف شد`, selection.clear)
  const rows = phonebooks.data?.rows

  const columns: DataTableColumn<Phonebook>[] = [
    selectColumn(selection, (r) => r.id, (r) => r.name),
    { key: 'name', title: 'نام گروه', render: (r) => <Text fontWeight="medium">{faText(r.name)}</Text> },
    { key: 'code', title: 'کد', render: (r) => <bdi>{toPersianDigits(r.code ?? '—')}</bdi> },
    { key: 'members', title: 'تعداد مخاطبین', render: (r) => formatNumber(r.members ?? 0), align: 'end' },
    { key: 'created_at', title: 'تاریخ ایجاد', render: (r) => dateCell(r.created_at) },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (r) => <RowActions onEdit={() => setEditing(r)} editLabel="تغییر نام" editTestId="phonebook-rename" onDelete={() => deleting.ask([r.id])} />,
    },
  ]

  return (
    <Stack gap="3">
      <DataTable
        caption="گروه‌ها"
        columns={columns}
        {...tableState(phonebooks)}
        rowKey={(r) => r.id}
        filters={FILTERS}
        emptyText={emptyText(!!search)}
        onRowClick={(r) => navigate(`/contacts/group/${r.id}`)}
        toolbar={
          <Toolbar>
            {(rows?.length ?? 0) > 0 && (
              <SelectionBar selection={selection} pageKeys={(rows ?? []).map((r) => r.id)} onDelete={() => deleting.ask([...selection.selected])} />
            )}
            <Button size="sm" colorPalette="brand" onClick={() => setEditing('new')} data-testid="phonebook-add">
              <PlusIcon /> گروه جدید
            </Button>
          </Toolbar>
        }
      />
      <PhonebookFormModal open={editing !== null} onClose={() => setEditing(null)} phonebook={editing && editing !== 'new' ? editing : undefined} />
      <DeleteDialog flow={deleting} title="حذف گروه">
        {(ids) =>
          ids.length > 1 ? `${formatNumber(ids.length)} گروه انتخاب‌شده و همه مخاطبین آن‌ها حذف شوند؟` : 'این گروه و همه مخاطبین آن حذف شوند؟'}
      </DeleteDialog>
    </Stack>
  )
}
