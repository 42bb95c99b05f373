import { Button, ButtonGroup, HStack, Stack, Text } from '@chakra-ui/react'
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { NumberEntry } from '../../components/NumberEntry'
import { Modal } from '../../components/Overlays'
import type { TableFilter } from '../../components/TableFilters'
import { PlusIcon } from '../../components/outlineIcons'
import { formatNumber } from '../../lib/format'
import { useUrlListState } from '../../lib/urlState'
import { DownloadAction } from '../../components/MiniTable'
import { downloads, useAddToList, useListEntries, useRemoveFromList, type ListEntry } from './api'
import { LIST_LABELS, SOURCE_LABELS, labelOf, type ListKind } from './model'
import {
  dateCell, DeleteDialog, emptyText, ErrorAlert, Mobile, RowActions, selectColumn, SelectionBar, tableState,
  toastSuccess, Toolbar, useDeleteFlow, useSelection,
} from './ui'

const FILTERS: TableFilter[] = [{ type: 'search', key: 'search', title: 'جستجو', placeholder: 'شماره موبایل' }]
export const BLACKLIST_KINDS: ListKind[] = ['send', 'receive']
/** URL parameter of the blacklist tab's list (send or receive). */
export const KIND_PARAM = 'kind'

/** The blacklist tab: the send and the receive list, switched by `?kind=`. */
export function BlacklistTab() {
  const [params, setParams] = useSearchParams()
  const kind: ListKind = params.get(KIND_PARAM) === 'receive' ? 'receive' : 'send'
  const choose = (k: ListKind) =>
    setParams((prev) => {
      const next = new URLSearchParams()
      for (const key of ['tab', 'limit']) if (prev.get(key)) next.set(key, prev.get(key)!)
      next.set(KIND_PARAM, k)
      return next
    })
  return (
    <Stack gap="4">
      <ButtonGroup size="sm" variant="outline" attached role="group" aria-label="نوع لیست سیاه">
        {BLACKLIST_KINDS.map((k) => (
          <Button
            key={k}
            variant={k === kind ? 'solid' : 'outline'}
            colorPalette={k === kind ? 'brand' : 'gray'}
            aria-pressed={k === kind}
            onClick={() => k !== kind && choose(k)}
            data-testid={`list-${k}`}
          >
            {LIST_LABELS[k]}
          </Button>
        ))}
      </ButtonGroup>
      <NumberListTable key={kind} kind={kind} />
    </Stack>
  )
}

/** The cancel-11 list: filled by inbound «11», emptied by «12» or by removing here. */
export function Cancel11Tab() {
  return (
    <Stack gap="4">
      <Text fontSize="sm" color="app.muted">
        شماره‌هایی که با ارسال «۱۱» درخواست لغو دریافت پیامک تبلیغاتی داده‌اند؛ ارسال «۱۲» آن‌ها را از این لیست خارج می‌کند.
      </Text>
      <NumberListTable kind="cancel11" />
    </Stack>
  )
}

/** One list: numbers with source and the date they entered; add (not cancel-11), remove, export. */
export function NumberListTable({ kind }: { kind: ListKind }) {
  const list = useUrlListState()
  const search = list.getFilter('search')
  const query = { page: list.page, limit: list.limit, search }
  const entries = useListEntries(kind, query)
  const selection = useSelection<string>(`${kind}:${JSON.stringify(query)}`)
  const remove = useRemoveFromList()
  const [adding, setAdding] = useState(false)
  const removing = useDeleteFlow<string>(
    (numbers) => remove.mutateAsync({ kind, numbers }),
    (n) => `${formatNumber(n)} شماره از ${LIST_LABELS[kind]} حذف شد`,
    selection.clear,
  )
  const rows = entries.data?.rows

  const columns: DataTableColumn<ListEntry>[] = [
    selectColumn(selection, (r) => r.number, (r) => r.number),
    { key: 'number', title: 'شماره موبایل', render: (r) => <Mobile number={r.number} /> },
    { key: 'source', title: 'منبع', render: (r) => labelOf(SOURCE_LABELS, r.source) },
    { key: 'created_at', title: 'تاریخ ورود به لیست', render: (r) => dateCell(r.created_at, true) },
    {
      key: 'actions',
      title: 'عملیات',
      align: 'end',
      render: (r) => <RowActions deleteLabel="حذف از لیست" deleteTestId="list-remove" onDelete={() => removing.ask([r.number])} />,
    },
  ]

  return (
    <Stack gap="3" data-testid={`list-table-${kind}`}>
      <DataTable
        caption={LIST_LABELS[kind]}
        columns={columns}
        {...tableState(entries)}
        rowKey={(r) => r.number}
        filters={FILTERS}
        emptyText={emptyText(!!search)}
        toolbar={
          <Toolbar>
            {(rows?.length ?? 0) > 0 && (
              <SelectionBar
                selection={selection}
                pageKeys={(rows ?? []).map((r) => r.number)}
                onDelete={() => removing.ask([...selection.selected])}
                deleteLabel="حذف از لیست"
              />
            )}
            <DownloadAction run={() => downloads.list(kind)} label="خروجی اکسل" testId="list-export" />
            {kind !== 'cancel11' && (
              <Button size="sm" colorPalette="brand" onClick={() => setAdding(true)} data-testid="list-add">
                <PlusIcon /> افزودن شماره
              </Button>
            )}
          </Toolbar>
        }
      />
      <Modal open={adding} onClose={() => setAdding(false)} title={`افزودن به ${LIST_LABELS[kind]}`} size="lg" closeOnInteractOutside={false}>
        <AddNumbersForm kind={kind} onDone={() => setAdding(false)} />
      </Modal>
      <DeleteDialog flow={removing} title={`حذف از ${LIST_LABELS[kind]}`}>
        {(numbers) =>
          numbers.length > 1
            ? `${formatNumber(numbers.length)} شماره انتخاب‌شده از ${LIST_LABELS[kind]} حذف شوند؟`
            : `این شماره از ${LIST_LABELS[kind]} حذف شود؟`}
      </DeleteDialog>
    </Stack>
  )
}

function AddNumbersForm({ kind, onDone }: { kind: ListKind; onDone: () => void }) {
  const [numbers, setNumbers] = useState<string[]>([])
  const add = useAddToList()
  const submit = () =>
    add.mutate(
      { kind, numbers },
      {
        onSuccess: (r) => {
          const skipped = r?.skipped ? ` (${formatNumber(r.skipped)} شماره از قبل در لیست بود)` : ''
          toastSuccess(`${formatNumber(r?.added ?? numbers.length)} شماره به ${LIST_LABELS[kind]} افزوده شد${skipped}`)
          onDone()
        },
      },
    )
  return (
    <Stack gap="4" pb="2" data-testid="list-add-form">
      <NumberEntry value={numbers} onChange={setNumbers} label="شماره‌های موبایل" validateMobile helperText="شماره را بنویسید و Enter بزنید، یا فهرستی از شماره‌ها را الصاق کنید" />
      {add.isError && <ErrorAlert error={add.error} />}
      <HStack justify="flex-end" gap="2">
        <Button variant="ghost" onClick={onDone}>
          انصراف
        </Button>
        <Button colorPalette="brand" onClick={submit} disabled={numbers.length === 0} loading={add.isPending} data-testid="list-add-save">
          {numbers.length ? `افزودن ${formatNumber(numbers.length)} شماره` : 'افزودن'}
        </Button>
      </HStack>
    </Stack>
  )
}
