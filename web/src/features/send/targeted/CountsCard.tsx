import { Alert, HStack, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import type { UseQueryResult } from '@tanstack/react-query'
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { Fact } from '../../../components/Fact'
import { ServerMessage } from '../../../components/ServerMessage'
import { ErrorState } from '../../../components/States'
import { formatNumber, formatRial } from '../../../lib/format'
import { operatorLabel } from '../../../lib/statuses'
import type { BankCounts } from '../api'

const GENDERS: Record<string, string> = { male: 'مرد', female: 'زن', unknown: 'نامشخص' }
const AGES: Record<string, string> = { '1': '۱۸–۲۴', '2': '۲۵–۳۴', '3': '۳۵–۴۴', '4': '۴۵–۵۴', '5': '۵۵+', unknown: 'نامشخص' }

/** The audience's live count: how many, the price, and the split by operator, gender and age. */
export function CountsCard({ counts, idle }: { counts: UseQueryResult<BankCounts>; idle: boolean }) {
  if (idle) {
    return (
      <Text color="app.muted" fontSize="sm" data-testid="bank-counts-idle">
        پس از انتخاب مخاطبان، تعداد شماره‌ها و هزینه اینجا نمایش داده می‌شود.
      </Text>
    )
  }
  if (counts.isPending) return <Skeleton h="40" rounded="xl" />
  if (counts.isError) return <ErrorState py="6" description={<ServerMessage error={counts.error} />} onRetry={() => counts.refetch()} />
  const c = counts.data
  const ops = Object.entries(c.by_operator).map(([op, n]) => ({ name: operatorLabel(op), n }))
  return (
    <Stack gap="4" data-testid="bank-counts" data-state={counts.isFetching ? 'loading' : 'ready'} opacity={counts.isFetching ? 0.6 : 1}>
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
        <Fact label="شماره‌های این محدوده" value={formatNumber(c.total)} testId="bank-total" />
        <Fact label="گیرندگان ارسال" value={formatNumber(c.recipients)} testId="bank-recipients" />
        <Fact label="بخش‌های هر پیامک" value={formatNumber(c.parts)} />
        <Fact label="هزینه تقریبی" value={formatRial(c.price)} testId="bank-price" />
      </SimpleGrid>
      {!c.enough && (
        <Alert.Root status="warning" rounded="lg" data-testid="bank-minimum">
          <Alert.Indicator />
          <Alert.Description>{`ارسال منطقه‌ای دست‌کم به ${formatNumber(c.minimum)} گیرنده نیاز دارد؛ محدوده را بزرگ‌تر کنید.`}</Alert.Description>
        </Alert.Root>
      )}
      {c.total > 0 && (
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="4" alignItems="start">
          <Stack gap="1" h="36">
            <Text fontSize="sm" color="app.muted">
              به تفکیک اپراتور
            </Text>
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={ops} layout="vertical" margin={{ left: 8, right: 8 }}>
                <XAxis type="number" hide />
                <YAxis type="category" dataKey="name" orientation="right" width={80} tickLine={false} axisLine={false} fontSize={12} />
                <Tooltip formatter={(v) => formatNumber(Number(v))} />
                <Bar dataKey="n" name="شماره" fill="var(--chakra-colors-brand-solid)" radius={4} />
              </BarChart>
            </ResponsiveContainer>
          </Stack>
          <Split title="به تفکیک جنسیت" labels={GENDERS} values={c.by_gender} />
          <Split title="به تفکیک سن" labels={AGES} values={c.by_age_band} />
        </SimpleGrid>
      )}
      <Text fontSize="xs" color="app.muted">
        شماره‌ها به شما نمایش داده نمی‌شوند. لیست سیاه و لغو۱۱ شما روی شماره‌های بانک اعمال نمی‌شود؛ هزینه دقیق در مرحله آخر محاسبه می‌شود.
      </Text>
    </Stack>
  )
}

function Split({ title, labels, values }: { title: string; labels: Record<string, string>; values: Record<string, number> }) {
  return (
    <Stack gap="1">
      <Text fontSize="sm" color="app.muted">
        {title}
      </Text>
      {Object.keys(labels)
        .filter((k) => values[k])
        .map((k) => (
          <HStack key={k} justify="space-between" fontSize="sm">
            <Text>{labels[k]}</Text>
            <Text fontWeight="semibold">{formatNumber(values[k])}</Text>
          </HStack>
        ))}
    </Stack>
  )
}
