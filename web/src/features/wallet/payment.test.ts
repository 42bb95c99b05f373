import { describe, expect, it } from 'vitest'
import { formatToman, onlineTax, parseAmount, paymentSummary, PAYMENT_MESSAGES, smsFor, smsText, toman } from './payment'

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

describe('the top-up form conversions', () => {
  it('shows rials in toman (ریال ÷ ۱۰) with Persian digits', () => {
    expect(toman(1_000_000)).toBe(100_000)
    expect(toman(1_234_567)).toBe(123_456)
    expect(toman(-5)).toBe(0)
    expect(formatToman(2_000_000)).toBe('۲۰۰٬۰۰۰ تومان')
  })
  it('counts the one-part messages an amount buys at the account prices', () => {
    // 1,000,000 rials at 200 (MCI) and 220 (Irancell, +10%) a message.
    expect(smsFor(1_000_000, [200, 220, 220, 200])).toEqual({ min: 4_545, max: 5_000 })
    expect(smsText({ min: 4_545, max: 5_000 })).toBe('حدود ۴٬۵۴۵ تا ۵٬۰۰۰ پیامک یک‌بخشی')
    expect(smsText({ min: 5_000, max: 5_000 })).toBe('حدود ۵٬۰۰۰ پیامک یک‌بخشی')
    expect(smsFor(1_000_000, [])).toBeNull()
    expect(smsFor(0, [200])).toBeNull()
  })
})
