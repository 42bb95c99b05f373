import { Button, Checkbox, HStack, Text } from '@chakra-ui/react'
import { useEffect, useMemo, useState, type ReactNode } from 'react'
import type { DataTableColumn } from './DataTable'
import { formatNumber } from '../lib/format'

/** Row selection of a paged table; cleared whenever `resetKey` (the page and filters) changes. */
export function useSelection<K extends string | number>(resetKey: string) {
  const [selected, setSelected] = useState<Set<K>>(new Set())
  useEffect(() => setSelected(new Set()), [resetKey])
  return useMemo(
    () => ({
      selected,
      count: selected.size,
      has: (k: K) => selected.has(k),
      toggle: (k: K) =>
        setSelected((s) => {
          const next = new Set(s)
          if (next.has(k)) next.delete(k)
          else next.add(k)
          return next
        }),
      setAll: (keys: K[], on: boolean) => setSelected(new Set(on ? keys : [])),
      clear: () => setSelected(new Set()),
    }),
    [selected],
  )
}

export type Selection<K extends string | number> = ReturnType<typeof useSelection<K>>

/** The first column of a table with bulk selection: a checkbox per row. */
export function selectColumn<T, K extends string | number>(selection: Selection<K>, keyOf: (r: T) => K, nameOf: (r: T) => string, title = 'انتخاب'): DataTableColumn<T> {
  return {
    key: 'select',
    title,
    width: '40px',
    render: (r) => <RowCheckbox checked={selection.has(keyOf(r))} onChange={() => selection.toggle(keyOf(r))} label={`انتخاب ${nameOf(r)}`} />,
  }
}

export function RowCheckbox({ checked, onChange, label }: { checked: boolean; onChange: () => void; label: string }) {
  return (
    <Checkbox.Root
      checked={checked}
      onCheckedChange={onChange}
      colorPalette="brand"
      size="sm"
      onClick={(e) => e.stopPropagation()}
      data-testid="row-select"
    >
      <Checkbox.HiddenInput aria-label={label} />
      <Checkbox.Control />
    </Checkbox.Root>
  )
}

/** «انتخاب همه» for the rows of this page, the count selected and the bulk delete button. */
export function SelectionBar<K extends string | number>({
  selection, pageKeys, onDelete, deleteLabel = 'حذف انتخاب‌شده‌ها', children,
}: {
  selection: Selection<K>
  pageKeys: K[]
  onDelete: () => void
  deleteLabel?: string
  /** More bulk actions, shown beside delete while something is selected. */
  children?: ReactNode
}) {
  const all = pageKeys.length > 0 && pageKeys.every((k) => selection.has(k))
  const some = !all && pageKeys.some((k) => selection.has(k))
  return (
    <HStack gap="3" wrap="wrap">
      <Checkbox.Root
        checked={all ? true : some ? 'indeterminate' : false}
        onCheckedChange={(e) => selection.setAll(pageKeys, e.checked === true)}
        colorPalette="brand"
        size="sm"
        disabled={pageKeys.length === 0}
        data-testid="select-page"
      >
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label fontSize="sm">انتخاب همه این صفحه</Checkbox.Label>
      </Checkbox.Root>
      {selection.count > 0 && (
        <>
          <Text fontSize="sm" color="app.muted">{`${formatNumber(selection.count)} مورد انتخاب شده`}</Text>
          <Button size="xs" colorPalette="red" variant="subtle" onClick={onDelete} data-testid="bulk-delete">
            {deleteLabel}
          </Button>
          {children}
        </>
      )}
    </HStack>
  )
}
