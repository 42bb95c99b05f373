import { Badge, Button, Card, Heading, HStack, Stack, Text } from '@chakra-ui/react'
import { useMemo } from 'react'
import { useNavigate } from 'react-router'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../components/DataTable'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { allows, useAcl } from '../../lib/acl'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDate } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { useReaders, type Reader } from './api'
import { KIND_TITLES, STATUS_TITLES } from './model'

function StatusBadge({ r }: { r: Reader }) {
  const s = r.expired ? { label: 'منقضی', color: 'gray' } : STATUS_TITLES[r.status]
  return <Badge colorPalette={s.color} data-testid={`reader-status-${r.id}`}>{s.label}</Badge>
}

function columns(secretary: boolean): DataTableColumn<Reader>[] {
  return [
    { key: 'title', title: 'عنوان', render: (r) => <Text fontWeight="medium">{toPersianDigits(r.title)}</Text> },
    ...(secretary ? [] : [{ key: 'kind', title: 'نوع', render: (r: Reader) => KIND_TITLES[r.kind] }]),
    { key: 'line', title: 'خط', render: (r) => <bdi>{toPersianDigits(r.line)}</bdi> },
    { key: 'keywords', title: 'کلمات کلیدی', render: (r) => (r.keywords.length ? toPersianDigits(r.keywords.join('، ')) : 'همه پیام‌ها'), hideOnMobile: true },
    { key: 'entries', title: 'پیام‌ها', render: (r) => formatNumber(r.entries) },
    { key: 'expires_at', title: 'پایان', render: (r) => (r.expires_at ? formatJalaliDate(r.expires_at) : '—'), hideOnMobile: true },
    { key: 'status', title: 'وضعیت', render: (r) => <StatusBadge r={r} /> },
  ]
}

/** /secretary/received-message/inbox and /secretary/keywords/list: the account's secretaries or keyword readers. */
export default function ReaderListPage({ secretary }: { secretary: boolean }) {
  const navigate = useNavigate()
  const list = useUrlListState()
  const filterDefs = useMemo<TableFilter[]>(
    () =>
      secretary
        ? []
        : [{ type: 'options', key: 'kind', title: 'نوع', options: Object.entries(KIND_TITLES).filter(([k]) => k !== 'secretary').map(([value, label]) => ({ value, label })) }],
    [secretary],
  )
  const filters = list.filters(allFilterKeys(filterDefs))
  const kind = secretary ? 'secretary' : filters.kind || 'keywords'
  const readers = useReaders({ page: list.page, limit: list.limit, kind })
  const canManage = allows(useAcl().data, 'secretary.manage')
  const base = secretary ? '/secretary/received-message' : '/secretary/keywords'
  const detail = (r: Reader) => (secretary ? `${base}/recipients/${r.id}/all` : `${base}/${r.id}`)
  return (
    <Card.Root>
      <Card.Body>
        <Stack gap="4">
          <HStack justify="space-between" wrap="wrap" gap="2">
            <Stack gap="1">
              <Heading as="h2" size="md">{secretary ? 'منشی پیام دریافتی' : 'کلیدخوان'}</Heading>
              <Text color="fg.muted" fontSize="sm">
                {secretary
                  ? 'به هر پیامی که به خط شما می‌رسد (یا پیام‌های دارای کلمه کلیدی) خودکار پاسخ می‌دهد و فرستنده را به گروه اضافه می‌کند.'
                  : 'مسابقه، نظرسنجی، انتقادات، کد هدیه و ثبت مراجعه با کلمه کلیدی؛ هر منشی پس از تایید کارشناس فعال می‌شود.'}
              </Text>
            </Stack>
            {canManage && (
              <Button colorPalette="brand" size="sm" onClick={() => navigate(`${base}/create`)} data-testid="reader-new">
                {secretary ? 'منشی تازه' : 'کلیدخوان تازه'}
              </Button>
            )}
          </HStack>
          <DataTable
            caption={secretary ? 'منشی‌ها' : 'کلیدخوان‌ها'}
            columns={columns(secretary)}
            {...pagedQueryProps(readers)}
            rowKey={(r) => r.id}
            filters={filterDefs}
            onRowClick={(r) => navigate(detail(r))}
            emptyText="هنوز منشی‌ای نساخته‌اید"
          />
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}
