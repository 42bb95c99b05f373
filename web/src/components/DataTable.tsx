import { Box, Card, HStack, Skeleton, Stack, Table, Text } from '@chakra-ui/react'
import type { KeyboardEvent, ReactNode } from 'react'
import type { UseQueryResult } from '@tanstack/react-query'
import type { Paged } from '../lib/api'
import { useUrlListState, type ListUrlOptions } from '../lib/urlState'
import { useIsMobile } from './hooks'
import { Pagination } from './Pagination'
import { EmptyState, ErrorState } from './States'
import { allFilterKeys, FiltersBar, FiltersModalButton, type TableFilter } from './TableFilters'

export interface DataTableColumn<T> {
  key: string
  title: string
  /** Cell content; by default `row[key]`. */
  render?: (row: T, index: number) => ReactNode
  width?: string
  align?: 'start' | 'center' | 'end'
  /** Left out of the mobile cards. */
  hideOnMobile?: boolean
}

export interface DataTableProps<T> {
  columns: DataTableColumn<T>[]
  rows: T[] | undefined
  rowKey: (row: T, index: number) => string | number
  /** Total rows on the server (meta.total). */
  total?: number
  isLoading?: boolean
  isError?: boolean
  onRetry?: () => void
  filters?: TableFilter[]
  /** URL names: pageKey, limitKey, defaultLimit, prefix (filters under `{prefix}-`), tabKey. */
  url?: ListUrlOptions
  pageSizes?: number[]
  /** Accessible name of the table. */
  caption: string
  emptyText?: string
  onRowClick?: (row: T) => void
  /** Actions shown beside the filters (e.g. an export button). */
  toolbar?: ReactNode
  /** A custom mobile card; by default each column as «title: value». */
  renderCard?: (row: T, index: number) => ReactNode
}

/** The rows, total and loading/error/retry props of a DataTable fed by one paged query. */
export function pagedQueryProps<T>(q: UseQueryResult<Paged<T>>): Pick<DataTableProps<T>, 'rows' | 'total' | 'isLoading' | 'isError' | 'onRetry'> {
  return { rows: q.data?.rows, total: q.data?.meta.total, isLoading: q.isPending, isError: q.isError, onRetry: () => void q.refetch() }
}

function cellValue<T>(col: DataTableColumn<T>, row: T, index: number): ReactNode {
  if (col.render) return col.render(row, index)
  const v = (row as Record<string, unknown>)[col.key]
  return v === null || v === undefined ? '—' : String(v)
}

function activate(handler?: () => void) {
  if (!handler) return {}
  return {
    tabIndex: 0,
    cursor: 'pointer',
    onClick: handler,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault()
        handler()
      }
    },
  }
}

/** A server-paged table whose page, size and filters live in the URL; cards on mobile. */
export function DataTable<T>({
  columns, rows, rowKey, total = 0, isLoading, isError, onRetry, filters = [], url, pageSizes, caption,
  emptyText, onRowClick, toolbar, renderCard,
}: DataTableProps<T>) {
  const isMobile = useIsMobile()
  const list = useUrlListState(url)
  const values = list.filters(allFilterKeys(filters))
  const skeletonRows = Math.min(list.limit, 10)
  const mobileColumns = columns.filter((c) => !c.hideOnMobile)
  const data = rows ?? []

  const filterProps = { filters, values, onChange: list.setFilters, onClear: list.clearFilters }
  const header = (filters.length > 0 || toolbar) && (
    <HStack justify="space-between" align="flex-end" gap="3" wrap="wrap" mb="4">
      {filters.length > 0 && (isMobile ? <FiltersModalButton {...filterProps} /> : <FiltersBar {...filterProps} />)}
      {toolbar && <HStack gap="2" ms="auto">{toolbar}</HStack>}
    </HStack>
  )

  let body: ReactNode
  if (isError) body = <ErrorState onRetry={onRetry} />
  else if (!isLoading && data.length === 0) body = <EmptyState title={emptyText} />
  else if (isMobile)
    body = (
      <Stack as="ul" aria-label={caption} aria-busy={isLoading || undefined} gap="3" listStyleType="none" m="0" p="0">
        {isLoading
          ? Array.from({ length: skeletonRows }, (_, i) => (
              <Box as="li" key={i} data-testid="skeleton-row"><Skeleton h="24" rounded="l2" /></Box>
            ))
          : data.map((row, i) => (
              <Box as="li" key={rowKey(row, i)}>
                {renderCard ? renderCard(row, i) : (
                  <Card.Root size="sm" variant="outline" {...activate(onRowClick && (() => onRowClick(row)))} _hover={onRowClick ? { bg: 'bg.subtle' } : undefined}>
                    <Card.Body as="dl" gap="2">
                      {mobileColumns.map((c) => (
                        <HStack key={c.key} justify="space-between" gap="3" align="flex-start">
                          <Text as="dt" fontSize="sm" color="fg.muted" flexShrink={0}>{c.title}</Text>
                          <Box as="dd" fontSize="sm" textAlign="end" m="0">{cellValue(c, row, i)}</Box>
                        </HStack>
                      ))}
                    </Card.Body>
                  </Card.Root>
                )}
              </Box>
            ))}
      </Stack>
    )
  else
    body = (
      <Table.ScrollArea borderWidth="1px" rounded="l2">
        <Table.Root size="sm" aria-label={caption} aria-busy={isLoading || undefined} interactive={!!onRowClick} stickyHeader>
          <Table.Header>
            <Table.Row bg="bg.subtle">
              {columns.map((c) => (
                <Table.ColumnHeader key={c.key} w={c.width} textAlign={c.align ?? 'start'} fontWeight="semibold" whiteSpace="nowrap">
                  {c.title}
                </Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {isLoading
              ? Array.from({ length: skeletonRows }, (_, i) => (
                  <Table.Row key={i} data-testid="skeleton-row">
                    {columns.map((c) => <Table.Cell key={c.key}><Skeleton h="4" /></Table.Cell>)}
                  </Table.Row>
                ))
              : data.map((row, i) => (
                  <Table.Row key={rowKey(row, i)} {...activate(onRowClick && (() => onRowClick(row)))}>
                    {columns.map((c) => (
                      <Table.Cell key={c.key} textAlign={c.align ?? 'start'}>{cellValue(c, row, i)}</Table.Cell>
                    ))}
                  </Table.Row>
                ))}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
    )

  return (
    <Box>
      {header}
      {isLoading && <Text srOnly role="status">در حال بارگذاری</Text>}
      {body}
      {!isError && (total > 0 || list.page > 1) && (
        <Pagination
          page={list.page}
          limit={list.limit}
          total={total}
          onPageChange={list.setPage}
          onLimitChange={list.setLimit}
          pageSizes={pageSizes}
          compact={isMobile}
        />
      )}
    </Box>
  )
}
