import { describe, expect, it } from 'vitest'
import { comparePersian, sortPersian } from './collate'

describe('Persian collation', () => {
  it('puts چ ک گ in their Persian places, not after ه', () => {
    const names = ['هرمزگان', 'یزد', 'کرمان', 'چهارمحال و بختیاری', 'گیلان', 'البرز', 'پ', 'ژ']
    expect(sortPersian(names, (n) => n)).toEqual(['البرز', 'پ', 'چهارمحال و بختیاری', 'ژ', 'کرمان', 'گیلان', 'هرمزگان', 'یزد'])
  })
  it('compares and leaves the input alone', () => {
    const list = [{ n: 'گیلان' }, { n: 'کرمان' }]
    expect(sortPersian(list, (x) => x.n).map((x) => x.n)).toEqual(['کرمان', 'گیلان'])
    expect(list[0].n).toBe('گیلان')
    expect(comparePersian('ک', 'ه')).toBeLessThan(0)
  })
})
