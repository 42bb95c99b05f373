import { Badge, Stack, Text } from '@chakra-ui/react'
import { useMemo } from 'react'
import { useNavigate } from 'react-router'
import { DataTable, type DataTableColumn, pagedQueryProps } from '../../components/DataTable'
import { ExportButton } from '../../components/ExportButton'
import { SectionCard } from '../../components/SectionCard'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { exportApiCalls, useApiCalls, useKeyOptions, type ApiCall, type KeyOption } from './api'
import { statusColor } from './model'

/** The filters: path, status class, key and a Jalali date range (sent as Tehran days). */
function callFilters(keys: KeyOption[] | undefined): TableFilter[] {
  return [
    { type: 'search', key: 'path', title: 'مسیر', placeholder: '/v1/api/send' },
    {
      type: 'options',
      key: 'status',
      title: 'وضعیت پاسخ',
      options: [
        { value: '2xx', label: 'موفق (2xx)' },
        { value: '4xx', label: 'خطای درخواست (4xx)' },
        { value: '5xx', label: 'خطای سرور (5xx)' },
      ],
    },
    { type: 'options', key: 'api_key_id', title: 'کلید API', options: (keys ?? []).map((k) => ({ value: String(k.id), label: k.title })) },
    { type: 'date_range', key: 'date', title: 'تاریخ', dateFromKey: 'date_from', dateToKey: 'date_to' },
  ]
}

const COLUMNS: DataTableColumn<ApiCall>[] = [
  { key: 'created_at', title: 'زمان', render: (r) => <Text as="span" whiteSpace="nowrap">{formatJalaliDateTime(r.created_at)}</Text> },
  {
    key: 'path',
    title: 'درخواست',
    render: (r) => (
      <Text as="bdi" dir="ltr" fontFamily="mono" fontSize="xs" wordBreak="break-all" data-testid="apicall-path">
        {r.method} {r.path}
      </Text>
    ),
  },
  { key: 'key', title: 'کلید', hideOnMobile: true, render: (r) => toPersianDigits(r.api_key_title || String(r.api_key_id)) },
  { key: 'ip', title: 'IP', hideOnMobile: true, render: (r) => <bdi>{toPersianDigits(r.ip)}</bdi> },
  { key: 'status', title: 'وضعیت', render: (r) => <Badge colorPalette={statusColor(r.status)}>{toPersianDigits(r.status)}</Badge> },
  { key: 'latency', title: 'مدت', hideOnMobile: true, render: (r) => `${toPersianDigits(r.latency_ms.toFixed(1))} میلی‌ثانیه` },
]

/** /developers/api-calls: the calls made with the account's API keys in the last 30 days. */
export default function ApiCallsPage() {
  const list = useUrlListState()
  const keys = useKeyOptions()
  const defs = useMemo(() => callFilters(keys.data?.rows), [keys.data])
  const filters = list.filters(allFilterKeys(defs))
  const q = useApiCalls({ page: list.page, limit: list.limit, ...filters })
  const navigate = useNavigate()
  return (
    <SectionCard
      title="فراخوانی‌های API"
      description="درخواست‌هایی که با کلیدهای API حساب فرستاده شده‌اند، تا ۳۰ روز؛ رمزها، توکن‌ها و کلیدها در بدنهٔ ذخیره‌شده پوشانده می‌شوند."
    >
      <Stack gap="3">
        <DataTable
          caption="فراخوانی‌های API"
          columns={COLUMNS}
          {...pagedQueryProps(q)}
          rowKey={(r) => r.id}
          filters={defs}
          toolbar={<ExportButton testId="apicalls-export" download={(onProgress) => exportApiCalls(filters, onProgress)} />}
          onRowClick={(r) => navigate(`/developers/api-calls/${r.id}`)}
          emptyText="فراخوانی‌ای با این فیلترها یافت نشد"
        />
      </Stack>
    </SectionCard>
  )
}
