import { Badge, Box, Button, Flex, HStack, Input, Separator, Stack, Text } from '@chakra-ui/react'
import { useRef, useState, type FormEvent, type ReactNode } from 'react'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { FormField, FormStack } from '../../components/FormField'
import { JalaliDateTimeInput } from '../../components/JalaliDateInput'
import { ProgressBar } from '../../components/ProgressBar'
import { ServerMessage } from '../../components/ServerMessage'
import { StaleNote } from '../../components/States'
import { ApiError } from '../../lib/apiError'
import { toPersianDigits } from '../../lib/digits'
import { formatBytes } from '../../lib/files'
import { formatNumber, formatRial } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toaster } from '../../lib/toaster'
import { useUrlListState } from '../../lib/urlState'
import { useCardOwner, useDestination, useOfflinePayments, useSubmitOffline, type OfflinePayment, type OfflineState } from './api'
import {
  MAX_RECEIPT_BYTES, OFFLINE_MESSAGES, RECEIPT_ACCEPT, digitsOf, isValidCard, isValidSheba, normalizeSheba, offlineSummary,
  receiptError, type OfflineMethod,
} from './offline'
import { MIN_ONLINE_PAYMENT, parseAmount } from './payment'

type Errors = Partial<Record<'amount' | 'source' | 'tracking_number' | 'transferred_at' | 'receipt', string | null>>

/** Client-side checks of a report; the server checks the same again. */
function check(method: OfflineMethod, amount: number, source: string, tracking: string, at: Date | null, receipt: File | null): Errors {
  const e: Errors = {}
  if (amount < MIN_ONLINE_PAYMENT) e.amount = offlineSummary(method, amount).error ?? 'مبلغ را وارد کنید'
  if (method === 'card' ? !isValidCard(source) : !isValidSheba(source)) e.source = method === 'card' ? OFFLINE_MESSAGES.card : OFFLINE_MESSAGES.account
  if (!/^\d{4,30}$/.test(digitsOf(tracking))) e.tracking_number = OFFLINE_MESSAGES.tracking
  if (!at) e.transferred_at = OFFLINE_MESSAGES.time
  else if (at.getTime() > Date.now() + 5 * 60_000) e.transferred_at = OFFLINE_MESSAGES.future
  e.receipt = receiptError(receipt)
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v)) as Errors
}

/** The server's field errors, under the form's names. */
function serverErrors(err: unknown): Errors {
  if (!(err instanceof ApiError)) return {}
  return {
    amount: err.fieldError('amount'), source: err.fieldError('card_number') ?? err.fieldError('sheba'),
    tracking_number: err.fieldError('tracking_number'), transferred_at: err.fieldError('transferred_at'), receipt: err.fieldError('receipt'),
  }
}

/** The card-to-card or bank transfer tab: where to pay, the report form, and my reports. */
export function OfflinePaymentTab({ method }: { method: OfflineMethod }) {
  return (
    <Stack gap="6">
      <DestinationBox method={method} />
      <OfflineForm method={method} />
    </Stack>
  )
}

function DestinationBox({ method }: { method: OfflineMethod }) {
  const dest = useDestination()
  const owner = useCardOwner()
  if (dest.isPending) return <Text color="app.muted" fontSize="sm">در حال بارگذاری</Text>
  // A refresh that fails keeps the destination on screen, with a note.
  if (!dest.data) return <ServerMessage error={dest.error} color="red.fg" fontSize="sm" />
  const d = dest.data
  const rows = method === 'card'
    ? [['شماره کارت مقصد', toPersianDigits(d.card_number.replace(/(\d{4})(?=\d)/g, '$1-')), 'dest-card'],
      ['به نام', owner.data?.owner || d.card_owner, 'dest-owner'], ['بانک', owner.data?.bank_name || d.bank_name, 'dest-bank']]
    : [['شماره شبا مقصد', toPersianDigits(d.sheba), 'dest-sheba'], ['شماره حساب', toPersianDigits(d.account_number), 'dest-account'],
      ['به نام', d.account_owner, 'dest-owner'], ['بانک', d.bank_name, 'dest-bank']]
  return (
    <Box borderWidth="1px" borderColor="app.border" rounded="lg" p="4" maxW="xl" data-testid="offline-destination">
      <Text fontWeight="bold" mb="2">{method === 'card' ? 'مبلغ را به این کارت واریز کنید' : 'مبلغ را به این حساب واریز کنید (پایا یا ساتنا)'}</Text>
      {dest.isError && <StaleNote mb="2" />}
      <Stack gap="1" fontSize="sm">
        {rows.map(([label, value, id]) => <Row key={id} label={label} value={<bdi data-testid={id}>{value}</bdi>} />)}
      </Stack>
    </Box>
  )
}

