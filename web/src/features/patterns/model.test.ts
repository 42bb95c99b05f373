import { describe, expect, it } from 'vitest'
import { checkDraft, checkValue, parseList, placeholders, render } from './model'

const code = [{ name: 'code', type: 'integer' as const, length: 6 }]

describe('pattern rules', () => {
  it('accepts a branded text with declared variables', () => {
    expect(checkDraft({ title: 'ورود', description: '', text: 'نانوایی برکت: کد %code%', variables: code }, 'نانوایی برکت')).toEqual({})
  })
  it('refuses a missing brand, http links, variables in links and undeclared names', () => {
    const e = checkDraft({ title: 'a', description: '', text: 'کد %code% http://x.ir https://y.ir/%code% %name%', variables: code }, 'برکت')
    expect(e.text.join()).toContain('نام برند')
    expect(e.text.join()).toContain('https://')
    expect(e.text.join()).toContain('پیوند نباید متغیر')
    expect(e.text.join()).toContain('«name» در متن آمده')
  })
  it('refuses unreadable names', () => {
    const e = checkDraft({ title: 'a', description: '', text: 'برکت %a b%', variables: [{ name: 'a b', type: 'string', length: 5 }] }, 'برکت')
    expect(e.variables.join()).toContain('معتبر نیست')
  })
})

describe('values and lists', () => {
  it('renders and lists placeholders', () => {
    expect(placeholders('%a% %b% %a%')).toEqual(['a', 'b'])
    expect(render('کد %code%', { code: '12' })).toBe('کد 12')
  })
  it('checks types and lengths', () => {
    expect(checkValue(code[0], '۱۲۳')).toBeUndefined()
    expect(checkValue(code[0], '12a')).toContain('عدد')
    expect(checkValue(code[0], '1234567')).toContain('حداکثر')
  })
  it('parses a pasted list', () => {
    const r = parseList('09121234567,12\n\n0912,\n09127654321\t34', code)
    expect(r.recipients).toEqual([
      { mobile: '09121234567', values: { code: '12' } },
      { mobile: '0912', values: { code: '' } },
      { mobile: '09127654321', values: { code: '34' } },
    ])
    expect(r.bad).toEqual([])
    expect(parseList('09121234567', code).bad).toEqual([1])
  })
})
