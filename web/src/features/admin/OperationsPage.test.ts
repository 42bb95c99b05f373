import { describe, expect, it } from 'vitest'
import { bindState, perSecond, waited } from './OperationsPage'

describe('the operations page figures', () => {
  it('names a bind by its state, throttled before bound', () => {
    expect(bindState({ state: 'bound', bound: true })).toEqual({ label: 'متصل', color: 'green' })
    expect(bindState({ state: 'throttled', bound: true }).color).toBe('orange')
    expect(bindState({ state: 'connecting', bound: false }).label).toBe('در حال اتصال')
    expect(bindState({ state: 'disconnected', bound: false })).toEqual({ label: 'قطع', color: 'red' })
  })

  it('shows rates to a tenth, in Persian digits', () => {
    expect(perSecond(0)).toBe('۰ در ثانیه')
    expect(perSecond(1234.56)).toBe('۱٬۲۳۴٫۶ در ثانیه')
  })

  it('shows a queue\'s oldest wait in seconds, then minutes', () => {
    expect(waited(0)).toBe('—')
    expect(waited(0.4)).toBe('—')
    expect(waited(12.4)).toBe('۱۲ ثانیه')
    expect(waited(600)).toBe('۱۰ دقیقه')
  })
})