function OfflineForm({ method }: { method: OfflineMethod }) {
  const [amountText, setAmountText] = useState('')
  const [source, setSource] = useState('')
  const [tracking, setTracking] = useState('')
  const [at, setAt] = useState<Date | null>(null)
  const [receipt, setReceipt] = useState<File | null>(null)
  const [touched, setTouched] = useState(false)
  const [progress, setProgress] = useState(0)
  const fileRef = useRef<HTMLInputElement>(null)
  const submitReport = useSubmitOffline((loaded, total) => setProgress(total ? (loaded / total) * 100 : 0))
  const amount = parseAmount(amountText)
  const sum = offlineSummary(method, amount)
  const client = touched ? check(method, amount, source, tracking, at, receipt) : {}
  const server = serverErrors(submitReport.error)
  const err = (k: keyof Errors) => client[k] ?? server[k] ?? null

  const reset = () => {
    setAmountText(''); setSource(''); setTracking(''); setAt(null); setReceipt(null); setTouched(false); setProgress(0)
    if (fileRef.current) fileRef.current.value = ''
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    if (Object.keys(check(method, amount, source, tracking, at, receipt)).length || !at || !receipt) return
    submitReport.mutate(
      { method, amount, source: method === 'card' ? digitsOf(source) : normalizeSheba(source), tracking_number: digitsOf(tracking), transferred_at: at, receipt },
      { onSuccess: () => { reset(); toaster.success({ title: 'درخواست شما ثبت شد و پس از بررسی، کیف پول شارژ می‌شود' }) } },
    )
  }
  return (
    <Stack gap="6">
      <FormStack gap="4" onSubmit={submit} noValidate maxW="xl" data-testid={`offline-form-${method}`}>
        <FormField label="مبلغ واریزی (ریال)" error={err('amount')} required>
          <Input inputMode="numeric" dir="ltr" textAlign="right" value={amountText} placeholder="۱٬۰۰۰٬۰۰۰"
            onChange={(e) => setAmountText(parseAmount(e.target.value) ? formatNumber(parseAmount(e.target.value)) : '')} data-testid="offline-amount" />
        </FormField>
        <FormField label={method === 'card' ? 'شماره کارت مبدا' : 'شماره شبای حساب مبدا'} error={err('source')} required
          helper={method === 'card' ? '۱۶ رقم شماره کارتی که از آن واریز کرده‌اید' : 'IR و ۲۴ رقم'}>
          <Input dir="ltr" textAlign="left" value={source} maxLength={method === 'card' ? 19 : 32} inputMode={method === 'card' ? 'numeric' : 'text'}
            placeholder={method === 'card' ? '6037-9912-3456-7893' : 'IR000000000000000000000000'}
            onChange={(e) => setSource(e.target.value)} data-testid="offline-source" />
        </FormField>
        <FormField label="شماره پیگیری" error={err('tracking_number')} required>
          <Input dir="ltr" textAlign="left" inputMode="numeric" value={tracking} maxLength={30} onChange={(e) => setTracking(e.target.value)} data-testid="offline-tracking" />
        </FormField>
        <FormField label="تاریخ و ساعت واریز" error={err('transferred_at')} required>
          <JalaliDateTimeInput value={at} onChange={setAt} max={new Date()} invalid={!!err('transferred_at')} aria-label="تاریخ و ساعت واریز" />
        </FormField>
        <FormField label="تصویر رسید" error={err('receipt')} required helper={`JPEG، PNG یا PDF تا ${toPersianDigits(MAX_RECEIPT_BYTES / 1024 / 1024)} مگابایت`}>
          <HStack gap="3" wrap="wrap">
            <Button type="button" variant="outline" size="sm" onClick={() => fileRef.current?.click()}>انتخاب فایل رسید</Button>
            <Text fontSize="sm" color="app.muted" data-testid="offline-receipt-name">{receipt ? <><bdi>{receipt.name}</bdi> ({formatBytes(receipt.size)})</> : 'فایلی انتخاب نشده است'}</Text>
            <input ref={fileRef} type="file" accept={RECEIPT_ACCEPT} hidden aria-label="تصویر رسید"
              onChange={(e) => setReceipt(e.target.files?.[0] ?? null)} data-testid="offline-receipt" />
          </HStack>
        </FormField>
        <Box borderWidth="1px" borderColor="app.border" rounded="lg" p="4" data-testid="offline-summary">
          <Stack gap="2" fontSize="sm">
            <Row label="مبلغ واریزی" value={formatRial(sum.amount)} />
            {method === 'card' && <Row label="کسر مالیات (۱۰٪)" value={formatRial(sum.tax)} testId="offline-tax" />}
            <Separator />
            <Row label="مبلغ شارژ کیف پول پس از تایید" value={formatRial(sum.credit)} strong testId="offline-credit" />
          </Stack>
        </Box>
        {submitReport.isPending && <ProgressBar value={progress} label="بارگذاری رسید" showValue />}
        {submitReport.isError && !Object.values(server).some(Boolean) && <ServerMessage error={submitReport.error} color="red.fg" fontSize="sm" />}
        <Button type="submit" colorPalette="brand" loading={submitReport.isPending} loadingText="در حال ارسال" alignSelf={{ base: 'stretch', md: 'flex-start' }}
          minW="40" data-testid="offline-submit">
          ثبت درخواست
        </Button>
      </FormStack>
      <OfflineRequests />
    </Stack>
  )
}

