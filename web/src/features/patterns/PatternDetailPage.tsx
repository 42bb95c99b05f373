import { Badge, Box, Button, Grid, HStack, Stack, Text, Wrap } from '@chakra-ui/react'
import { Link as RouterLink, useParams } from 'react-router'
import { SectionCard } from '../../components/SectionCard'
import { EmptyState, ErrorState, LoadingState, StaleNote } from '../../components/States'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { sendTypeLabel } from '../../lib/statuses'
import { usePattern, type Pattern, type Version } from './api'
import { KIND_LABELS, STATUS_LABELS } from './model'
import { StatusChip } from './PatternsPage'
import { SendPatternForm } from './SendPatternForm'

/** /pattern/:id and /pattern/systemic/:id: a pattern, its versions with their review history, and the send form. */
export default function PatternDetailPage({ systemic = false }: { systemic?: boolean }) {
  const id = Number(useParams().id)
  const q = usePattern(id, systemic)
  if (q.isPending) return <LoadingState />
  if (!q.data) return <ErrorState onRetry={() => void q.refetch()} />
  const p = q.data
  const sending = p.approved
  return (
    <Stack gap="4">
      {q.isError && <StaleNote alignSelf="flex-start" />}
      <SectionCard title={toPersianDigits(p.title)} description={p.description || undefined}
        actions={!p.systemic && (
          <Button asChild size="sm" variant="outline" data-testid="pattern-edit">
            <RouterLink to={`/pattern/update/${p.id}`}>ویرایش (نسخه تازه)</RouterLink>
          </Button>
        )}>
        <Summary p={p} />
      </SectionCard>
      <Grid templateColumns={{ base: '1fr', lg: p.systemic ? '1fr' : '1fr 1fr' }} gap="4" alignItems="start">
        <SectionCard title="ارسال با این الگو"
          description={sending ? `متن نسخه ${toPersianDigits(sending.version)} (تاییدشده) ارسال می‌شود.` : undefined}>
          {sending
            ? <SendPatternForm code={p.code} kind={p.kind} text={sending.text} variables={sending.variables} />
            : <EmptyState title="این الگو هنوز تایید نشده است" description="پس از تایید کارشناس می‌توانید با آن ارسال کنید." />}
        </SectionCard>
        {!p.systemic && (
          <SectionCard title="نسخه‌ها و سابقه بررسی">
            <Stack gap="3" data-testid="pattern-versions">
              {(p.versions ?? []).map((v) => <VersionRow key={v.id} v={v} />)}
            </Stack>
          </SectionCard>
        )}
      </Grid>
    </Stack>
  )
}

function Summary({ p }: { p: Pattern }) {
  return (
    <Stack gap="3">
      <Wrap gap="4" fontSize="sm">
        <Text>کد الگو: <bdi dir="ltr"><Text as="span" fontFamily="mono" data-testid="pattern-code">{p.code}</Text></bdi></Text>
        <Text data-testid="pattern-kind">نوع: {KIND_LABELS[p.approved?.kind ?? p.kind]} ({sendTypeLabel(p.sms_type)})</Text>
        {p.approved && p.approved.kind !== p.kind && (
          <Text color="fg.warning" data-testid="pattern-kind-pending">
            نوع «{KIND_LABELS[p.kind]}» در نسخه تازه در انتظار بررسی است؛ تا تأیید آن، الگو با نوع «{KIND_LABELS[p.approved.kind]}» ارسال می‌شود
          </Text>
        )}
        {!p.systemic && <Text>اشتراکی: {p.shared ? 'بله' : 'خیر'}</Text>}
        {!p.systemic && <StatusChip p={p} />}
      </Wrap>
      {p.status === 'rejected' && p.reason && (
        <Text color="fg.error" fontSize="sm" data-testid="pattern-reason">دلیل رد: {p.reason}</Text>
      )}
      <Box bg="bg.muted" rounded="lg" p="3" whiteSpace="pre-wrap" fontSize="sm" wordBreak="break-word">{p.text}</Box>
      <Wrap gap="1.5">
        {p.variables.map((v) => (
          <Badge key={v.name} variant="subtle" colorPalette="brand">
            <bdi dir="ltr">{`%${v.name}%`}</bdi> · {v.type === 'integer' ? 'عدد' : 'رشته'} · {toPersianDigits(v.length)}
          </Badge>
        ))}
      </Wrap>
    </Stack>
  )
}

function VersionRow({ v }: { v: Version }) {
  const s = STATUS_LABELS[v.status]
  return (
    <Box borderWidth="1px" borderColor="app.border" rounded="lg" p="3">
      <HStack justify="space-between" wrap="wrap" gap="2">
        <Text fontWeight="medium">نسخه {toPersianDigits(v.version)}</Text>
        <HStack gap="1">
          <Badge colorPalette={s.color}>{s.label}</Badge>
          {v.active && <Badge colorPalette="green" variant="outline">در حال ارسال</Badge>}
        </HStack>
      </HStack>
      <Text fontSize="sm" whiteSpace="pre-wrap" mt="2" wordBreak="break-word">{v.text}</Text>
      <Text fontSize="xs" color="fg.muted" mt="2">
        ثبت: {formatJalaliDateTime(v.created_at)}
        {v.decided_at && ` — بررسی: ${formatJalaliDateTime(v.decided_at)}`}
        {v.decided_by && ` (${v.decided_by})`}
      </Text>
      {v.status === 'rejected' && v.reason && <Text fontSize="xs" color="fg.error">دلیل: {v.reason}</Text>}
    </Box>
  )
}
