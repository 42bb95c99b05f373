import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ServerMessage } from '../components/ServerMessage'
import { renderWithProviders } from '../testing/render'
import { ApiError } from './apiError'
import { safeHref, serverHtml } from './sanitize'

/** The markup React produces for a server message. */
function markup(html: string): string {
  const { container } = render(<div>{serverHtml(html)}</div>)
  return container.firstElementChild!.innerHTML
}

describe('serverHtml (allowlist)', () => {
  it('keeps simple formatting and turns line breaks into <br>', () => {
    expect(markup('<b>خطا</b>\nدوباره')).toBe('<b>خطا</b><br>دوباره')
  })
  it('keeps http(s) and mailto links, opening in a new tab without an opener', () => {
    expect(markup('<a href="https://chapar.ir/help" title="x">راهنما</a>')).toBe(
      '<a href="https://chapar.ir/help" target="_blank" rel="noopener noreferrer">راهنما</a>',
    )
    expect(markup('<a href="mailto:help@chapar.ir">ایمیل</a>')).toContain('href="mailto:help@chapar.ir"')
  })

  const bypasses: [string, string][] = [
    ['entity-encoded tab in javascript:', '<a href="jav&#x09;ascript:alert(1)">x</a>'],
    ['raw tab and newline in javascript:', '<a href="jav\tasc\nript:alert(1)">x</a>'],
    ['plain javascript: link', '<a href="javascript:alert(1)" onclick="alert(2)">x</a>'],
    ['upper-case and leading space', '<a href=" JaVaScRiPt:alert(1)">x</a>'],
    ['data: link', '<a href="data:text/html,<script>alert(1)</script>">x</a>'],
    ['<base href>', '<base href="https://evil.test/">x'],
    ['<img onerror>', '<img src=x onerror="alert(1)">x'],
    ['<svg onload>', '<svg onload="alert(1)"><a href="javascript:alert(1)">x</a></svg>'],
    ['<script>', '<script>alert(1)</script>x'],
    ['<iframe srcdoc>', '<iframe srcdoc="<script>alert(1)</script>"></iframe>x'],
    ['<style>', '<style>body{background:url(javascript:alert(1))}</style>x'],
    ['handlers on kept tags', '<b onmouseover="alert(1)" style="x">x</b>'],
    ['<form> and <input>', '<form action="https://evil.test"><input autofocus onfocus="alert(1)"></form>x'],
    ['<math> confusion', '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>'],
  ]
  it.each(bypasses)('%s: nothing active survives', (_name, html) => {
    const out = markup(html)
    expect(out).not.toMatch(/<(script|img|svg|base|iframe|style|form|input|math)\b/i)
    expect(out).not.toMatch(/\son[a-z]+=|javascript|data:|style=|srcdoc|action=/i)
  })
  it('keeps the text of dropped tags that are not code', () => {
    expect(markup('<div><span class="x">شماره</span> <img src=x onerror=alert(1)>نامعتبر</div>')).toBe('شماره نامعتبر')
  })
  it('safeHref accepts only absolute http(s)/mailto', () => {
    expect(safeHref('jav&#x09;ascript:alert(1)')).toBeNull()
    expect(safeHref('jav\tascript:alert(1)')).toBeNull()
    expect(safeHref('/relative')).toBeNull()
    expect(safeHref('https://chapar.ir')).toBe('https://chapar.ir/')
  })
})

describe('ServerMessage', () => {
  it('renders a server message without raw HTML and a plain string as text', () => {
    const err = new ApiError({ status: 422, message: '<img src=x onerror="alert(1)"><b>خطا</b>' })
    const { container } = renderWithProviders(<ServerMessage error={err} />)
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('b')?.textContent).toBe('خطا')
    const plain = renderWithProviders(<ServerMessage error="<b>متن</b>" />)
    expect(plain.container.querySelector('b')).toBeNull()
    expect(plain.container).toHaveTextContent('<b>متن</b>')
  })
})
