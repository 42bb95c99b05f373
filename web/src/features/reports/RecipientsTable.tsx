import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { useRecipients, type RecipientRow } from '../../lib/reports'
import { RecipientStatusBadge } from '../../components/StatusBadge'
import { RECIPIENT_STATUS, operatorLabel } from '../../lib/statuses'
import { PartsIndicator } from './PartsIndicator'
import { MobileSearchField } from './SearchFields'
import { displayMobile } from '../../lib/mobile'

const URL_OPTS = { prefix: 'r' }

const FILTERS: TableFilter[] = [
  { type: 'options', key: 'status', title: 'وضعیت گیرنده', options: RECIPIENT_STATUS.map((s) => ({ value: String(s.value), label: s.label })) },
]

const COLUMNS: DataTableColumn<RecipientRow>[] = [
  { key: 'mobile', title: 'شماره موبایل', render: (r) => <bdi>{displayMobile(r.mobile)}</bdi> },
  { key: 'operator', title: 'اپراتور', render: (r) => operatorLabel(r.operator) },
  { key: 'parts', title: 'بخش‌ها', render: (r) => <PartsIndicator parts={r.parts ?? 0} states={r.part_states} />, align: 'end' },
  { key: 'status', title: 'وضعیت', render: (r) => <RecipientStatusBadge status={r.status} /> },
  { key: 'reason', title: 'علت نرسیدن', render: (r) => r.reason || '—', hideOnMobile: true },
  { key: 'updated_at', title: 'آخرین به‌روزرسانی', render: (r) => (r.updated_at ? formatJalaliDateTime(r.updated_at) : '—') },
]

/** Recipients of one send (GET /report/recipients), paged and filtered in the URL under «r-». */
export function RecipientsTable({ id, pollMs, toolbar }: { id: string; pollMs: number | false; toolbar?: React.ReactNode }) {
  const list = useUrlListState(URL_OPTS)
  const filters = list.filters([...allFilterKeys(FILTERS), 'mobile'])
  const { data, isPending, isError, refetch } = useRecipients(id, { page: list.page, limit: list.limit, ...filters }, pollMs)
  return (
    <DataTable
      caption="گیرندگان"
      columns={COLUMNS}
      rows={data?.rows}
      total={data?.meta.total}
      rowKey={(r, i) => `${r.mobile}-${i}`}
      isLoading={isPending}
      isError={isError}
      onRetry={() => refetch()}
      filters={FILTERS}
      url={URL_OPTS}
      toolbar={
        <>
          <MobileSearchField value={filters.mobile ?? ''} onChange={(v) => list.setFilter('mobile', v)} label="جستجوی شماره" testId="recipients-search-mobile" />
          {toolbar}
        </>
      }
    />
  )
}
