import { Box, SimpleGrid, Skeleton, Stack, Table, Text } from '@chakra-ui/react'
import { Chart } from '../../components/Chart'
import { MiniTable } from '../../components/MiniTable'
import { SectionCard } from '../../components/SectionCard'
import { EmptyState, ErrorState, StaleNote } from '../../components/States'
import { formatNumber } from '../../lib/format'
import { useSendAnalytics } from './api'

/** The analysis of one send on its report page: delivery curve, operators, undelivered reasons. */
export function SendAnalyticsCard({ id, pollMs }: { id: string; pollMs: number | false }) {
  const { data, isPending, isError, refetch } = useSendAnalytics(id, pollMs)
  return (
    <SectionCard title="تحلیل ارسال" data-testid="send-analytics" actions={isError && data ? <StaleNote /> : undefined}>
      {isPending ? (
        <Skeleton h="56" rounded="lg" />
      ) : !data ? (
        <ErrorState onRetry={() => refetch()} />
      ) : data.operators.length === 0 ? (
        <EmptyState title="هنوز گیرنده‌ای ثبت نشده است" description="تحلیل پس از آغاز ارسال نمایش داده می‌شود." />
      ) : (
        <Stack gap="5">
          <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5">
            {data.curve.length > 1 ? (
              <Chart
                testId="chart-curve"
                title="روند تحویل در طول زمان"
                data={data.curve}
                x="at"
                xKind="time"
                series={[
                  { key: 'delivered', name: 'رسیده به گوشی', kind: 'area', color: 1 },
                  { key: 'undelivered', name: 'نرسیده به گوشی', kind: 'area', color: 3 },
                ]}
              />
            ) : (
              <EmptyState title="هنوز گزارش تحویلی نرسیده است" />
            )}
            <Chart
              testId="chart-send-operators"
              title="نرخ تحویل به تفکیک اپراتور"
              data={data.operators.map((o) => ({ ...o, name: o.name || o.operator }))}
              x="name"
              horizontal
              yDomain={[0, 100]}
              height={Math.max(140, data.operators.length * 48 + 40)}
              series={[{ key: 'rate', name: 'نرخ تحویل', kind: 'bar', format: 'percent', color: 1 }]}
            />
          </SimpleGrid>
          <Box>
            <Text fontSize="sm" fontWeight="semibold" mb="2">
              علت‌های نرسیدن
            </Text>
            {data.reasons.length === 0 ? (
              <Text fontSize="sm" color="app.muted" data-testid="no-reasons">
                همه گیرندگانِ دارای گزارش، پیامک را دریافت کرده‌اند.
              </Text>
            ) : (
              <MiniTable caption="علت‌های نرسیدن" testId="reasons" columns={[{ title: 'علت' }, { title: 'تعداد', align: 'end', width: '120px' }]}>
                {data.reasons.map((r) => (
                  <Table.Row key={`${r.status}-${r.reason}`}>
                    <Table.Cell>{r.reason}</Table.Cell>
                    <Table.Cell textAlign="end">{formatNumber(r.count)}</Table.Cell>
                  </Table.Row>
                ))}
              </MiniTable>
            )}
          </Box>
        </Stack>
      )}
    </SectionCard>
  )
}
