import { Box, Button, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { Link as RouterLink } from 'react-router'
import { Chart, type ChartSeries } from '../../components/Chart'
import { SectionCard } from '../../components/SectionCard'
import { EmptyState, ErrorState, StaleNote } from '../../components/States'
import { formatNumber, formatRial } from '../../lib/format'
import { useDashboardCharts, type DashboardCharts as Data } from './api'

function Total({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap="0.5" bg="app.raised" rounded="lg" px="3" py="2" minW="0">
      <Text fontSize="xs" color="app.muted">
        {label}
      </Text>
      <Text fontWeight="bold" fontSize="sm" truncate>
        {value}
      </Text>
    </Stack>
  )
}

function Totals({ t }: { t: Data['totals'] }) {
  const rate = t.delivered + t.undelivered > 0 ? Math.round((t.delivered * 1000) / (t.delivered + t.undelivered)) / 10 : 0
  return (
    <SimpleGrid columns={{ base: 2, md: 5 }} gap="2" data-testid="chart-totals">
      <Total label="ارسال‌ها" value={formatNumber(t.sends)} />
      <Total label="پیامک (بخش)" value={formatNumber(t.parts)} />
      <Total label="رسیده به گوشی" value={`${formatNumber(rate)}٪`} />
      <Total label="هزینه" value={formatRial(t.spend)} />
      <Total label="دریافتی" value={formatNumber(t.inbound)} />
    </SimpleGrid>
  )
}

/**
 * Sends and their parts per day: a send of a thousand recipients is one send and
 * thousands of parts, so each has its own axis (sends on the right, parts on the left).
 */
export const SENDS_SERIES: ChartSeries[] = [
  { key: 'sends', name: 'ارسال', kind: 'bar' },
  { key: 'parts', name: 'پیامک (بخش)', kind: 'line', color: 2, axis: 'second' },
]

/** The dashboard's charts of the last 30 days, from the daily rollups. */
export function DashboardCharts() {
  const { data, isPending, isError, refetch } = useDashboardCharts()
  const title = 'فعالیت ۳۰ روز اخیر'
  if (isPending) return <Skeleton h="72" rounded="card" data-testid="charts-loading" />
  if (!data) {
    return (
      <SectionCard title={title}>
        <ErrorState onRetry={() => refetch()} />
      </SectionCard>
    )
  }
  const t = data.totals
  if (t.sends === 0 && t.inbound === 0) {
    return (
      <SectionCard title={title} data-testid="charts-empty">
        <EmptyState
          title="هنوز فعالیتی در ۳۰ روز اخیر ندارید"
          description="پس از اولین ارسال، نمودار ارسال‌ها، نرخ تحویل و هزینه‌ها اینجا نمایش داده می‌شود."
          action={
            <Button asChild size="sm" colorPalette="brand">
              <RouterLink to="/send-sms">ارسال پیامک</RouterLink>
            </Button>
          }
        />
      </SectionCard>
    )
  }
  return (
    <SectionCard
      title={title}
      description="هر ۳۰ ثانیه از آمار روزانه به‌روز می‌شود."
      actions={isError ? <StaleNote /> : undefined}
      data-testid="dashboard-charts"
    >
      <Stack gap="5">
        <Totals t={t} />
        <SimpleGrid columns={{ base: 1, lg: 2 }} gap="5">
          <Chart
            testId="chart-sends"
            title="ارسال‌ها و پیامک‌ها در روز"
            description="ارسال‌ها روی محور راست و پیامک‌ها (بخش‌ها) روی محور چپ، هر یک با مقیاس خود."
            data={data.days}
            x="date"
            xKind="day"
            series={SENDS_SERIES}
          />
          <Box minW="0">
            {data.operators.length === 0 ? (
              <EmptyState title="هنوز گزارش تحویلی نرسیده است" />
            ) : (
              <Chart
                testId="chart-operators"
                title="نرخ تحویل به تفکیک اپراتور"
                data={data.operators}
                x="name"
                horizontal
                yDomain={[0, 100]}
                height={Math.max(140, data.operators.length * 48 + 40)}
                series={[{ key: 'rate', name: 'نرخ تحویل', kind: 'bar', format: 'percent', color: 1 }]}
              />
            )}
          </Box>
          <Chart
            testId="chart-spend"
            title="هزینه در روز"
            data={data.days}
            x="date"
            xKind="day"
            series={[{ key: 'spend', name: 'هزینه', kind: 'area', format: 'rial', color: 3 }]}
          />
          <Chart
            testId="chart-inbound"
            title="پیامک‌های دریافتی در روز"
            data={data.days}
            x="date"
            xKind="day"
            series={[{ key: 'inbound', name: 'دریافتی', kind: 'bar', color: 4 }]}
          />
        </SimpleGrid>
      </Stack>
    </SectionCard>
  )
}
