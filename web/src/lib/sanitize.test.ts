import { describe, expect, it } from 'vitest'
import { sanitizeServerHtml } from './sanitize'

describe('sanitizeServerHtml', () => {
  it('keeps simple formatting and turns line breaks into <br>', () => {
    expect(sanitizeServerHtml('<b>خطا</b>\nدوباره')).toBe('<b>خطا</b><br>دوباره')
  })
  it('drops scripts, handlers and javascript: links', () => {
    const out = sanitizeServerHtml('<a href="javascript:alert(1)" onclick="x()">x</a><script>alert(1)</script><img src=x onerror="y()">')
    expect(out).not.toMatch(/script|onclick|onerror|javascript/)
    expect(out).toContain('<a target="_blank" rel="noopener noreferrer">x</a>')
  })
})
