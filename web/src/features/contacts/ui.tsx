import { Alert, Badge, Button, HStack, Spinner, Stack, Text, Wrap } from '@chakra-ui/react'
import type { UseQueryResult } from '@tanstack/react-query'
import { useState, type ReactNode } from 'react'
import type { Paged } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDate, formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { ServerMessage } from '../../components/ServerMessage'
import { ConfirmDialog } from '../../components/ConfirmDialog'
import { displayMobile } from './model'

/** A label over a value, for detail cards. */
export function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Stack gap="0.5">
      <Text fontSize="xs" color="app.muted">{label}</Text>
      <Text as="div" fontWeight="semibold" fontSize="sm">{value}</Text>
    </Stack>
  )
}

/** A stored number shown as «۰۹۱۲…», kept left-to-right. */
export function Mobile({ number }: { number: string }) {
  return (
    <Text as="bdi" dir="ltr" whiteSpace="nowrap">
      {displayMobile(number)}
    </Text>
  )
}

export const dateCell = (v: string | null | undefined, withTime = false) =>
  v ? (
    <Text as="span" whiteSpace="nowrap">
      {withTime ? formatJalaliDateTime(v) : formatJalaliDate(v)}
    </Text>
  ) : (
    '—'
  )

export function TagList({ tags }: { tags: string[] | undefined }) {
  if (!tags?.length) return <>—</>
  return (
    <Wrap gap="1">
      {tags.map((t) => (
        <Badge key={t} size="sm" variant="subtle" colorPalette="brand">
          {toPersianDigits(t)}
        </Badge>
      ))}
    </Wrap>
  )
}

export { RowCheckbox, selectColumn, SelectionBar, useSelection, type Selection } from '../../components/Selection'

/** The delete flow of a list: ask with the keys, confirm runs `run`, success toasts and closes. */
export function useDeleteFlow<K>(run: (keys: K[]) => Promise<unknown>, done: (count: number) => string, onDone?: () => void) {
  const [keys, setKeys] = useState<K[] | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const confirm = async () => {
    if (!keys) return
    setBusy(true)
    setError(null)
    try {
      const r = (await run(keys)) as { deleted?: number } | null
      toastSuccess(done(r?.deleted ?? keys.length))
      setKeys(null)
      onDone?.()
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }
  return {
    keys,
    busy,
    error,
    confirm,
    ask: (k: K[]) => {
      setError(null)
      setKeys(k)
    },
    close: () => setKeys(null),
  }
}

export type DeleteFlow<K> = ReturnType<typeof useDeleteFlow<K>>

/** The «are you sure» dialog of a delete flow; a failure stays shown in it. */
export function DeleteDialog<K>({ flow, title, children }: { flow: DeleteFlow<K>; title: string; children: (keys: K[]) => ReactNode }) {
  return (
    <ConfirmDialog
      open={flow.keys !== null}
      onClose={flow.close}
      onConfirm={() => void flow.confirm()}
      loading={flow.busy}
      error={flow.error}
      title={title}
      confirmLabel="بله، حذف شود"
      testId="confirm"
    >
      {flow.keys ? children(flow.keys) : null}
    </ConfirmDialog>
  )
}

/** «ویرایش» and «حذف» at the end of a row (clicks do not open the row). */
export function RowActions({ onEdit, editLabel = 'ویرایش', onDelete, deleteLabel = 'حذف', editTestId, deleteTestId }: {
  onEdit?: () => void
  editLabel?: string
  onDelete: () => void
  deleteLabel?: string
  editTestId?: string
  deleteTestId?: string
}) {
  return (
    <HStack gap="1" justify="flex-end" onClick={(e) => e.stopPropagation()}>
      {onEdit && (
        <Button size="xs" variant="ghost" onClick={onEdit} data-testid={editTestId}>
          {editLabel}
        </Button>
      )}
      <Button size="xs" variant="ghost" colorPalette="red" onClick={onDelete} data-testid={deleteTestId}>
        {deleteLabel}
      </Button>
    </HStack>
  )
}

/** DataTable props of a paged query: rows, total and the loading / error states. */
export function tableState<T>(q: UseQueryResult<Paged<T>>) {
  return { rows: q.data?.rows, total: q.data?.meta.total, isLoading: q.isPending, isError: q.isError, onRetry: () => void q.refetch() }
}

/** An error (§8 display rule) in a red alert, with an optional title. */
export function ErrorAlert({ error, title }: { error: unknown; title?: string }) {
  return (
    <Alert.Root status="error" rounded="lg">
      <Alert.Indicator />
      <Alert.Content>
        {title && <Alert.Title>{title}</Alert.Title>}
        <Alert.Description>
          <ServerMessage error={error} />
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  )
}

/** Shows an API error by the §8 display rule in a toast. */
export function toastError(err: unknown) {
  toaster.create({ type: 'error', description: <ServerMessage error={err} /> })
}

export function toastSuccess(title: string, description?: string) {
  toaster.create({ type: 'success', title, description })
}

/** The toolbar of a table: the selection bar, then the actions; wraps on narrow screens. */
export function Toolbar({ children }: { children: ReactNode }) {
  return (
    <Wrap gap="2" justify="flex-end" align="center">
      {children}
    </Wrap>
  )
}

/**
 * «در حال نمایه‌سازی»: the account's name search is catching up with an import (the contact
 * list's meta.indexing), so a search may miss its newest contacts for a few seconds.
 */
export function IndexingNote() {
  return (
    <HStack gap="1.5" color="app.muted" fontSize="sm" role="status" aria-live="polite" data-testid="contacts-indexing"
      title="جست‌وجوی نام، مخاطبینِ تازه واردشده را تا چند ثانیهٔ دیگر هم پیدا می‌کند">
      <Spinner size="xs" aria-hidden />
      <Text as="span">در حال نمایه‌سازی</Text>
    </HStack>
  )
}

/** User text (names, titles) with Persian digits, as everything on screen. */
export const faText = (s: string | null | undefined) => (s ? toPersianDigits(s) : '—')

/** «لیست خالی است», or «موردی یافت نشد» while filters are applied. */
export const emptyText = (filtered: boolean) => (filtered ? 'موردی یافت نشد' : 'لیست خالی است')
