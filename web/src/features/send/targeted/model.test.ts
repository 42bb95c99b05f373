import { describe, expect, it } from 'vitest'
import { toDraftBody } from '../drafts/model'
import { EMPTY_TARGETED, hasAudience, parsePostal, resumed, targetedBody, targetedStepErrors, targetOf } from './model'

describe('targeted wizard model', () => {
  it('asks each method for its own audience', () => {
    expect(hasAudience('city_province', {})).toBe(false)
    expect(hasAudience('city_province', { cities: [3] })).toBe(true)
    expect(hasAudience('map', { polygon: [[51, 35], [52, 35]] })).toBe(false)
    expect(hasAudience('map', { circle: { lat: 35.7, lon: 51.4, radius: 5000 } })).toBe(true)
    expect(hasAudience('tower_irancell', { towers: [] })).toBe(false)
  })
  it('refuses an audience under 5,000 and a random count under 5,000', () => {
    const d = { ...EMPTY_TARGETED, sender: '3000', target: { provinces: [11], count: 100 }, pick: 'count' as const }
    const counts = { total: 400, recipients: 400, enough: false } as never
    const e = targetedStepErrors('city_province', 0, d, counts)
    expect(e.target).toContain('۵٬۰۰۰')
    expect(e.count).toBeDefined()
  })
  it('sends the random count only when asked', () => {
    const d = { ...EMPTY_TARGETED, sender: '3000', text: 'سلام', target: { provinces: [28], count: 6000 } }
    expect(targetedBody('city_province', d).target).toEqual({ provinces: [28] })
    expect(targetedBody('city_province', { ...d, pick: 'count' }).target).toEqual({ provinces: [28], count: 6000 })
  })
  it('saves the audience in a draft and resumes it with its random count', () => {
    const d = { ...EMPTY_TARGETED, sender: '3000', text: 'حراج', target: { circle: { lat: 35.7, lon: 51.4, radius: 5000 }, count: 6000 }, pick: 'count' as const }
    const body = toDraftBody('map', { ...d, target: targetOf(d) })
    expect(body.type).toBe('map')
    expect(body.target).toEqual({ circle: { lat: 35.7, lon: 51.4, radius: 5000 }, count: 6000 })
    const back = resumed(EMPTY_TARGETED, { text: body.text, target: body.target ?? undefined })
    expect(back.pick).toBe('count')
    expect(targetedBody('map', back).target).toEqual(body.target)
    expect(resumed(EMPTY_TARGETED, { text: 'x' }).target).toEqual({})
  })
  it('reads postal prefixes in Persian digits with any separator', () => {
    expect(parsePostal('۱۶۱، 39 39 x12')).toEqual({ prefixes: ['161', '39'], bad: ['x12'] })
  })
})
