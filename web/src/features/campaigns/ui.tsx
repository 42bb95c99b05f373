import { Box, HStack, IconButton, Stack, Switch, Text } from '@chakra-ui/react'
import type { UseQueryResult } from '@tanstack/react-query'
import type { ComponentType, ReactNode } from 'react'
import type { IconProps } from '@chakra-ui/react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import type { Paged } from '../../lib/api'
import type { ListUrlOptions } from '../../lib/urlState'
import { ServerMessage } from '../../components/ServerMessage'
import { toaster } from '../../lib/toaster'
import { toPersianDigits } from '../../lib/digits'
import { useToggleCampaign, type Campaign, type RunStatus } from './api'

/** A run's status in Persian with its badge colour. */
export const RUN_STATUS: Record<RunStatus, { label: string; color: string }> = {
  sent: { label: 'ارسال شد', color: 'green' },
  failed: { label: 'ناموفق', color: 'red' },
  empty: { label: 'بدون مخاطب', color: 'gray' },
}

/** The «فعال» switch of a campaign's row (pauses and resumes it). */
export function EnabledSwitch({ row }: { row: Campaign }) {
  const toggle = useToggleCampaign()
  return (
    <Switch.Root
      size="sm"
      colorPalette="brand"
      checked={toggle.isPending ? toggle.variables?.enabled : row.enabled}
      disabled={toggle.isPending}
      onCheckedChange={(e) =>
        toggle.mutate(
          { id: row.id, enabled: e.checked },
          { onError: (err) => toaster.create({ type: 'error', description: <ServerMessage error={err} /> }) },
        )
      }
      aria-label={row.enabled ? 'غیرفعال کردن کمپین' : 'فعال کردن کمپین'}
      data-testid={`campaign-toggle-${row.id}`}
    >
      <Switch.HiddenInput />
      <Switch.Control>
        <Switch.Thumb />
      </Switch.Control>
    </Switch.Root>
  )
}

export interface RowAction {
  label: string
  title: string
  icon: ComponentType<IconProps>
  onClick: () => void
  danger?: boolean
  testId?: string
}

/** The «عملیات» column: icon buttons at the row's end. */
export function actionsColumn<T>(actions: (row: T) => RowAction[]): DataTableColumn<T> {
  return {
    key: 'actions',
    title: 'عملیات',
    align: 'end',
    render: (row) => (
      <HStack gap="1" justify="flex-end">
        {actions(row).map(({ label, title, icon: Icon, onClick, danger, testId }) => (
          <IconButton key={label} size="sm" variant="ghost" colorPalette={danger ? 'red' : undefined} aria-label={label} title={title} onClick={onClick} data-testid={testId}>
            <Icon />
          </IconButton>
        ))}
      </HStack>
    ),
  }
}

/** A DataTable fed by a paged query whose page and size live in the URL under `url`. */
export function PagedTable<T extends { id: number | string }>({ caption, columns, query, url, emptyText }: {
  caption: string
  columns: DataTableColumn<T>[]
  query: UseQueryResult<Paged<T>>
  url: ListUrlOptions
  emptyText?: string
}) {
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={query.data?.rows}
      total={query.data?.meta.total}
      rowKey={(r) => r.id}
      isLoading={query.isPending}
      isError={query.isError}
      onRetry={() => query.refetch()}
      url={url}
      emptyText={emptyText}
    />
  )
}

/** A labelled form control with its error (or, without one, its helper text) under it. */
export function Labeled({ label, error, helper, children }: { label: string; error?: string; helper?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="1.5">
      <Text fontWeight="medium" fontSize="sm">
        {label}
      </Text>
      {children}
      {error ? (
        <Text fontSize="sm" color="fg.error">
          {error}
        </Text>
      ) : (
        helper && (
          <Text fontSize="xs" color="app.muted">
            {helper}
          </Text>
        )
      )}
    </Stack>
  )
}

/** The «عنوان» column: a campaign's title, what it is and its line. */
export function titleColumn(what: (row: Campaign) => string): DataTableColumn<Campaign> {
  return {
    key: 'title',
    title: 'عنوان',
    render: (r) => (
      <Box>
        <Text fontWeight="semibold">{r.title}</Text>
        <Text fontSize="xs" color="app.muted">
          {what(r)} · <bdi>{toPersianDigits(r.sender ?? '')}</bdi>
        </Text>
      </Box>
    ),
  }
}
