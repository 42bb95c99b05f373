import { describe, expect, it } from 'vitest'
import { attachmentError, canReply, detailsPath, rateable, stateOf, STATES } from './logic'

describe('support logic', () => {
  it('labels the six states as the glossary does', () => {
    expect(STATES.map((s) => s.value)).toEqual([1, 2, 3, 4, 5, 6])
    expect(stateOf(4).label).toBe('بسته شده')
    expect(stateOf(6).label).toBe('ارجاع به واحد مربوطه')
  })

  it('checks attachments by extension, size and count', () => {
    expect(attachmentError([{ name: 'a.PNG', size: 10 }, { name: 'b.rar', size: 10 }])).toBeNull()
    expect(attachmentError([{ name: 'setup.exe', size: 10 }])).toMatch(/مجاز نیست/)
    expect(attachmentError([{ name: 'noext', size: 10 }])).toMatch(/مجاز نیست/)
    expect(attachmentError([{ name: 'big.pdf', size: 10 * 1024 * 1024 + 1 }])).toMatch(/۱۰ مگابایت/)
    expect(attachmentError([{ name: 'edge.pdf', size: 10 * 1024 * 1024 }])).toBeNull()
    expect(attachmentError([{ name: 'empty.zip', size: 0 }])).toMatch(/خالی/)
    expect(attachmentError(Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, size: 1 })))).toMatch(/۵ فایل/)
  })

  it('knows what a closed request allows and what may be rated', () => {
    expect(canReply(4)).toBe(false)
    expect(canReply(1)).toBe(true)
    expect(rateable({ staff: true, rating: null })).toBe(true)
    expect(rateable({ staff: true, rating: 3 })).toBe(false)
    expect(rateable({ staff: false, rating: null })).toBe(false)
  })

  it('routes suggestions and tickets to their own details pages', () => {
    expect(detailsPath({ id: 7, kind: 'suggestion' })).toBe('/support/suggestion-request/7')
    expect(detailsPath({ id: 7, kind: 'ticket' })).toBe('/support/tickets/7')
  })
})
