import { Badge, Text } from '@chakra-ui/react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { ExportButton } from '../../components/ExportButton'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { toPersianDigits } from '../../lib/digits'
import { relativeTime } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { recipientStatusInfo } from '../../lib/statuses'
import { useUrlListState } from '../../lib/urlState'
import { downloadSystemic, useSystemicList, type SystemicRow } from './api'
import { displayMobile } from '../../lib/mobile'

const FILTERS: TableFilter[] = [{ type: 'date_range', key: 'date', title: 'تاریخ', dateFromKey: 'date_from', dateToKey: 'date_to' }]

const COLUMNS: DataTableColumn<SystemicRow>[] = [
  {
    key: 'created_at',
    title: 'زمان',
    render: (r) => (
      <Text as="span" whiteSpace="nowrap" title={formatJalaliDateTime(r.created_at)}>
        {relativeTime(r.created_at)}
      </Text>
    ),
  },
  { key: 'purpose', title: 'نوع', render: (r) => <Badge variant="subtle">{r.purpose_title}</Badge> },
  { key: 'username', title: 'کاربر', render: (r) => <bdi>{r.username}</bdi> },
  { key: 'mobile', title: 'موبایل', render: (r) => <bdi>{displayMobile(r.mobile)}</bdi>, hideOnMobile: true },
  { key: 'text', title: 'متن', render: (r) => <Text lineClamp={2} fontSize="sm">{toPersianDigits(r.text)}</Text> },
  {
    key: 'status',
    title: 'وضعیت',
    render: (r) => {
      const s = recipientStatusInfo(r.status)
      return <Badge colorPalette={s.color}>{s.label}</Badge>
    },
  },
]

/** The messages the platform sent to the account's users (codes, alerts, invitations), codes hidden. */
export function SystemicList() {
  const list = useUrlListState()
  const filters = list.filters(allFilterKeys(FILTERS))
  const { data, isPending, isError, refetch } = useSystemicList({ page: list.page, limit: list.limit, ...filters })
  return (
    <DataTable
      caption="پیامک‌های سیستمی"
      columns={COLUMNS}
      rows={data?.rows}
      total={data?.meta.total}
      rowKey={(r) => r.id}
      isLoading={isPending}
      isError={isError}
      onRetry={() => refetch()}
      filters={FILTERS}
      toolbar={<ExportButton testId="systemic-export" download={(p) => downloadSystemic(filters, p)} />}
      emptyText="پیامک سیستمی‌ای در ۳۰ روز گذشته برای کاربران این حساب ارسال نشده است"
    />
  )
}
