import { Box, Button, Card, HStack, IconButton, Stack, Text } from '@chakra-ui/react'
import { useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { allFilterKeys } from '../../components/TableFilters'
import { ChevronLeftIcon, PlusIcon } from '../../components/outlineIcons'
import { formatNumber } from '../../lib/format'
import { useUrlListState } from '../../lib/urlState'
import { DownloadAction } from '../../components/MiniTable'
import { downloads, useAllFeatures, useContacts, useDeleteContacts, usePhonebookOptions, useTags } from './api'
import { ContactFormModal } from './ContactFormModal'
import { contactFilters, GENDER_LABELS, type Contact } from './model'
import {
  dateCell, DeleteDialog, emptyText, faText, IndexingNote, Mobile, RowActions, RowCheckbox, selectColumn, SelectionBar, tableState, TagList,
  Toolbar, useDeleteFlow, useSelection,
} from './ui'

interface Props {
  /** Shows one phonebook's contacts (the group page); all phonebooks otherwise. */
  phonebookId?: number
  /** Extra toolbar buttons, e.g. the import button of the group page. */
  extraActions?: ReactNode
}

/** The contacts list: filters on every field, bulk select and delete, add/edit, export. */
export function ContactsTable({ phonebookId, extraActions }: Props) {
  const navigate = useNavigate()
  const list = useUrlListState()
  const features = useAllFeatures()
  const groups = usePhonebookOptions()
  const tags = useTags()
  const filters = contactFilters({
    groups: groups.data,
    tags: (tags.data ?? []).map((t) => ({ value: t.name, label: t.name })),
    features: features.data,
    withGroup: !phonebookId,
  })
  const values = list.filters(allFilterKeys(filters))
  const scope = phonebookId ? { phonebook_id: phonebookId } : {}
  const query = { page: list.page, limit: list.limit, ...values, ...scope }
  const contacts = useContacts(query)
  const selection = useSelection<number>(JSON.stringify(query))
  const remove = useDeleteContacts()
  const [editing, setEditing] = useState<Contact | 'new' | null>(null)
  const deleting = useDeleteFlow<number>(remove.mutateAsync, (n) => `${formatNumber(n)} مخاطب حذف شد`, selection.clear)
  const rows = contacts.data?.rows
  const pageIds = (rows ?? []).map((r) => r.id)

  const columns: DataTableColumn<Contact>[] = [
    selectColumn(selection, (r) => r.id, (r) => r.name || r.number, ''),
    { key: 'number', title: 'شماره موبایل', render: (r) => <Mobile number={r.number} /> },
    { key: 'name', title: 'نام', render: (r) => faText(r.name) },
    { key: 'gender', title: 'جنسیت', render: (r) => GENDER_LABELS[r.gender ?? ''] ?? '—' },
    ...(phonebookId ? [] : [{ key: 'phonebook_name', title: 'گروه', render: (r: Contact) => faText(r.phonebook_name) }]),
    { key: 'tags', title: 'برچسب‌ها', render: (r) => <TagList tags={r.tags} /> },
    { key: 'birth_date', title: 'تاریخ تولد', render: (r) => dateCell(r.birth_date) },
    { key: 'created_at', title: 'تاریخ افزودن', render: (r) => dateCell(r.created_at) },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (r) => <RowActions onEdit={() => setEditing(r)} editTestId="contact-edit" onDelete={() => deleting.ask([r.id])} />,
    },
  ]

  const card = (r: Contact) => (
    <Card.Root size="sm" variant="outline" data-testid="contact-card">
      <Card.Body>
        <HStack gap="3" align="center">
          <RowCheckbox checked={selection.has(r.id)} onChange={() => selection.toggle(r.id)} label={`انتخاب ${r.name || r.number}`} />
          <Stack gap="0.5" flex="1" minW="0" cursor="pointer" onClick={() => navigate(`/contacts/${r.id}`)}>
            <HStack justify="space-between" gap="2">
              <Text fontWeight="semibold" truncate>{r.name ? faText(r.name) : 'بدون نام'}</Text>
              <Mobile number={r.number} />
            </HStack>
            <HStack justify="space-between" gap="2" fontSize="xs" color="app.muted">
              <Text truncate>{phonebookId ? GENDER_LABELS[r.gender ?? ''] : faText(r.phonebook_name)}</Text>
              <Box>{dateCell(r.created_at)}</Box>
            </HStack>
          </Stack>
          <IconButton size="xs" variant="ghost" aria-label={`جزئیات ${r.name || r.number}`} onClick={() => navigate(`/contacts/${r.id}`)}>
            <ChevronLeftIcon />
          </IconButton>
        </HStack>
      </Card.Body>
    </Card.Root>
  )

  return (
    <Stack gap="3">
      <DataTable
        caption="مخاطبین"
        columns={columns}
        {...tableState(contacts)}
        rowKey={(r) => r.id}
        filters={filters}
        emptyText={emptyText(Object.keys(values).length > 0)}
        onRowClick={(r) => navigate(`/contacts/${r.id}`)}
        renderCard={card}
        toolbar={
          <Toolbar>
            {contacts.data?.meta.indexing && <IndexingNote />}
            {pageIds.length > 0 && <SelectionBar selection={selection} pageKeys={pageIds} onDelete={() => deleting.ask([...selection.selected])} />}
            {extraActions}
            <DownloadAction run={() => downloads.contacts({ ...values, ...scope })} label="خروجی اکسل" testId="contacts-export" />
            <Button size="sm" colorPalette="brand" onClick={() => setEditing('new')} data-testid="contact-add">
              <PlusIcon /> افزودن مخاطب
            </Button>
          </Toolbar>
        }
      />
      <ContactFormModal
        open={editing !== null}
        onClose={() => setEditing(null)}
        contact={editing && editing !== 'new' ? editing : undefined}
        defaultGroup={phonebookId}
      />
      <DeleteDialog flow={deleting} title="حذف مخاطب">
        {(ids) => (ids.length > 1 ? `${formatNumber(ids.length)} مخاطب انتخاب‌شده حذف شوند؟` : 'این مخاطب حذف شود؟')}
      </DeleteDialog>
    </Stack>
  )
}
