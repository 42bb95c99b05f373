import { HStack, IconButton } from '@chakra-ui/react'
import type { UseQueryResult } from '@tanstack/react-query'
import type { ComponentType } from 'react'
import type { IconProps } from '@chakra-ui/react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import type { Paged } from '../../lib/api'
import type { ListUrlOptions } from '../../lib/urlState'

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
export function PagedTable<T extends { id: number | string }>({ caption, columns, query, url }: {
  caption: string
  columns: DataTableColumn<T>[]
  query: UseQueryResult<Paged<T>>
  url: ListUrlOptions
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
    />
  )
}
