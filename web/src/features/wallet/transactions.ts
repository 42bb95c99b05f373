import type { TableFilter } from '../../components/TableFilters'
import type { Query } from '../../lib/api'
import { toLatinDigits, toPersianDigits } from '../../lib/digits'
import { formatNumber } from '../../lib/format'
import type { Transaction } from './api'

/** Transaction types (spec §3) with their Persian names and chip colours. */
export const TRANSACTION_TYPES: Record<Transaction['type'], { label: string; palette: string }> = {
  deposit: { label: 'واریز', palette: 'green' },
  withdrawal: { label: 'برداشت', palette: 'red' },
}

/** The page's filters: type, a Jalali date range (sent as Tehran days), an amount range and search. */
export const TRANSACTION_FILTERS: TableFilter[] = [
  {
    type: 'options',
    key: 'type',
    title: 'نوع تراکنش',
    options: (Object.keys(TRANSACTION_TYPES) as Transaction['type'][]).map((value) => ({ value, label: TRANSACTION_TYPES[value].label })),
  },
  { type: 'date_range', key: 'date', title: 'تاریخ', dateFromKey: 'date_from', dateToKey: 'date_to' },
  { type: 'search_range', key: 'amount', title: 'مبلغ (ریال)', fromKey: 'amount_from', toKey: 'amount_to' },
  { type: 'search', key: 'search', title: 'جستجو', placeholder: 'شرح یا شناسه ارسال' },
]

/** «+۱۲٬۰۰۰» for a deposit, «−۱۲٬۰۰۰» for a withdrawal (rials). */
export function signedAmount(t: Pick<Transaction, 'type' | 'amount'>): string {
  return `${t.type === 'withdrawal' ? '−' : '+'}${formatNumber(Math.abs(Math.floor(t.amount)))}`
}

/** The report page of the transaction's send, or null when it belongs to none. */
export function sendLink(t: Pick<Transaction, 'send_id'>): string | null {
  return t.send_id ? `/reports/${t.send_id}` : null
}

/** «ارسال ۱۲» for the link text. */
export function sendLabel(id: number): string {
  return `ارسال ${toPersianDigits(id)}`
}

/**
 * The list's request body: paging plus the filters that are set, amounts with separators
 * and Persian digits turned into plain Latin integers.
 */
export function transactionQuery(page: number, limit: number, filters: Record<string, string>): Query {
  const out: Query = { page, limit }
  for (const [k, v] of Object.entries(filters)) {
    if (!v) continue
    out[k] = k.startsWith('amount_') ? plainAmount(v) : v
  }
  return out
}

/** «۱٬۲۰۰٬۰۰۰» → «1200000»; anything that is not digits stays for the server to refuse. */
export function plainAmount(v: string): string {
  return toLatinDigits(v).replace(/[,٬،\s]/g, '')
}

/** The filters without paging, for the export (same rows as the list). */
export function exportFilters(q: Query): Query {
  const { page: _page, limit: _limit, ...rest } = q
  return rest
}
