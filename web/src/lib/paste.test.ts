import { describe, expect, it } from 'vitest'
import { isValidMobile, normalizeMobile, parsePastedNumbers } from './paste'

describe('normalizeMobile', () => {
  it('brings every accepted prefix to 98', () => {
    expect(normalizeMobile('09121234567')).toBe('989121234567')
    expect(normalizeMobile('9121234567')).toBe('989121234567')
    expect(normalizeMobile('989121234567')).toBe('989121234567')
    expect(normalizeMobile('+989121234567')).toBe('989121234567')
    expect(normalizeMobile('00989121234567')).toBe('989121234567')
    expect(normalizeMobile('۰۹۱۲۱۲۳۴۵۶۷')).toBe('989121234567')
    expect(normalizeMobile('٠٩١٢١٢٣٤٥٦٧')).toBe('989121234567')
    expect(normalizeMobile('0912 123 4567')).toBe('989121234567')
    expect(normalizeMobile('')).toBe('')
  })

  it('validates the mobile pattern', () => {
    expect(isValidMobile('989121234567')).toBe(true)
    expect(isValidMobile('98912123456')).toBe(false)
    expect(isValidMobile('982112345678')).toBe(false)
  })

  it('refuses blocks no operator was allocated, as the server does', () => {
    for (const n of ['989231234567', '989321234567', '989921234567', '989961234567', '989991012345']) {
      expect(isValidMobile(n)).toBe(true)
    }
    for (const n of ['989401234567', '989501234567', '989971234567', '989950000000']) {
      expect(isValidMobile(n)).toBe(false)
    }
    const r = parsePastedNumbers('09401234567\n09121234567')
    expect(r.wrong).toEqual(['09401234567'])
    expect(r.correct).toEqual(['989121234567'])
  })
})

describe('parsePastedNumbers', () => {
  it('splits on newlines and commas and sorts the entries', () => {
    const r = parsePastedNumbers('09121234567\n 9351112233 ,abc\r\n+989121234567,,۰۹۳۵۱۱۱۲۲۳۳\n12345')
    expect(r.correct).toEqual(['989121234567', '989351112233'])
    expect(r.wrong).toEqual(['abc', '12345'])
    expect(r.repeated).toEqual(['989121234567', '989351112233'])
    expect(r.truncated).toBe(false)
  })

  it('treats numbers already entered as repeated', () => {
    const r = parsePastedNumbers('09121234567\n09351112233', ['989121234567'])
    expect(r.correct).toEqual(['989351112233'])
    expect(r.repeated).toEqual(['989121234567'])
  })

  it('takes at most 1000 numbers and flags the rest', () => {
    const lines = Array.from({ length: 1005 }, (_, i) => `0912${String(i).padStart(7, '0')}`)
    const r = parsePastedNumbers(lines.join('\n'))
    expect(r.correct).toHaveLength(1000)
    expect(r.truncated).toBe(true)
    expect(parsePastedNumbers(lines.slice(0, 1000).join('\n')).truncated).toBe(false)
  })

  it('ignores empty input', () => {
    expect(parsePastedNumbers('  \n , \n')).toEqual({ correct: [], wrong: [], repeated: [], truncated: false })
  })
})
