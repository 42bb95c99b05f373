import { describe, expect, it } from 'vitest'
import { EMPTY_DRAFT, defaultSender, priceBody, sendBody, stepErrors, withSender } from './draft'

const ad = { id: 1, number: '3000111', kind: 'advertising' as const, is_default: false }
const service = { id: 2, number: '2000222', kind: 'service' as const, is_default: true }

describe('quick-send draft', () => {
  it('preselects the default line', () => {
    expect(defaultSender([ad, service])).toBe(service)
    expect(defaultSender([ad])).toBe(ad)
    expect(defaultSender([])).toBeUndefined()
  })

  it('cancel-11 is mandatory on advertising lines and the user choice on service lines', () => {
    expect(withSender(EMPTY_DRAFT, service).cancel11).toBe(false)
    expect(withSender(EMPTY_DRAFT, ad)).toMatchObject({ cancel11: true, advertising: true })
    const touched = { ...EMPTY_DRAFT, cancel11: false, cancel11Touched: true }
    expect(withSender(touched, ad).cancel11).toBe(true)
    expect(withSender({ ...touched, cancel11: true }, service)).toMatchObject({ cancel11: true, advertising: false })
    expect(withSender(touched, service).cancel11).toBe(false)
  })

  it("a service line starts with the account's cancel-11 default until the user sets it", () => {
    expect(withSender(EMPTY_DRAFT, service, true).cancel11).toBe(true)
    expect(withSender(EMPTY_DRAFT, service, false).cancel11).toBe(false)
    const touched = { ...EMPTY_DRAFT, cancel11: false, cancel11Touched: true }
    expect(withSender(touched, service, true).cancel11).toBe(false)
  })

  it('requires sender and recipients, then text and a future schedule', () => {
    expect(Object.keys(stepErrors(0, EMPTY_DRAFT))).toEqual(['sender', 'numbers'])
    expect(stepErrors(1, { ...EMPTY_DRAFT, text: '  ' }).text).toBeDefined()
    const now = new Date('2025-03-21T10:00:00Z')
    const later = { ...EMPTY_DRAFT, text: 'سلام', schedule: 'later' as const }
    expect(stepErrors(1, later, now).sendAt).toBe('زمان ارسال را انتخاب کنید')
    expect(stepErrors(1, { ...later, sendAt: new Date('2025-03-21T09:00:00Z') }, now).sendAt).toMatch('بعد از اکنون')
    expect(stepErrors(1, { ...later, sendAt: new Date('2025-03-21T11:00:00Z') }, now)).toEqual({})
  })

  it('builds the POST /send body with RFC 3339 send_at or null', () => {
    const d = { ...EMPTY_DRAFT, sender: '3000', numbers: ['989121234567'], text: 'x', cancel11: true }
    expect(sendBody(d)).toEqual({ type: 'quick', sender: '3000', text: 'x', numbers: ['989121234567'], cancel11: true, send_at: null })
    const at = new Date('2025-03-21T11:00:00Z')
    expect(sendBody({ ...d, schedule: 'later', sendAt: at }).send_at).toBe('2025-03-21T11:00:00.000Z')
  })

  // The price of a scheduled send is asked for its own time: its sending hours are those of send_at.
  it('builds the calculate-price body with the send time', () => {
    const d = { ...EMPTY_DRAFT, sender: '3000', numbers: ['989121234567'], text: 'x', cancel11: true }
    expect(priceBody(d)).toEqual({ sender: '3000', text: 'x', numbers: ['989121234567'], cancel11: true, send_at: null })
    const at = new Date('2025-03-21T11:00:00Z')
    expect(priceBody({ ...d, schedule: 'later', sendAt: at }).send_at).toBe('2025-03-21T11:00:00.000Z')
  })
})
