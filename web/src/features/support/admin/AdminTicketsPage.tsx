import { Stack, Text } from '@chakra-ui/react'
import { useMemo } from 'react'
import { useNavigate } from 'react-router'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../../components/DataTable'
import { SectionCard } from '../../../components/SectionCard'
import { allFilterKeys, type TableFilter } from '../../../components/TableFilters'
import { toPersianDigits } from '../../../lib/digits'
import { formatJalaliDateTime } from '../../../lib/jalali'
import { useUrlListState } from '../../../lib/urlState'
import { useAdminCategories, useAdminQueue, useStaffUsers, type Ticket } from '../api'
import { STATES } from '../logic'
import { StateBadge } from '../parts'

const COLUMNS: DataTableColumn<Ticket>[] = [
  { key: 'number', title: 'شماره', width: '90px', render: (t) => <bdi>{toPersianDigits(t.number)}</bdi> },
  { key: 'title', title: 'عنوان', render: (t) => <Text as="span" fontWeight="medium" lineClamp={1}>{t.title}</Text> },
  { key: 'account', title: 'حساب', render: (t) => `${t.account_name} (${toPersianDigits(t.account_id)})` },
  { key: 'category', title: 'دسته‌بندی', hideOnMobile: true, render: (t) => (t.kind === 'suggestion' ? 'پیشنهاد' : [t.category, t.sub_category].filter(Boolean).join(' / ')) },
  { key: 'state', title: 'وضعیت', render: (t) => <StateBadge state={t.state} /> },
  { key: 'assigned', title: 'کارشناس', hideOnMobile: true, render: (t) => t.assigned_name || '—' },
  { key: 'updated_at', title: 'آخرین به‌روزرسانی', hideOnMobile: true, render: (t) => formatJalaliDateTime(t.updated_at) },
]

/** /admin/support/tickets: every account's requests, filtered by state, kind, category, account, staff and date. */
export default function AdminTicketsPage() {
  const navigate = useNavigate()
  const list = useUrlListState()
  const cats = useAdminCategories()
  const staff = useStaffUsers()
  const filterDefs = useMemo<TableFilter[]>(
    () => [
      { type: 'search', key: 'search', title: 'جستجو', placeholder: 'عنوان یا شماره' },
      { type: 'options', key: 'state', title: 'وضعیت', options: STATES.map((s) => ({ value: String(s.value), label: s.label })) },
      { type: 'options', key: 'kind', title: 'نوع', options: [{ value: 'ticket', label: 'تیکت' }, { value: 'suggestion', label: 'پیشنهاد' }] },
      { type: 'options', key: 'category_id', title: 'دسته‌بندی', options: (cats.data ?? []).map((c) => ({ value: String(c.id), label: c.title })) },
      { type: 'search', key: 'account_id', title: 'شناسه حساب', placeholder: 'شناسه حساب' },
      {
        type: 'options',
        key: 'assigned_to',
        title: 'کارشناس',
        options: [{ value: 'none', label: 'بدون کارشناس' }, ...(staff.data ?? []).map((u) => ({ value: String(u.id), label: u.name || u.username }))],
      },
      { type: 'date_range', key: 'date', title: 'تاریخ ثبت', dateFromKey: 'from', dateToKey: 'to' },
    ],
    [cats.data, staff.data],
  )
  const filters = list.filters(allFilterKeys(filterDefs))
  const q = useAdminQueue({ page: list.page, limit: list.limit, ...filters })
  return (
    <SectionCard title="صف درخواست‌های پشتیبانی" description="تیکت‌ها و پیشنهادهای مشتریان؛ برای پاسخ، ارجاع یا واگذاری روی هر ردیف بزنید.">
      <Stack gap="3">
        <DataTable
          caption="صف درخواست‌های پشتیبانی"
          columns={COLUMNS}
          rowKey={(t) => t.id}
          {...pagedQueryProps(q)}
          filters={filterDefs}
          onRowClick={(t) => navigate(`/admin/support/tickets/${t.id}`)}
          emptyText="درخواستی با این فیلترها یافت نشد"
        />
      </Stack>
    </SectionCard>
  )
}
