import { Badge, Link, Stack, Text } from '@chakra-ui/react'
import { useQueryClient } from '@tanstack/react-query'
import { Link as RouterLink } from 'react-router'
import { DataTable, type DataTableColumn } from '../../components/DataTable'
import { ExportButton } from '../../components/ExportButton'
import { SectionCard } from '../../components/SectionCard'
import { allFilterKeys } from '../../components/TableFilters'
import { formatNumber } from '../../lib/format'
import { formatJalaliDateTime } from '../../lib/jalali'
import { toPersianDigits } from '../../lib/digits'
import { useLiveEvent } from '../../lib/useLive'
import { useUrlListState } from '../../lib/urlState'
import { exportTransactions, useTransactions, walletKeys, type Transaction } from './api'
import { InvoiceButton } from './InvoiceButton'
import { LowBalanceCard } from './LowBalanceCard'
import { exportFilters, sendLabel, sendLink, signedAmount, transactionQuery, TRANSACTION_FILTERS, TRANSACTION_TYPES } from './transactions'

function TypeChip({ type }: { type: Transaction['type'] }) {
  const t = TRANSACTION_TYPES[type] ?? TRANSACTION_TYPES.deposit
  return (
    <Badge variant="subtle" colorPalette={t.palette} data-testid={`tx-type-${type}`}>
      {t.label}
    </Badge>
  )
}

function SendCell({ row }: { row: Transaction }) {
  const to = sendLink(row)
  if (!to || !row.send_id) return <>—</>
  return (
    <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium">
      <RouterLink to={to} data-testid="tx-send-link">
        {sendLabel(row.send_id)}
      </RouterLink>
    </Link>
  )
}

const COLUMNS: DataTableColumn<Transaction>[] = [
  { key: 'id', title: 'شناسه', width: '80px', render: (r) => <bdi>{toPersianDigits(r.id)}</bdi>, hideOnMobile: true },
  {
    key: 'date',
    title: 'تاریخ',
    width: '150px',
    render: (r) => (
      <Text as="span" whiteSpace="nowrap">
        {formatJalaliDateTime(r.date)}
      </Text>
    ),
  },
  { key: 'type', title: 'نوع', render: (r) => <TypeChip type={r.type} /> },
  {
    key: 'amount',
    title: 'مبلغ (ریال)',
    align: 'end',
    render: (r) => (
      <Text as="bdi" fontWeight="semibold" color={r.type === 'withdrawal' ? 'red.fg' : 'green.fg'} whiteSpace="nowrap">
        {signedAmount(r)}
      </Text>
    ),
  },
  {
    key: 'description',
    title: 'شرح',
    render: (r) => (
      <Stack gap="0">
        <Text as="span">{r.description}</Text>
        {r.kind_title !== r.description && (
          <Text as="span" fontSize="xs" color="fg.muted">
            {r.kind_title}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'send', title: 'ارسال', render: (r) => <SendCell row={r} /> },
  {
    key: 'invoice',
    title: 'فاکتور',
    render: (r) => (r.payment_id ? <InvoiceButton paymentId={r.payment_id} aria-label={`فاکتور پرداخت ${toPersianDigits(r.payment_id)}`} /> : '—'),
  },
  {
    key: 'balance_after',
    title: 'موجودی پس از تراکنش',
    align: 'end',
    hideOnMobile: true,
    render: (r) => <bdi>{formatNumber(r.balance_after)}</bdi>,
  },
]

/** /wallet/transactions: the account's ledger with URL filters, paging and an Excel export. */
export default function TransactionsPage() {
  const qc = useQueryClient()
  const list = useUrlListState()
  const query = transactionQuery(list.page, list.limit, list.filters(allFilterKeys(TRANSACTION_FILTERS)))
  const { data, isPending, isError, refetch } = useTransactions(query)
  // A new balance means a new ledger row: refetch the list.
  useLiveEvent((m) => {
    if (m.event === 'credit.changed') void qc.invalidateQueries({ queryKey: walletKeys.allTransactions })
  })
  return (
    <Stack gap="4">
      <SectionCard title="تراکنش‌ها" description="همه واریزها و برداشت‌های کیف پول: ارسال‌ها، بازگشت هزینه‌ها، شارژها و اعتبارهای هدیه.">
        <DataTable
          caption="تراکنش‌ها"
          columns={COLUMNS}
          rows={data?.rows}
          total={data?.meta.total}
          rowKey={(r) => r.id}
          isLoading={isPending}
          isError={isError}
          onRetry={() => refetch()}
          filters={TRANSACTION_FILTERS}
          toolbar={<ExportButton testId="tx-export" download={(onProgress) => exportTransactions(exportFilters(query), onProgress)} />}
          emptyText="تراکنشی با این فیلترها یافت نشد"
        />
      </SectionCard>
      <LowBalanceCard />
    </Stack>
  )
}
