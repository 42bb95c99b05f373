import { Button, Field, Heading, HStack, Input, NativeSelect, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react'
import { useRef, useState, type FormEvent } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { Fact } from '../../components/Fact'
import { SectionCard } from '../../components/SectionCard'
import { ServerMessage } from '../../components/ServerMessage'
import { ErrorState } from '../../components/States'
import { ApiError } from '../../lib/apiError'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { useAdminMutation } from './api'
import { BLOCKLIST_SOURCES, blocklistApi, useBlocklistSearch, useBlocklistSummary, type BlocklistEntry } from './blocklistApi'
import { OPERATOR_NAMES } from './sendHoursApi'

/** 98912… as the panel shows a mobile: ۰۹۱۲… */
const showMobile = (m: string) => toPersianDigits(m.startsWith('98') ? `0${m.slice(2)}` : m)

/**
 * /admin/operator-blocklist: the numbers whose subscribers blocked advertising SMS at their operator (*800#).
 * Advertising sends leave them out (status «لیست سیاه», not charged); service sends ignore the list. Staff
 * import files of numbers, see the counts per operator, search a number and remove it.
 */
export default function OperatorBlocklistPage() {
  return (
    <Stack gap="4">
      <Heading size="lg">لیست سیاه اپراتورها</Heading>
      <Text color="app.muted" fontSize="sm">
        شماره‌هایی که دریافت پیامک تبلیغاتی را نزد اپراتور خود (سرویس *۸۰۰#) مسدود کرده‌اند. ارسال‌های خطوط تبلیغاتی به این شماره‌ها
        انجام نمی‌شود و هزینه‌ای ندارد (وضعیت «لیست سیاه»)؛ خطوط خدماتی این لیست را نادیده می‌گیرند. شماره‌هایی که اپراتور در گزارش
        تحویل مسدود اعلام کند خودکار به لیست افزوده می‌شوند.
      </Text>
      <Counts />
      <ImportForm />
      <Search />
    </Stack>
  )
}

function Counts() {
  const { data, isPending, isError, refetch } = useBlocklistSummary()
  if (isError) return <ErrorState onRetry={() => refetch()} />
  return (
    <SimpleGrid columns={{ base: 2, md: 5 }} gap="3" data-testid="blocklist-counts">
      {isPending
        ? Array.from({ length: 5 }, (_, i) => <Skeleton key={i} h="16" rounded="lg" />)
        : [
            ...data.operators.map((c) => (
              <Fact key={c.operator} label={OPERATOR_NAMES[c.operator] ?? c.operator} value={formatNumber(c.count)} testId={`blocklist-count-${c.operator}`} />
            )),
            <Fact key="total" label="مجموع" value={formatNumber(data.total)} testId="blocklist-count-total" />,
          ]}
    </SimpleGrid>
  )
}

function ImportForm() {
  const input = useRef<HTMLInputElement>(null)
  const [file, setFile] = useState<File | null>(null)
  const [operator, setOperator] = useState('')
  const run = useAdminMutation(() => blocklistApi.importFile(file as File, operator))
  const err = (f: string) => (run.error instanceof ApiError ? run.error.fieldError(f) : undefined)
  const submit = () => {
    if (file) run.mutate(undefined)
  }
  return (
    <SectionCard title="بارگذاری فایل شماره‌ها" description="فایل xlsx، csv یا txt؛ از هر ردیف نخستین شماره موبایل معتبر خوانده می‌شود (تا ۵ میلیون ردیف).">
      <Stack gap="3" maxW="lg">
        <Field.Root invalid={!!err('operator')}>
          <Field.Label>اپراتور</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field value={operator} onChange={(e) => setOperator(e.target.value)} data-testid="blocklist-operator">
              <option value="">تشخیص از پیش‌شماره</option>
              {['mci', 'irancell', 'rightel', 'other'].map((o) => <option key={o} value={o}>{OPERATOR_NAMES[o]}</option>)}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.ErrorText>{err('operator')}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!err('file')}>
          <Field.Label>فایل</Field.Label>
          <HStack gap="3" wrap="wrap">
            <Button variant="outline" size="sm" onClick={() => input.current?.click()}>انتخاب فایل</Button>
            <Text fontSize="sm" color={file ? undefined : 'app.muted'} data-testid="blocklist-file-name">{file ? file.name : 'فایلی انتخاب نشده است'}</Text>
          </HStack>
          <input ref={input} type="file" hidden accept=".xlsx,.csv,.txt" data-testid="blocklist-file"
            onChange={(e) => { setFile(e.target.files?.[0] ?? null); run.reset() }} />
          <Field.ErrorText>{err('file')}</Field.ErrorText>
        </Field.Root>
        {run.isError && !(run.error instanceof ApiError && Object.keys(run.error.errors).length) && (
          <ServerMessage error={run.error} color="fg.error" fontSize="sm" />
        )}
        {run.isSuccess && (
          <Text fontSize="sm" color="fg.success" data-testid="blocklist-import-result">
            {formatNumber(run.data.rows)} ردیف خوانده شد: {formatNumber(run.data.added)} شماره تازه افزوده شد،{' '}
            {formatNumber(run.data.existing)} شماره از پیش در لیست بود و {formatNumber(run.data.invalid)} ردیف شماره معتبر نداشت.
          </Text>
        )}
        <Button alignSelf="flex-start" colorPalette="brand" disabled={!file} loading={run.isPending} onClick={submit} data-testid="blocklist-import">
          بارگذاری
        </Button>
      </Stack>
    </SectionCard>
  )
}

function Search() {
  const [text, setText] = useState('')
  const [mobile, setMobile] = useState('')
  const { data, isFetching, isError, error, refetch } = useBlocklistSearch(mobile)
  const remove = useAdminMutation((e: BlocklistEntry) => blocklistApi.remove(e))
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setMobile(toLatinDigits(text.trim()))
  }
  const fieldErr = error instanceof ApiError ? error.fieldError('mobile') : undefined
  const columns: DataTableColumn<BlocklistEntry>[] = [
    { key: 'mobile', title: 'شماره', render: (r) => <bdi>{showMobile(r.mobile)}</bdi> },
    { key: 'operator', title: 'اپراتور', render: (r) => OPERATOR_NAMES[r.operator] ?? r.operator },
    { key: 'source', title: 'منبع', render: (r) => BLOCKLIST_SOURCES[r.source] ?? r.source },
    { key: 'created_at', title: 'زمان افزودن', hideOnMobile: true, render: (r) => formatJalaliDateTime(r.created_at) },
    {
      key: 'actions', title: 'اقدام', render: (r) => (
        <Button size="xs" variant="outline" colorPalette="red" loading={remove.isPending && remove.variables?.operator === r.operator}
          onClick={() => remove.mutate(r)} data-testid={`blocklist-remove-${r.operator}`}>حذف از لیست</Button>
      ),
    },
  ]
  return (
    <SectionCard title="جستجوی شماره">
      <Stack gap="3">
        <form onSubmit={submit}>
          <HStack gap="3" align="start" maxW="lg">
            <Field.Root invalid={!!fieldErr}>
              <Input value={toPersianDigits(text)} onChange={(e) => setText(e.target.value)} dir="ltr" placeholder="۰۹۱۲۱۲۳۴۵۶۷"
                aria-label="شماره موبایل" data-testid="blocklist-search-input" />
              <Field.ErrorText>{fieldErr}</Field.ErrorText>
            </Field.Root>
            <Button type="submit" variant="outline" loading={isFetching} data-testid="blocklist-search">جستجو</Button>
          </HStack>
        </form>
        {remove.isError && <ServerMessage error={remove.error} color="fg.error" fontSize="sm" />}
        {mobile !== '' && !fieldErr && (
          <DataTable caption="نتیجه جستجو" columns={columns} rows={data} rowKey={(r) => `${r.mobile}:${r.operator}`}
            isLoading={isFetching && !data} isError={isError} onRetry={() => refetch()}
            emptyText="این شماره در لیست سیاه هیچ اپراتوری نیست" />
        )}
      </Stack>
    </SectionCard>
  )
}
