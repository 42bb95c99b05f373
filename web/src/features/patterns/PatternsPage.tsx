import { Badge, Button, HStack, Text } from '@chakra-ui/react'
import { Link as RouterLink, useNavigate } from 'react-router'
import { DataTable, type DataTableColumn, pagedQueryProps } from '../../components/DataTable'
import { PlusIcon } from '../../components/icons'
import { SectionCard } from '../../components/SectionCard'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { usePatterns, type Pattern } from './api'
import { KIND_LABELS, STATUS_LABELS } from './model'

const FILTERS: TableFilter[] = [
  { type: 'search', key: 'q', title: 'جستجو', placeholder: 'عنوان، کد یا متن' },
  { type: 'options', key: 'status', title: 'وضعیت', options: Object.entries(STATUS_LABELS).map(([value, s]) => ({ value, label: s.label })) },
  { type: 'options', key: 'kind', title: 'نوع الگو', options: Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label })) },
]

/** A pattern's review state as a chip; an edited pattern that still sends shows both. */
export function StatusChip({ p }: { p: Pick<Pattern, 'status' | 'sendable'> }) {
  const s = STATUS_LABELS[p.status]
  return (
    <HStack gap="1" wrap="wrap">
      <Badge colorPalette={s.color} data-testid="pattern-status">{s.label}</Badge>
      {p.status !== 'approved' && p.sendable && <Badge colorPalette="green" variant="outline">نسخه تاییدشده فعال</Badge>}
    </HStack>
  )
}

const columns = (systemic: boolean): DataTableColumn<Pattern>[] => [
  { key: 'title', title: 'عنوان', render: (r) => <Text fontWeight="medium">{toPersianDigits(r.title)}</Text> },
  { key: 'code', title: 'کد الگو', render: (r) => <bdi dir="ltr"><Text as="span" fontFamily="mono" fontSize="xs">{r.code}</Text></bdi> },
  { key: 'kind', title: 'نوع', render: (r) => KIND_LABELS[r.kind] },
  ...(systemic ? [] : [{ key: 'status', title: 'وضعیت', render: (r: Pattern) => <StatusChip p={r} /> }]),
  { key: 'version', title: 'نسخه', hideOnMobile: true, render: (r) => toPersianDigits(r.version) },
  { key: 'shared', title: 'اشتراکی', hideOnMobile: true, render: (r) => (r.shared ? 'بله' : 'خیر') },
  { key: 'updated_at', title: 'آخرین تغییر', hideOnMobile: true, render: (r) => formatJalaliDateTime(r.updated_at) },
]

/** /pattern and /pattern/systemic: the account's patterns with status, kind and search filters, or the platform's. */
export default function PatternsPage({ systemic = false }: { systemic?: boolean }) {
  const navigate = useNavigate()
  const list = useUrlListState()
  const filters = systemic ? FILTERS.filter((f) => f.key !== 'status') : FILTERS
  const f = list.filters(allFilterKeys(filters))
  const q = usePatterns({ page: list.page, limit: list.limit, ...f }, systemic)
  return (
    <SectionCard
      title={systemic ? 'الگوهای سیستمی' : 'الگوها (پترن)'}
      description={
        systemic
          ? 'الگوهای آماده سامانه؛ فقط خواندنی‌اند و با کدشان ارسال می‌شوند.'
          : 'متن‌های قالب‌دار با متغیر %نام%؛ پس از تایید کارشناس با کد الگو و مقدار متغیرها ارسال می‌شوند.'
      }
      actions={
        <HStack gap="2">
          <Button asChild size="sm" variant="outline">
            <RouterLink to={systemic ? '/pattern' : '/pattern/systemic'}>{systemic ? 'الگوهای من' : 'الگوهای سیستمی'}</RouterLink>
          </Button>
          {!systemic && (
            <Button asChild size="sm" colorPalette="brand" data-testid="pattern-new">
              <RouterLink to="/pattern/create"><PlusIcon /> الگوی جدید</RouterLink>
            </Button>
          )}
        </HStack>
      }
    >
      <DataTable
        caption={systemic ? 'الگوهای سیستمی' : 'الگوها'}
        columns={columns(systemic)}
        {...pagedQueryProps(q)}
        rowKey={(r) => r.id}
        filters={filters}
        emptyText={systemic ? 'الگوی سیستمی تعریف نشده است' : 'هنوز الگویی نساخته‌اید'}
        onRowClick={(r) => navigate(systemic ? `/pattern/systemic/${r.id}` : `/pattern/${r.id}`)}
      />
    </SectionCard>
  )
}
