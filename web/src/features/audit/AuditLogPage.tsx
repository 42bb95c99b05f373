import { Badge, Card, Heading, Stack, Text } from '@chakra-ui/react'
import { useMemo } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { ErrorState } from '../../components/States'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { errorText, isApiError } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { useAuditLog, useAuditOptions, type AuditOptions, type AuditRow } from './api'
import { ExportButton } from './ExportButton'
import { browserName, changeText } from './summary'

/** The filters: user, action and a Jalali date range (sent as Tehran days). */
export function auditFilters(options: AuditOptions | undefined): TableFilter[] {
  const opts = (list: AuditOptions['users'] | undefined) => (list ?? []).map((o) => ({ value: String(o.value), label: o.label }))
  return [
    { type: 'options', key: 'user_id', title: 'کاربر', options: opts(options?.users) },
    { type: 'options', key: 'action', title: 'رویداد', options: opts(options?.actions) },
    { type: 'date_range', key: 'date', title: 'تاریخ', dateFromKey: 'date_from', dateToKey: 'date_to' },
  ]
}

/** Who acted: the user, an API key, or the system; a support staff member acting inside the panel is named. */
export function actorText(r: Pick<AuditRow, 'user_name' | 'api_key_id'> & Partial<Pick<AuditRow, 'details'>>): string {
  const who = r.api_key_id ? `${r.user_name || 'وب‌سرویس'} (کلید API ${toPersianDigits(r.api_key_id)})` : r.user_name || 'سامانه'
  const staff = r.details?.staff
  return typeof staff === 'string' && staff ? `${who} (پشتیبان: ${staff})` : who
}

const COLUMNS: DataTableColumn<AuditRow>[] = [
  {
    key: 'created_at',
    title: 'زمان',
    width: '150px',
    render: (r) => (
      <Text as="span" whiteSpace="nowrap">
        {formatJalaliDateTime(r.created_at)}
      </Text>
    ),
  },
  { key: 'user', title: 'کاربر', render: (r) => actorText(r) },
  {
    key: 'action',
    title: 'رویداد',
    render: (r) => (
      <Badge variant="subtle" colorPalette={r.action.includes('failed') || r.action.includes('locked') ? 'red' : 'gray'} title={r.action}>
        {r.action_title}
      </Badge>
    ),
  },
  { key: 'target', title: 'شناسه', render: (r) => (r.target ? <bdi>{toPersianDigits(r.target)}</bdi> : '—'), hideOnMobile: true },
  {
    key: 'change',
    title: 'تغییر',
    render: (r) => (
      <Text as="span" fontSize="sm" lineClamp={2} title={changeText(r)}>
        {changeText(r) || '—'}
      </Text>
    ),
  },
  { key: 'ip', title: 'IP', render: (r) => <bdi>{toPersianDigits(r.ip || '—')}</bdi> },
  { key: 'user_agent', title: 'مرورگر', render: (r) => <bdi title={r.user_agent}>{browserName(r.user_agent)}</bdi>, hideOnMobile: true },
]

/** /audit-log: the owner's log of every change in the account, filtered in the URL. */
export default function AuditLogPage() {
  const list = useUrlListState()
  const options = useAuditOptions()
  const filterDefs = useMemo(() => auditFilters(options.data), [options.data])
  const filters = list.filters(allFilterKeys(filterDefs))
  const { data, isPending, isError, error, refetch } = useAuditLog({ page: list.page, limit: list.limit, ...filters })
  // Only the owner may read the log: a colleague gets the §8 access message, not a retry.
  const denied = isApiError(error, 403)
  return (
    <Card.Root>
      <Card.Body>
        <Stack gap="4">
          <Stack gap="1">
            <Heading as="h2" size="md">
              گزارش فعالیت‌ها
            </Heading>
            <Text color="fg.muted" fontSize="sm">
              ورودها، ارسال‌ها و هر تغییری که شما یا همکارانتان در حساب داده‌اید، با زمان و نشانی IP.
            </Text>
          </Stack>
          {denied ? (
            <ErrorState title="دسترسی محدود" description={errorText(error)} />
          ) : (
            <DataTable
              caption="گزارش فعالیت‌ها"
              columns={COLUMNS}
              rows={data?.rows}
              total={data?.meta.total}
              rowKey={(r) => r.id}
              isLoading={isPending}
              isError={isError}
              onRetry={() => refetch()}
              filters={filterDefs}
              toolbar={<ExportButton filters={filters} />}
              emptyText="فعالیتی با این فیلترها یافت نشد"
            />
          )}
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}
