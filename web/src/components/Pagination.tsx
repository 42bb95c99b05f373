import { Box, HStack, IconButton, NativeSelect, Text } from '@chakra-ui/react'
import { formatNumber } from '../lib/format'
import { ChevronEndIcon, ChevronStartIcon } from './icons'

export const DEFAULT_PAGE_SIZES = [10, 20, 50, 100]

/** Page numbers to show around the current one; null marks a gap («…»). */
export function pageWindow(page: number, pages: number, around = 1): Array<number | null> {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1)
  const out: Array<number | null> = [1]
  const from = Math.max(2, Math.min(page - around, pages - 2 - 2 * around))
  const to = Math.min(pages - 1, Math.max(page + around, 3 + 2 * around))
  if (from > 2) out.push(null)
  for (let p = from; p <= to; p++) out.push(p)
  if (to < pages - 1) out.push(null)
  out.push(pages)
  return out
}

export interface PaginationProps {
  page: number
  limit: number
  total: number
  onPageChange: (page: number) => void
  onLimitChange: (limit: number) => void
  pageSizes?: number[]
  compact?: boolean
}

/** «نمایش ۱ تا ۱۰ از ۲۵۰», page buttons (RTL arrows) and the page-size select. */
export function Pagination({ page, limit, total, onPageChange, onLimitChange, pageSizes = DEFAULT_PAGE_SIZES, compact }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / limit))
  const first = total === 0 ? 0 : (page - 1) * limit + 1
  const last = Math.min(total, page * limit)
  const sizes = pageSizes.includes(limit) ? pageSizes : [...pageSizes, limit].sort((a, b) => a - b)
  return (
    <HStack justify="space-between" wrap="wrap" gap="3" pt="3">
      <HStack gap="2">
        <Text fontSize="sm" color="fg.muted" whiteSpace="nowrap">تعداد در صفحه</Text>
        <NativeSelect.Root size="sm" w="20">
          <NativeSelect.Field aria-label="تعداد در صفحه" value={limit} onChange={(e) => onLimitChange(Number(e.target.value))}>
            {sizes.map((s) => <option key={s} value={s}>{formatNumber(s)}</option>)}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {!compact && (
          <Text fontSize="sm" color="fg.muted" whiteSpace="nowrap">
            {`نمایش ${formatNumber(first)} تا ${formatNumber(last)} از ${formatNumber(total)}`}
          </Text>
        )}
      </HStack>
      <Box as="nav" aria-label="صفحه‌بندی">
        <HStack as="ul" gap="1" listStyleType="none" m="0" p="0">
          <li>
            <IconButton size="sm" variant="ghost" aria-label="صفحه قبل" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
              <ChevronStartIcon />
            </IconButton>
          </li>
          {(compact ? [page] : pageWindow(page, pages)).map((p, i) => (
            <li key={p ?? `gap-${i}`}>
              {p === null ? (
                <Text as="span" px="1" color="fg.muted" aria-hidden>…</Text>
              ) : (
                <IconButton
                  size="sm"
                  variant={p === page ? 'solid' : 'ghost'}
                  colorPalette={p === page ? 'brand' : 'gray'}
                  aria-label={`صفحه ${formatNumber(p)}`}
                  aria-current={p === page ? 'page' : undefined}
                  onClick={() => p !== page && onPageChange(p)}
                >
                  {formatNumber(p)}
                </IconButton>
              )}
            </li>
          ))}
          <li>
            <IconButton size="sm" variant="ghost" aria-label="صفحه بعد" disabled={page >= pages} onClick={() => onPageChange(page + 1)}>
              <ChevronEndIcon />
            </IconButton>
          </li>
        </HStack>
      </Box>
    </HStack>
  )
}
