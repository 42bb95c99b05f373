import { Stack, Tabs, Text } from '@chakra-ui/react'
import { useNavigate } from 'react-router'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { formatNumber, formatRial } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { useUrlListState } from '../../lib/urlState'
import { SectionCard } from '../../components/SectionCard'
import { useReportList, type ReportRow } from '../../lib/reports'
import { RecipientStatusBadge, SendStatusBadge } from '../../components/StatusBadge'
import { SEND_STATUS_OPTIONS, SEND_TYPES, sendTypeLabel } from '../../lib/statuses'
import { useTabParam } from '../../lib/tabs'
import { useArchiveList } from './api'
import { SystemicList } from './SystemicList'
import { MobileSearchField, TextSearchField } from './SearchFields'

/** Spec §3 SMS types, those the platform sends (the «all» choice is the filter's «همه»). */
const TYPE_OPTIONS = Object.keys(SEND_TYPES).map((value) => ({ value, label: SEND_TYPES[value] }))

export const REPORT_FILTERS: TableFilter[] = [
  { type: 'options', key: 'status', title: 'وضعیت', options: SEND_STATUS_OPTIONS },
  { type: 'options', key: 'type', title: 'نوع ارسال', options: TYPE_OPTIONS },
  { type: 'search', key: 'line', title: 'خط ارسال', placeholder: 'شماره خط' },
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

/** The search boxes' URL keys: a mobile in any form, a piece of the text. */
const SEARCH_KEYS = ['mobile', 'q']

/** With a mobile searched: that recipient's status in the send and when it last changed. */
const MATCH_COLUMN: DataTableColumn<ReportRow> = {
  key: 'match',
  title: 'وضعیت این شماره',
  render: (r) =>
    r.match ? (
      <Stack gap="0.5" align="start" data-testid="report-match">
        <RecipientStatusBadge status={r.match.pending ? undefined : r.match.status} />
        <Text as="span" fontSize="xs" color="fg.muted" whiteSpace="nowrap">
          {formatJalaliDateTime(r.match.updated_at)}
        </Text>
      </Stack>
    ) : (
      '—'
    ),
}

const TABS = ['ارسال‌ها', 'پیامک‌های سیستمی', 'بایگانی'] as const

/** /reports: the sends of the last 30 days, the platform's messages to the account's users, and the archive. */
export default function ReportsPage() {
  const [tab, setTab] = useTabParam(TABS.length)
  return (
    <SectionCard title="گزارش ارسال‌ها" description="ارسال‌های ۳۰ روز گذشته، پیامک‌های سیستمی و بایگانی ارسال‌های قدیمی‌تر.">
      <Tabs.Root value={String(tab)} onValueChange={(e) => setTab(Number(e.value))} colorPalette="brand" variant="line" lazyMount unmountOnExit>
        <Tabs.List mb="3">
          {TABS.map((t, i) => (
            <Tabs.Trigger key={t} value={String(i)} data-testid={`reports-tab-${i}`}>
              {t}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="0">
          <SendList />
        </Tabs.Content>
        <Tabs.Content value="1">
          <SystemicList />
        </Tabs.Content>
        <Tabs.Content value="2">
          <SendList archive />
        </Tabs.Content>
      </Tabs.Root>
    </SectionCard>
  )
}

/** The sends of the last 30 days, or (archive) the older ones; a row opens its details. */
function SendList({ archive = false }: { archive?: boolean }) {
  const navigate = useNavigate()
  const list = useUrlListState()
  const filters = list.filters([...allFilterKeys(REPORT_FILTERS), ...SEARCH_KEYS])
  const params = { page: list.page, limit: list.limit, ...filters }
  const columns = filters.mobile ? [...COLUMNS.slice(0, 4), MATCH_COLUMN, ...COLUMNS.slice(4)] : COLUMNS
  const recent = useReportList(params, !archive)
  const old = useArchiveList<ReportRow>(params, archive)
  const { data, isPending, isError, refetch } = archive ? old : recent
  return (
    <DataTable
      caption={archive ? 'بایگانی ارسال‌ها' : 'گزارش ارسال‌ها'}
      columns={columns}
      rows={data?.rows}
      total={data?.meta.total}
      rowKey={(r) => r.id}
      isLoading={isPending}
      isError={isError}
      onRetry={() => refetch()}
      filters={REPORT_FILTERS}
      toolbar={
        <Stack direction={{ base: 'column', md: 'row' }} gap="2" w={{ base: 'full', md: 'auto' }} align={{ md: 'flex-start' }} data-testid="report-search">
          <MobileSearchField value={filters.mobile ?? ''} onChange={(v) => list.setFilter('mobile', v)} label="جستجوی شماره موبایل" testId="report-search-mobile" />
          <TextSearchField value={filters.q ?? ''} onChange={(v) => list.setFilter('q', v)} label="جستجو در متن پیامک" testId="report-search-text" />
        </Stack>
      }
      emptyText={
        filters.mobile || filters.q
          ? 'ارسالی با این جستجو یافت نشد'
          : archive ? 'ارسالی قدیمی‌تر از ۳۰ روز یافت نشد' : 'ارسالی در این بازه یافت نشد'
      }
      onRowClick={(r) => navigate(archive ? `/reports/archive-details/${r.id}` : `/reports/${r.id}`)}
    />
  )
}
