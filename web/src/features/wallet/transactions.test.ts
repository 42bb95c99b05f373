import { describe, expect, it } from 'vitest'
import { lowBalanceNotice } from '../../lib/lowBalance'
import { formatTyped, MSG_ALERT_MIN, MSG_ALERT_REQUIRED, parseRials, thresholdError } from './lowBalance'
import { exportFilters, plainAmount, sendLabel, sendLink, signedAmount, transactionQuery, TRANSACTION_FILTERS, TRANSACTION_TYPES } from './transactions'

describe('transactions page logic', () => {
  it('signs amounts with Persian digits and separators', () => {
    expect(signedAmount({ type: 'deposit', amount: 1_250_000 })).toBe('+۱٬۲۵۰٬۰۰۰')
    expect(signedAmount({ type: 'withdrawal', amount: 230 })).toBe('−۲۳۰')
  })

  it('links a row to its send report, or nowhere', () => {
    expect(sendLink({ send_id: 42 })).toBe('/reports/42')
    expect(sendLink({ send_id: null })).toBeNull()
    expect(sendLabel(42)).toBe('ارسال ۴۲')
  })

  it('builds the request body from paging and the set filters', () => {
    const q = transactionQuery(2, 20, { type: 'withdrawal', date_from: '2025-03-21', amount_from: '۱٬۰۰۰٬۰۰۰', amount_to: '', search: '' })
    expect(q).toEqual({ page: 2, limit: 20, type: 'withdrawal', date_from: '2025-03-21', amount_from: '1000000' })
    expect(exportFilters(q)).toEqual({ type: 'withdrawal', date_from: '2025-03-21', amount_from: '1000000' })
    expect(plainAmount('12,500')).toBe('12500')
  })

  it('offers type, Jalali date range, amount range and search filters', () => {
    expect(TRANSACTION_FILTERS.map((f) => f.type)).toEqual(['options', 'date_range', 'search_range', 'search'])
    expect(TRANSACTION_TYPES.deposit).toEqual({ label: 'واریز', palette: 'green' })
    expect(TRANSACTION_TYPES.withdrawal.label).toBe('برداشت')
  })
})

describe('low-balance alert', () => {
  it('reads typed amounts and enforces the 200,000-rial minimum', () => {
    expect(parseRials('۲۰۰٬۰۰۰')).toBe(200_000)
    expect(formatTyped('1500000')).toBe('۱٬۵۰۰٬۰۰۰')
    expect(thresholdError(true, '۱۹۹٬۹۹۹')).toBe(MSG_ALERT_MIN)
    expect(thresholdError(true, '')).toBe(MSG_ALERT_REQUIRED)
    expect(thresholdError(true, '200000')).toBeNull()
    expect(thresholdError(false, '')).toBeNull()
  })

  it('turns only the alert event into a notice', () => {
    expect(lowBalanceNotice({ event: 'credit.changed', data: { credit: 150_000, low_balance: true, threshold: 200_000 } })).toContain('۱۵۰٬۰۰۰ ریال')
    expect(lowBalanceNotice({ event: 'credit.changed', data: { credit: 150_000 } })).toBeNull()
    expect(lowBalanceNotice({ event: 'send.progress', data: { low_balance: true } })).toBeNull()
  })
})
