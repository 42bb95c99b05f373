import { Badge, Box, Button, Grid, HStack, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useParams } from 'react-router'
import { ErrorState } from '../../components/States'
import { RefreshIcon } from '../../app/icons'
import { formatNumber, formatRial } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { useLiveStatus } from '../../lib/useLive'
import { SectionCard } from '../common/SectionCard'
import { pollInterval, useReport } from './api'
import { DownloadButton } from './DownloadButton'
import { RecipientsTable } from './RecipientsTable'
import { SendProgress } from './SendProgress'
import { SendStatusBadge } from './StatusBadge'
import { isStoppable } from './statuses'
import { StopSendButton } from './StopSendButton'

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Stack gap="0.5">
      <Text fontSize="xs" color="app.muted">
        {label}
      </Text>
      <Box fontWeight="semibold" fontSize="sm">
        {value}
      </Box>
    </Stack>
  )
}

/** /reports/{id}: live progress of one send, its recipients, Excel download and stop. */
export default function ReportDetailsPage() {
  const { id = '' } = useParams()
  const live = useLiveStatus()
  const { data: stats, isPending, isError, refetch, isFetching } = useReport(id, live === 'OPEN')
  const pollMs = pollInterval(live === 'OPEN', stats?.status)

  if (isPending) return <Skeleton h="64" rounded="card" />
  if (isError || !stats) return <SectionCard><ErrorState onRetry={() => refetch()} /></SectionCard>

  return (
    <Stack gap={{ base: '4', md: '6' }}>
      <SectionCard
        data-testid="report-header"
        title={
          <HStack gap="3" wrap="wrap">
            <Text>
              ارسال شماره <bdi>{toPersianDigits(String(stats.id))}</bdi>
            </Text>
            <SendStatusBadge status={stats.status} />
            <Badge variant="outline" colorPalette={live === 'OPEN' ? 'green' : 'gray'} size="sm" title="اتصال زنده">
              {live === 'OPEN' ? 'به‌روزرسانی زنده' : 'به‌روزرسانی دوره‌ای'}
            </Badge>
          </HStack>
        }
        actions={
          <HStack gap="2">
            <Button size="sm" variant="ghost" onClick={() => refetch()} loading={isFetching} aria-label="به‌روزرسانی">
              <RefreshIcon />
            </Button>
            {isStoppable(stats.status) && <StopSendButton id={id} scheduled={stats.status === 'scheduled'} />}
          </HStack>
        }
      >
        <Stack gap="6">
          <Grid templateColumns={{ base: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)', xl: 'repeat(6, 1fr)' }} gap="4">
            <Fact label="خط ارسال" value={<bdi>{toPersianDigits(stats.sender ?? '—')}</bdi>} />
            <Fact label="تاریخ ثبت" value={stats.created_at ? formatJalaliDateTime(stats.created_at) : '—'} />
            <Fact label="تعداد گیرندگان" value={formatNumber(stats.recipients ?? stats.requested ?? 0)} />
            <Fact
              label={stats.message_parts ? 'بخش‌های هر پیامک' : 'مجموع بخش‌ها'}
              value={formatNumber(stats.message_parts ?? stats.parts ?? 0)}
            />
            <Fact label="هزینه" value={formatRial(stats.price ?? 0)} />
            <Fact label="بازگشت به کیف پول" value={formatRial(stats.refunded ?? 0)} />
          </Grid>
          <SendProgress stats={stats} />
          {stats.text && (
            <Box bg="app.raised" borderWidth="1px" borderColor="app.border" rounded="lg" p="4" whiteSpace="pre-wrap" wordBreak="break-word" fontSize="sm">
              {stats.text}
            </Box>
          )}
        </Stack>
      </SectionCard>
      <SectionCard title="گیرندگان">
        <RecipientsTable id={id} pollMs={pollMs} toolbar={<DownloadButton id={id} />} />
      </SectionCard>
    </Stack>
  )
}
