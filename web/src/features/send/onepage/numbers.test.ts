import { describe, expect, it } from 'vitest'
import { numbersError, parseNumbers } from './numbers'

describe('parseNumbers', () => {
  it('reads every form and separator, in order', () => {
    const r = parseNumbers('09121234567\n9121234568, +989121234569،۰۹۱۲۱۲۳۴۵۷۰;00989121234571\t0912 123 4572 0912-123-4573')
    expect(r.valid).toEqual([
      '989121234567',
      '989121234568',
      '989121234569',
      '989121234570',
      '989121234571',
      '989121234572',
      '989121234573',
    ])
    expect(r.invalid).toEqual([])
    expect(r.duplicates).toBe(0)
  })

  it('splits a line of numbers on spaces', () => {
    expect(parseNumbers('09121234567 09351234567   09191234567').valid).toEqual(['989121234567', '989351234567', '989191234567'])
  })

  it('counts duplicates written in other forms', () => {
    const r = parseNumbers('09121234567\n+98 912 123 4567\n۹۱۲۱۲۳۴۵۶۷\n09121234567')
    expect(r.valid).toEqual(['989121234567'])
    expect(r.duplicates).toBe(3)
  })

  it('lists what is not a mobile, with Latin digits', () => {
    const r = parseNumbers('02188776655, سلام, ۰۹۱۲۱۲۳, 09401234567, 09121234567')
    expect(r.valid).toEqual(['989121234567'])
    expect(r.invalid).toEqual(['02188776655', 'سلام', '0912123', '09401234567'])
  })

  it('is empty for blank text', () => {
    expect(parseNumbers('  \n ,, \n')).toEqual({ valid: [], invalid: [], duplicates: 0 })
  })
})

describe('numbersError', () => {
  it('wants one number and at most the paste limit', () => {
    expect(numbersError(parseNumbers('0212'))).toBe('حداقل یک شماره گیرنده وارد کنید')
    expect(numbersError(parseNumbers('09121234567'))).toBeUndefined()
    const many = Array.from({ length: 3 }, (_, i) => `0912123456${i}`).join('\n')
    expect(numbersError(parseNumbers(many), 2)).toMatch(/حداکثر ۲ شماره/)
    expect(numbersError(parseNumbers(many), 3)).toBeUndefined()
  })
})
