import { Badge, Box, Button, SimpleGrid, Stack, Text } from '@chakra-ui/react'
import { Link, useParams } from 'react-router'
import { Fact } from '../../components/Fact'
import { SectionCard } from '../../components/SectionCard'
import { ErrorState, LoadingState } from '../../components/States'
import { errorText } from '../../lib/api'
import { toPersianDigits } from '../../lib/digits'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useApiCall } from './api'
import { prettyBody, statusColor } from './model'

/** A body as a left-to-right code block. */
function CodeBlock({ title, body, testId }: { title: string; body: string; testId: string }) {
  return (
    <Stack gap="1">
      <Text fontWeight="medium" fontSize="sm">{title}</Text>
      <Box as="pre" dir="ltr" textAlign="left" fontFamily="mono" fontSize="xs" p="3" rounded="lg" bg="app.raised" borderWidth="1px"
        borderColor="app.border" overflowX="auto" whiteSpace="pre-wrap" wordBreak="break-all" maxH="420px" overflowY="auto" data-testid={testId}>
        {prettyBody(body) || '—'}
      </Box>
    </Stack>
  )
}

/** /developers/api-calls/:id: one call with its (redacted, truncated) request and response bodies. */
export default function ApiCallDetailPage() {
  const { id } = useParams()
  const q = useApiCall(id)
  const back = (
    <Button asChild size="sm" variant="outline">
      <Link to="/developers/api-calls">بازگشت به فهرست</Link>
    </Button>
  )
  if (q.isPending) return <LoadingState />
  if (q.isError) return <ErrorState description={errorText(q.error)} onRetry={() => void q.refetch()} action={back} />
  const c = q.data
  return (
    <SectionCard
      title={<>فراخوانی <bdi dir="ltr">{c.method} {c.path}</bdi></>}
      actions={<Badge colorPalette={statusColor(c.status)} size="lg">{toPersianDigits(c.status)}</Badge>}
    >
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, sm: 2, md: 4 }} gap="3">
          <Fact label="زمان" value={formatJalaliDateTime(c.created_at)} />
          <Fact label="کلید API" value={toPersianDigits(c.api_key_title || String(c.api_key_id))} />
          <Fact label="IP" value={toPersianDigits(c.ip)} />
          <Fact label="مدت" value={`${toPersianDigits(c.latency_ms.toFixed(1))} میلی‌ثانیه`} />
        </SimpleGrid>
        {c.query && <CodeBlock title="پارامترهای نشانی" body={c.query} testId="apicall-query" />}
        <CodeBlock title="بدنهٔ درخواست" body={c.request_body} testId="apicall-request" />
        <CodeBlock title="بدنهٔ پاسخ" body={c.response_body} testId="apicall-response" />
        <Text fontSize="xs" color="fg.muted">
          شناسهٔ درخواست: <bdi dir="ltr">{c.request_id}</bdi>
        </Text>
        <Box>{back}</Box>
      </Stack>
    </SectionCard>
  )
}
