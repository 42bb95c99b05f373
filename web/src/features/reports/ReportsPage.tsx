import { Text } from '@chakra-ui/react'
import { useNavigate } from 'react-router'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { formatNumber, formatRial } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { useUrlListState } from '../../lib/urlState'
import { SectionCard } from '../../components/SectionCard'
import { useReportList, type ReportRow } from '../../lib/reports'
import { SendStatusBadge } from '../../components/StatusBadge'
import { SEND_STATUS_OPTIONS, SEND_TYPES, sendTypeLabel } from '../../lib/statuses'

const TYPE_OPTIONS = ['quick', 'phonebook', 'file', 'keyword', 'peer_to_peer', 'city_province', 'pattern', 'webservice'].map((value) => ({
  value,
  label: SEND_TYPES[value],
}))

export const REPORT_FILTERS: TableFilter[] = [
  { type: 'options', key: 'status', title: 'وضعیت', options: SEND_STATUS_OPTIONS },
  { type: 'options', key: 'type', title: 'نوع ارسال', options: TYPE_OPTIONS },
  { type: 'date_range', key: 'date', title: 'تاریخ ارسال', dateFromKey: 'date_from', dateToKey: 'date_to' },
]

const num = (v: number | undefined) => formatNumber(v ?? 0)

const COLUMNS: DataTableColumn<ReportRow>[] = [
  { key: 'id', title: 'شناسه', render: (r) => <bdi>{toPersianDigits(String(r.id))}</bdi>, width: '90px' },
  { key: 'sender', title: 'خط ارسال', render: (r) => <bdi>{toPersianDigits(r.sender ?? '')}</bdi> },
  { key: 'type', title: 'نوع ارسال', render: (r) => sendTypeLabel(r.type) },
  { key: 'status', title: 'وضعیت', render: (r) => <SendStatusBadge status={r.status} /> },
  { key: 'requested', title: 'گیرندگان', render: (r) => num(r.requested), align: 'end' },
  { key: 'sent', title: 'ارسال شده', render: (r) => num(r.sent), align: 'end', hideOnMobile: true },
  { key: 'delivered', title: 'رسیده به گوشی', render: (r) => num(r.delivered), align: 'end' },
  { key: 'price', title: 'هزینه', render: (r) => formatRial(r.price ?? 0), align: 'end', hideOnMobile: true },
  {
    key: 'created_at',
    title: 'تاریخ ارسال',
    render: (r) => (
      <Text as="span" whiteSpace="nowrap">
        {r.created_at ? formatJalaliDateTime(r.created_at) : '—'}
      </Text>
    ),
  },
]

/** /reports: the sends of the last 30 days with URL-driven filters and paging. */
export default function ReportsPage() {
  const navigate = useNavigate()
  const list = useUrlListState()
  const filters = list.filters(allFilterKeys(REPORT_FILTERS))
  const { data, isPending, isError, refetch } = useReportList({ page: list.page, limit: list.limit, ...filters })
  return (
    <SectionCard title="گزارش ارسال‌ها" description="ارسال‌های ۳۰ روز گذشته؛ برای دیدن جزئیات و گیرندگان روی هر ردیف بزنید.">
      <DataTable
        caption="گزارش ارسال‌ها"
        columns={COLUMNS}
        rows={data?.rows}
        total={data?.meta.total}
        rowKey={(r) => r.id}
        isLoading={isPending}
        isError={isError}
        onRetry={() => refetch()}
        filters={REPORT_FILTERS}
        emptyText="ارسالی در این بازه یافت نشد"
        onRowClick={(r) => navigate(`/reports/${r.id}`)}
      />
    </SectionCard>
  )
}