const STATES: Record<OfflineState, { label: string; color: string }> = {
  pending: { label: 'در انتظار بررسی', color: 'yellow' },
  approved: { label: 'تایید و شارژ شد', color: 'green' },
  rejected: { label: 'رد شد', color: 'red' },
}

/** My offline reports with their status and, when rejected, the reason. */
export function OfflineRequests() {
  const list = useUrlListState({ pageKey: 'opage', limitKey: 'olimit', prefix: 'offline' })
  const { data, isPending, isError, refetch } = useOfflinePayments(list.page)
  const columns: DataTableColumn<OfflinePayment>[] = [
    { key: 'created_at', title: 'زمان ثبت', render: (r) => formatJalaliDateTime(r.created_at) },
    { key: 'method', title: 'روش', render: (r) => (r.method === 'card' ? 'کارت به کارت' : 'واریز بانکی') },
    { key: 'amount', title: 'مبلغ واریزی', render: (r) => formatRial(r.amount) },
    { key: 'credit', title: 'مبلغ شارژ', render: (r) => formatRial(r.credit) },
    { key: 'tracking_number', title: 'شماره پیگیری', hideOnMobile: true, render: (r) => <bdi>{toPersianDigits(r.tracking_number)}</bdi> },
    { key: 'state', title: 'وضعیت', render: (r) => <Badge colorPalette={STATES[r.state].color} data-testid={`offline-state-${r.id}`}>{STATES[r.state].label}</Badge> },
    { key: 'reason', title: 'توضیح', render: (r) => (r.state === 'rejected' ? <Text color="red.fg" data-testid={`offline-reason-${r.id}`}>{r.reason}</Text> : '—') },
  ]
  return (
    <Box data-testid="offline-requests">
      <Text fontWeight="bold" mb="2">درخواست‌های کارت به کارت و واریز بانکی من</Text>
      <DataTable caption="درخواست‌های پرداخت آفلاین" columns={columns} rows={data?.rows} total={data?.meta.total} rowKey={(r) => r.id}
        isLoading={isPending} isError={isError} onRetry={() => refetch()} url={{ pageKey: 'opage', limitKey: 'olimit', prefix: 'offline' }}
        emptyText="هنوز درخواستی ثبت نکرده‌اید" />
    </Box>
  )
}

export function Row({ label, value, strong, testId }: { label: string; value: ReactNode; strong?: boolean; testId?: string }) {
  return (
    <Flex justify="space-between" gap="3" fontWeight={strong ? 'bold' : undefined}>
      <Text color={strong ? undefined : 'app.muted'}>{label}</Text>
      <Text as="span" data-testid={testId}>{value}</Text>
    </Flex>
  )
}
