import { describe, expect, it } from 'vitest'
import { onlineTax, parseAmount, paymentSummary, PAYMENT_MESSAGES } from './payment'

describe('online payment amounts', () => {
  it('reads Persian digits and separators', () => {
    expect(parseAmount('۱٬۲۰۰٬۰۰۰')).toBe(1_200_000)
    expect(parseAmount('2,000,000 ریال')).toBe(2_000_000)
    expect(parseAmount('')).toBe(0)
  })
  it('adds 10% tax to the rial, half up like the server', () => {
    expect(onlineTax(1_000_000)).toBe(100_000)
    expect(onlineTax(1_234_567)).toBe(123_457)
    expect(onlineTax(1_000_005)).toBe(100_001)
    expect(onlineTax(1_000_004)).toBe(100_000)
  })
  it('refuses less than the minimum with the spec message', () => {
    expect(paymentSummary(999_999).error).toBe(PAYMENT_MESSAGES.min)
    expect(paymentSummary(1_000_000)).toEqual({ amount: 1_000_000, tax: 100_000, total: 1_100_000, error: null })
  })
})
