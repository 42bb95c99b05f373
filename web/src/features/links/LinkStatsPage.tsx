import { Box, Button, Code, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink, useParams } from 'react-router'
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { Fact } from '../../components/Fact'
import { SectionCard } from '../../components/SectionCard'
import { EmptyState, ErrorState, LoadingState, StaleNote } from '../../components/States'
import { SendStatusBadge } from '../../components/StatusBadge'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDate, formatJalaliDateTime } from '../../lib/jalali'
import { OPERATORS } from '../../lib/statuses'
import { useLinkStats, type LinkStats } from './api'

type SendRow = LinkStats['per_send'][number]

/** A Tehran day «YYYY-MM-DD» as a Jalali date in Persian digits. */
export const jalaliDay = (day: string) => formatJalaliDate(new Date(`${day}T12:00:00+03:30`))
const num = (v: unknown) => formatNumber(Number(v) || 0)
const CLICKS = 'var(--chakra-colors-brand-solid)'
const UNIQUE = 'var(--chakra-colors-orange-400)'

/** /links/{id}: a tracked link's clicks — totals, per day, per operator and per send. */
export default function LinkStatsPage() {
  const { id } = useParams()
  const q = useLinkStats(id)
  if (q.isLoading) return <LoadingState />
  if (!q.data) return <ErrorState onRetry={() => void q.refetch()} action={<Button asChild size="sm" variant="outline"><RouterLink to="/links">بازگشت به لینک‌ها</RouterLink></Button>} />
  const s = q.data
  const rate = s.link.unique && s.per_send.length ? s.link.unique / Math.max(1, s.per_send.reduce((n, x) => n + x.recipients, 0)) : 0
  return (
    <Stack gap="5">
      {q.isError && <StaleNote alignSelf="flex-start" />}
      <SectionCard
        title={toPersianDigits(s.link.title)}
        description={<Text as="span" dir="ltr">{s.link.url}</Text>}
        actions={<Button asChild size="sm" variant="outline"><RouterLink to="/links">همه لینک‌ها</RouterLink></Button>}
      >
        <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
          <Fact label="کل کلیک‌ها" value={formatNumber(s.link.clicks)} testId="link-stats-clicks" />
          <Fact label="کلیک یکتا" value={formatNumber(s.link.unique)} testId="link-stats-unique" />
          <Fact label="ارسال‌ها" value={formatNumber(s.per_send.length)} />
          <Fact label="نرخ کلیک یکتا" value={`${toPersianDigits((rate * 100).toFixed(1))}٪`} />
        </SimpleGrid>
        <HStack mt="3" gap="2" fontSize="sm" color="fg.muted" wrap="wrap">
          <Text>درج در متن:</Text>
          <Code dir="ltr">{s.link.placeholder}</Code>
        </HStack>
      </SectionCard>
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5">
        <SectionCard title="کلیک‌ها در ۳۰ روز گذشته">
          <DayChart data={s.per_day} />
        </SectionCard>
        <SectionCard title="کلیک به تفکیک اپراتور">
          <OperatorChart data={s.per_operator} />
        </SectionCard>
      </SimpleGrid>
      <SectionCard title="کلیک به تفکیک ارسال">
        <DataTable caption="ارسال‌های این لینک" columns={SEND_COLUMNS} rows={s.per_send} total={s.per_send.length} rowKey={(r) => r.send_id}
          emptyText="هنوز ارسالی با این لینک انجام نشده است" />
      </SectionCard>
    </Stack>
  )
}

function DayChart({ data }: { data: LinkStats['per_day'] }) {
  if (!data.some((d) => d.clicks > 0)) return <EmptyState title="هنوز کلیکی ثبت نشده است" />
  return (
    <Box h="64" dir="ltr" data-testid="link-day-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--chakra-colors-border)" />
          <XAxis dataKey="day" reversed tickFormatter={jalaliDay} tick={{ fontSize: 11, fill: 'var(--chakra-colors-fg-muted)' }} minTickGap={24} />
          <YAxis orientation="right" allowDecimals={false} tickFormatter={num} tick={{ fontSize: 11, fill: 'var(--chakra-colors-fg-muted)' }} width={40} />
          <Tooltip labelFormatter={(d) => jalaliDay(String(d))} formatter={(v, name) => [num(v), name]} cursor={{ fill: 'var(--chakra-colors-bg-muted)' }}
            contentStyle={{ background: 'var(--chakra-colors-bg-panel)', borderColor: 'var(--chakra-colors-border)', direction: 'rtl' }} />
          <Legend />
          <Bar dataKey="clicks" name="کلیک" fill={CLICKS} radius={[3, 3, 0, 0]} />
          <Bar dataKey="unique" name="کلیک یکتا" fill={UNIQUE} radius={[3, 3, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </Box>
  )
}

function OperatorChart({ data }: { data: LinkStats['per_operator'] }) {
  if (data.length === 0) return <EmptyState title="هنوز کلیکی ثبت نشده است" />
  const rows = data.map((d) => ({ ...d, name: OPERATORS[d.operator] ?? 'سایر' }))
  return (
    <Box h="64" dir="ltr" data-testid="link-operator-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--chakra-colors-border)" />
          <XAxis dataKey="name" reversed tick={{ fontSize: 12, fill: 'var(--chakra-colors-fg-muted)' }} />
          <YAxis orientation="right" allowDecimals={false} tickFormatter={num} tick={{ fontSize: 11, fill: 'var(--chakra-colors-fg-muted)' }} width={40} />
          <Tooltip formatter={(v, name) => [num(v), name]} cursor={{ fill: 'var(--chakra-colors-bg-muted)' }}
            contentStyle={{ background: 'var(--chakra-colors-bg-panel)', borderColor: 'var(--chakra-colors-border)', direction: 'rtl' }} />
          <Legend />
          <Bar dataKey="clicks" name="کلیک" fill={CLICKS} radius={[4, 4, 0, 0]} />
          <Bar dataKey="unique" name="کلیک یکتا" fill={UNIQUE} radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </Box>
  )
}

const SEND_COLUMNS: DataTableColumn<SendRow>[] = [
  { key: 'send_id', title: 'شماره ارسال', render: (r) => <RouterLink to={`/reports/${r.send_id}`}>{toPersianDigits(r.send_id)}</RouterLink> },
  { key: 'created_at', title: 'تاریخ', hideOnMobile: true, render: (r) => formatJalaliDateTime(r.created_at) },
  { key: 'status', title: 'وضعیت', render: (r) => <SendStatusBadge status={r.status} /> },
  { key: 'recipients', title: 'گیرندگان', render: (r) => formatNumber(r.recipients) },
  { key: 'clicks', title: 'کلیک', render: (r) => formatNumber(r.clicks) },
  { key: 'unique', title: 'کلیک یکتا', render: (r) => formatNumber(r.unique) },
]
