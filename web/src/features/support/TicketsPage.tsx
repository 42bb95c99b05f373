import { Button, HStack, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink, useNavigate } from 'react-router'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../components/DataTable'
import { PlusIcon } from '../../components/icons'
import { SectionCard } from '../../components/SectionCard'
import { allFilterKeys, type TableFilter } from '../../components/TableFilters'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useUrlListState } from '../../lib/urlState'
import { useTickets, type Ticket } from './api'
import { detailsPath, STATES } from './logic'
import { StateBadge } from './parts'

const FILTERS: TableFilter[] = [
  { type: 'search', key: 'search', title: 'جستجو', placeholder: 'عنوان یا شماره درخواست' },
  { type: 'options', key: 'kind', title: 'نوع', options: [{ value: 'ticket', label: 'تیکت' }, { value: 'suggestion', label: 'پیشنهاد' }] },
  { type: 'options', key: 'state', title: 'وضعیت', options: STATES.map((s) => ({ value: String(s.value), label: s.label })) },
]

const COLUMNS: DataTableColumn<Ticket>[] = [
  { key: 'number', title: 'شماره', width: '90px', render: (t) => <bdi>{toPersianDigits(t.number)}</bdi> },
  { key: 'title', title: 'عنوان', render: (t) => <Text as="span" fontWeight="medium" lineClamp={1}>{t.title}</Text> },
  { key: 'category', title: 'دسته‌بندی', hideOnMobile: true, render: (t) => (t.kind === 'suggestion' ? 'پیشنهاد' : [t.category, t.sub_category].filter(Boolean).join(' / ')) },
  { key: 'state', title: 'وضعیت', render: (t) => <StateBadge state={t.state} /> },
  { key: 'updated_at', title: 'آخرین به‌روزرسانی', hideOnMobile: true, render: (t) => formatJalaliDateTime(t.updated_at) },
]

/** /support/tickets: the account's tickets and suggestions, filtered in the URL. */
export default function TicketsPage() {
  const navigate = useNavigate()
  const list = useUrlListState()
  const filters = list.filters(allFilterKeys(FILTERS))
  const q = useTickets({ page: list.page, limit: list.limit, ...filters })
  return (
    <SectionCard
      title="درخواست‌های پشتیبانی"
      description="تیکت‌ها و پیشنهادهای شما با وضعیت هر کدام."
      actions={
        <HStack gap="2" wrap="wrap">
          <Button asChild size="sm" variant="outline"><RouterLink to="/support/create-suggestion-request">ثبت پیشنهاد</RouterLink></Button>
          <Button asChild size="sm" colorPalette="brand"><RouterLink to="/support/create-ticket" data-testid="tickets-new"><PlusIcon /> تیکت جدید</RouterLink></Button>
        </HStack>
      }
    >
      <Stack gap="3">
        <DataTable
          caption="درخواست‌های پشتیبانی"
          columns={COLUMNS}
          rowKey={(t) => t.id}
          {...pagedQueryProps(q)}
          filters={FILTERS}
          onRowClick={(t) => navigate(detailsPath(t))}
          emptyText="هنوز درخواستی ثبت نکرده‌اید"
        />
      </Stack>
    </SectionCard>
  )
}
