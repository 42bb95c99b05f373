import { Badge, Box, Button, Grid, HStack, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useEffect, useRef } from 'react'
import { useParams } from 'react-router'
import { ErrorState, StaleNote } from '../../components/States'
import { RefreshIcon } from '../../components/outlineIcons'
import { formatNumber, formatRial, relativeTime } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { useLiveStatus } from '../../lib/useLive'
import { isFinalStatus } from '../../lib/statuses'
import { SectionCard } from '../../components/SectionCard'
import { pollInterval, useReport } from '../../lib/reports'
import { DownloadButton } from './DownloadButton'
import { RecipientsTable } from './RecipientsTable'
import { SendAnalyticsCard } from './SendAnalytics'
import { SendProgress } from './SendProgress'
import { SendStatusBadge } from '../../components/StatusBadge'
import { CONTROL_LABEL, isPaused, SendControls, type ControlledStats, type SendControl } from './StopSendButton'

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

const CONTROL_COLOR: Record<SendControl['action'], string> = { pause: 'yellow', resume: 'green', stop: 'red', reschedule: 'purple' }

/** Who paused, resumed or stopped the send, and when. */
function ControlsHistory({ controls }: { controls: SendControl[] }) {
  return (
    <Stack gap="2" data-testid="controls-history">
      <Text fontSize="sm" fontWeight="semibold">
        تاریخچه کنترل ارسال
      </Text>
      <Stack as="ol" gap="1.5" listStyleType="none" m="0" p="0">
        {controls.map((c, i) => (
          <HStack as="li" key={`${c.at}-${i}`} gap="3" fontSize="sm" wrap="wrap" data-testid="control-entry" data-action={c.action}>
            <Badge colorPalette={CONTROL_COLOR[c.action] ?? 'gray'} variant="subtle" minW="20" justifyContent="center">
              {CONTROL_LABEL[c.action] ?? c.action}
            </Badge>
            <Text>{c.by || '—'}</Text>
            <Text color="app.muted" title={relativeTime(c.at)}>
              {formatJalaliDateTime(c.at)}
            </Text>
          </HStack>
        ))}
      </Stack>
    </Stack>
  )
}

/** /reports/{id}: live progress of one send, its recipients, Excel download, pause, resume and stop. */
export default function ReportDetailsPage() {
  const { id = '' } = useParams()
  const live = useLiveStatus()
  const report = useReport(id, live === 'OPEN')
  const { isPending, isError, refetch, isFetching } = report
  const stats = report.data as ControlledStats | undefined
  const pollMs = pollInterval(live === 'OPEN', stats)
  // A live status change between paused and running (perhaps by a colleague) brings a new control entry.
  const paused = stats ? isPaused(stats) : undefined
  const wasPaused = useRef(paused)
  useEffect(() => {
    if (wasPaused.current !== undefined && paused !== undefined && wasPaused.current !== paused) void refetch()
    wasPaused.current = paused
  }, [paused, refetch])

  if (isPending) return <Skeleton h="64" rounded="card" />
  // A refresh that fails (a dropped connection during a long send) keeps the report on
  // screen with a note; only a report never loaded shows the error in its place.
  if (!stats) return <SectionCard><ErrorState onRetry={() => refetch()} /></SectionCard>

  return (
    <Stack gap={{ base: '4', md: '6' }}>
      <SectionCard
        data-testid="report-header"
        title={
          <HStack gap="3" wrap="wrap">
            <Text>
              ارسال شماره <bdi>{toPersianDigits(String(stats.id))}</bdi>
            </Text>
            <SendStatusBadge status={paused ? 'paused' : stats.status} />
            <Badge variant="outline" colorPalette={live === 'OPEN' ? 'green' : 'gray'} size="sm" title="اتصال زنده">
              {live === 'OPEN' ? 'به‌روزرسانی زنده' : 'به‌روزرسانی دوره‌ای'}
            </Badge>
            {isError && <StaleNote testId="report-stale" />}
          </HStack>
        }
        actions={
          <HStack gap="2">
            <Button size="sm" variant="ghost" onClick={() => refetch()} loading={isFetching} aria-label="به‌روزرسانی">
              <RefreshIcon />
            </Button>
            <SendControls id={id} stats={stats} />
          </HStack>
        }
      >
        <Stack gap="6">
          {stats.status === 'held' && (
            <Text fontSize="sm" color="fg.muted" data-testid="report-held">
              این ارسال پیش از ارسال توسط کارشناسان بررسی می‌شود؛ هزینه آن تا پایان بررسی رزرو شده است.
            </Text>
          )}
          {stats.status === 'paused' && stats.window_note && (
            <Text fontSize="sm" color="fg.warning" data-testid="report-window">
              {stats.window_note}
            </Text>
          )}
          {stats.pace_note && (
            <Text fontSize="sm" color="fg.muted" data-testid="report-gradual">
              {stats.pace_note}
            </Text>
          )}
          {stats.status === 'blocked' && (
            <Text fontSize="sm" color="fg.error" data-testid="report-blocked">
              این ارسال توسط کارشناسان مسدود شد و هزینه آن به کیف پول بازگشت. دلیل: {stats.review_note || '—'}
            </Text>
          )}
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
            {!!stats.partial && <Fact label="گیرندگان با ارسال ناقص" value={formatNumber(stats.partial)} />}
          </Grid>
          <SendProgress stats={stats} />
          {!!stats.controls?.length && <ControlsHistory controls={stats.controls} />}
          {stats.text && (
            <Box bg="app.raised" borderWidth="1px" borderColor="app.border" rounded="lg" p="4" whiteSpace="pre-wrap" wordBreak="break-word" fontSize="sm">
              {stats.text}
            </Box>
          )}
        </Stack>
      </SectionCard>
      {stats.expanded !== false && <SendAnalyticsCard id={id} pollMs={isFinalStatus(stats.status) ? false : 10_000} />}
      <SectionCard title="گیرندگان">
        <RecipientsTable id={id} pollMs={pollMs} toolbar={<DownloadButton id={id} />} />
      </SectionCard>
    </Stack>
  )
}
