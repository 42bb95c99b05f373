import { Badge, Box, Button, Card, Heading, HStack, Input, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import { DataTable, pagedQueryProps, type DataTableColumn } from '../../components/DataTable'
import { ExportButton } from '../../components/ExportButton'
import { Fact } from '../../components/Fact'
import { ServerMessage } from '../../components/ServerMessage'
import { ErrorState, LoadingState } from '../../components/States'
import { allows, useAcl } from '../../lib/acl'
import { toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDate, formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { useLiveEvent } from '../../lib/useLive'
import { exportCodes, exportEntries, READERS_KEY, useAddCodes, useDraw, useDraws, useEntries, useReader, useReaderStats, useToggleReader, type Reader, type ReaderEntry } from './api'
import { KIND_TITLES, OUTCOME_TITLES, STATUS_TITLES } from './model'
import { displayMobile } from '../../lib/mobile'

const mobile = displayMobile

const ENTRY_COLUMNS: DataTableColumn<ReaderEntry>[] = [
  { key: 'sender', title: 'فرستنده', render: (e) => <bdi>{mobile(e.sender)}</bdi> },
  { key: 'text', title: 'پیام', render: (e) => toPersianDigits(e.text) },
  { key: 'outcome', title: 'نتیجه', render: (e) => <Badge>{OUTCOME_TITLES[e.outcome] ?? e.outcome}</Badge> },
  { key: 'reply', title: 'پاسخ', render: (e) => e.reply || '—', hideOnMobile: true },
  { key: 'created_at', title: 'زمان', render: (e) => <Text as="span" whiteSpace="nowrap">{formatJalaliDateTime(e.created_at)}</Text> },
]

/** The live bar chart of a poll's votes. */
function PollChart({ reader }: { reader: Reader }) {
  const stats = useReaderStats(reader.id)
  const data = (stats.data?.votes ?? []).map((v) => ({ name: `${toPersianDigits(v.option)}. ${v.title}`, votes: v.votes }))
  const total = data.reduce((s, d) => s + d.votes, 0)
  return (
    <Card.Root variant="outline" data-testid="poll-chart">
      <Card.Body>
        <Stack gap="2">
          <HStack justify="space-between">
            <Heading as="h3" size="sm">نتیجه نظرسنجی</Heading>
            <Text fontSize="sm" color="fg.muted" data-testid="poll-total">{`${formatNumber(total)} رأی`}</Text>
          </HStack>
          <Box h="64" dir="ltr">
            <ResponsiveContainer width="100%" height="100%">
              <BarChart data={data} layout="vertical" margin={{ left: 8, right: 24 }}>
                <CartesianGrid strokeDasharray="3 3" horizontal={false} />
                <XAxis type="number" allowDecimals={false} tickFormatter={(v: number) => toPersianDigits(v)} />
                <YAxis type="category" dataKey="name" width={120} orientation="right" />
                <Tooltip formatter={(v) => [formatNumber(Number(v)), 'رأی']} />
                <Bar dataKey="votes" fill="var(--chakra-colors-brand-solid, #3b82f6)" radius={4} isAnimationActive={false} />
              </BarChart>
            </ResponsiveContainer>
          </Box>
          <Stack gap="0" data-testid="poll-votes">
            {data.map((d) => <Text key={d.name} fontSize="sm">{`${d.name}: ${formatNumber(d.votes)}`}</Text>)}
          </Stack>
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}

function GiftCodes({ reader }: { reader: Reader }) {
  const [codes, setCodes] = useState('')
  const add = useAddCodes()
  const readFile = async (f: File | undefined) => f && setCodes(await f.text())
  return (
    <Card.Root variant="outline">
      <Card.Body>
        <Stack gap="3">
          <Heading as="h3" size="sm">کدهای هدیه</Heading>
          <Text fontSize="sm">{`${formatNumber(reader.codes_free)} کد آزاد، ${formatNumber(reader.codes_given)} کد داده شده`}</Text>
          <Input type="file" accept=".txt,.csv,text/plain,text/csv" onChange={(e) => void readFile(e.target.files?.[0])} aria-label="فایل کدها" p="1" />
          <Textarea value={codes} onChange={(e) => setCodes(e.target.value)} rows={4} placeholder="هر کد در یک سطر" data-testid="gift-codes" />
          {add.error && <ServerMessage error={add.error} />}
          <HStack wrap="wrap">
            <Button size="sm" colorPalette="brand" loading={add.isPending} disabled={!codes.trim()}
              onClick={() => add.mutate({ id: reader.id, codes }, { onSuccess: (r) => { setCodes(''); toaster.create({ type: 'success', title: `${formatNumber(r.added)} کد افزوده شد` }) } })}
              data-testid="gift-codes-add">
              افزودن کدها
            </Button>
            <ExportButton testId="gift-codes-export" download={(p) => exportCodes(reader.id, p)} />
          </HStack>
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}

function ContestDraw({ reader }: { reader: Reader }) {
  const [winners, setWinners] = useState('1')
  const draw = useDraw()
  const draws = useDraws(reader.id)
  return (
    <Card.Root variant="outline">
      <Card.Body>
        <Stack gap="3">
          <Heading as="h3" size="sm">قرعه‌کشی میان پاسخ‌های درست</Heading>
          <HStack>
            <Input w="24" value={toPersianDigits(winners)} onChange={(e) => setWinners(e.target.value.replace(/[۰-۹]/g, (d) => String('۰۱۲۳۴۵۶۷۸۹'.indexOf(d))))} aria-label="تعداد برندگان" />
            <Button size="sm" colorPalette="brand" loading={draw.isPending} onClick={() => draw.mutate({ id: reader.id, winners: Number(winners) || 0 })} data-testid="contest-draw">قرعه‌کشی</Button>
          </HStack>
          {draw.error && <ServerMessage error={draw.error} />}
          {(draws.data ?? []).map((d) => (
            <Box key={d.id} fontSize="sm" borderWidth="1px" rounded="md" p="2">
              <Text>{`${formatJalaliDateTime(d.created_at)} — ${formatNumber(d.winners.length)} برنده از ${formatNumber(d.entrants)} نفر (بذر ${toPersianDigits(d.seed)})`}</Text>
              <Text>{d.winners.map(mobile).join('، ')}</Text>
            </Box>
          ))}
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}

function Summary({ reader }: { reader: Reader }) {
  const toggle = useToggleReader()
  const canManage = allows(useAcl().data, 'secretary.manage')
  const navigate = useNavigate()
  const status = reader.expired ? { label: 'منقضی', color: 'gray' } : STATUS_TITLES[reader.status]
  return (
    <Stack gap="3">
      <HStack justify="space-between" wrap="wrap">
        <HStack>
          <Heading as="h2" size="md">{toPersianDigits(reader.title)}</Heading>
          <Badge colorPalette={status.color} data-testid="reader-status">{status.label}</Badge>
        </HStack>
        {canManage && (
          <HStack>
            {(reader.status === 'active' || reader.status === 'disabled') && (
              <Button size="sm" variant="outline" loading={toggle.isPending} onClick={() => toggle.mutate({ id: reader.id, active: reader.status !== 'active' })} data-testid="reader-toggle">
                {reader.status === 'active' ? 'غیرفعال کردن' : 'فعال کردن'}
              </Button>
            )}
            <Button size="sm" variant="ghost" data-testid="reader-edit"
              onClick={() => navigate(reader.kind === 'secretary' ? `/secretary/received-message/update/${reader.id}` : `/secretary/keywords/${reader.id}/edit`)}>
              ویرایش
            </Button>
          </HStack>
        )}
      </HStack>
      {reader.status === 'rejected' && <Text color="red.fg" fontSize="sm">{`دلیل رد: ${reader.reason}`}</Text>}
      <SimpleGrid columns={{ base: 2, md: 4 }} gap="3">
        <Fact label="نوع" value={KIND_TITLES[reader.kind]} />
        <Fact label="خط" value={toPersianDigits(reader.line)} />
        <Fact label="کلمات کلیدی" value={reader.keywords.length ? toPersianDigits(reader.keywords.join('، ')) : 'همه پیام‌ها'} />
        <Fact label="پایان" value={reader.expires_at ? formatJalaliDate(reader.expires_at) : 'ندارد'} />
        <Fact label="پیام‌های پاسخ‌داده" value={formatNumber(reader.entries)} />
        <Fact label="فرستندگان" value={formatNumber(reader.participants)} />
      </SimpleGrid>
    </Stack>
  )
}

/** /secretary/keywords/:id and /secretary/received-message/recipients/:id/:inbox_type: a reader's counts, results and inbox. */
export default function ReaderDetailPage() {
  const { id } = useParams()
  const qc = useQueryClient()
  const reader = useReader(id)
  const list = useUrlListState()
  const entries = useEntries({ reader_id: id ?? '', page: list.page, limit: list.limit })
  // Every new message may be this reader's: refresh the counts, chart and inbox live.
  useLiveEvent((m) => {
    if (m.event === 'inbox.received') void qc.invalidateQueries({ queryKey: READERS_KEY })
  })
  if (reader.isPending) return <LoadingState />
  if (reader.isError) return <ErrorState description="منشی پیدا نشد" onRetry={() => reader.refetch()} />
  const r = reader.data
  return (
    <Card.Root>
      <Card.Body>
        <Stack gap="5">
          <Summary reader={r} />
          {r.kind === 'poll' && <PollChart reader={r} />}
          {r.kind === 'gift' && <GiftCodes reader={r} />}
          {r.kind === 'contest' && <ContestDraw reader={r} />}
          <DataTable
            caption="پیام‌های این منشی"
            columns={ENTRY_COLUMNS}
            {...pagedQueryProps(entries)}
            rowKey={(e) => e.id}
            toolbar={<ExportButton testId="reader-export" download={(p) => exportEntries(r.id, p)} />}
            emptyText="هنوز پیامی به این منشی نرسیده است"
          />
        </Stack>
      </Card.Body>
    </Card.Root>
  )
}
