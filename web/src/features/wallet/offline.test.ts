import { describe, expect, it } from 'vitest'
import { isValidCard, isValidSheba, offlineSummary, receiptError } from './offline'

describe('offline payment checks', () => {
  it('checks card numbers by Luhn', () => {
    expect(isValidCard('6037991234567893')).toBe(true)
    expect(isValidCard('۶۰۳۷-۹۹۱۲-۳۴۵۶-۷۸۹۳')).toBe(true)
    expect(isValidCard('6037991234567894')).toBe(false)
    expect(isValidCard('603799123456789')).toBe(false)
  })
  it('checks Sheba numbers by mod 97-10', () => {
    expect(isValidSheba('IR050170000000123456789012')).toBe(true)
    expect(isValidSheba('۰۵۰۱۷۰۰۰۰۰۰۰۱۲۳۴۵۶۷۸۹۰۱۲')).toBe(true)
    expect(isValidSheba('IR060170000000123456789012')).toBe(false)
    expect(isValidSheba('IR05017000000012345678901')).toBe(false)
  })
  it('deducts 10% tax from card-to-card only', () => {
    expect(offlineSummary('card', 2_000_000)).toMatchObject({ tax: 200_000, credit: 1_800_000, error: null })
    expect(offlineSummary('bank', 2_000_000)).toMatchObject({ tax: 0, credit: 2_000_000 })
    expect(offlineSummary('card', 500_000).error).not.toBeNull()
  })
  it('checks the receipt before upload', () => {
    expect(receiptError(null)).not.toBeNull()
    expect(receiptError(new File(['x'], 'r.png'))).toBeNull()
    expect(receiptError(new File(['x'], 'r.gif'))).not.toBeNull()
  })
})
