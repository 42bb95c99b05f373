import { describe, expect, it } from 'vitest'
import { columnKeywords, keywordPreview, keywordTags, unknownTags } from './keywords'

const columns = [
  { index: 0, key: 'A', title: 'موبایل' },
  { index: 1, key: 'B', title: 'نام' },
  { index: 2, key: 'C', title: '' },
]

describe('keyword tags', () => {
  it('finds {ex_B} and {{ex_B}} tags once each, upper-cased', () => {
    expect(keywordTags('سلام {ex_B} عزیز، کد {{ex_c}} و باز {ex_B}')).toEqual(['B', 'C'])
    expect(keywordTags('بدون برچسب {B} و {ex_} ')).toEqual([])
  })

  it('reports tags naming no column', () => {
    expect(unknownTags('{ex_B} {ex_Z} {{ex_AA}}', columns)).toEqual(['Z', 'AA'])
    expect(unknownTags('{ex_a}', columns)).toEqual([])
  })

  it('previews tags as header titles, or the column letter without a header', () => {
    expect(keywordPreview('سلام {ex_B}، کد شما {{ex_C}} است {ex_Q}', columns)).toBe('سلام «نام»، کد شما «ستون C» است {ex_Q}')
  })

  it('gives one editor tag per column', () => {
    expect(columnKeywords(columns)).toEqual([
      { keyword: 'ex_A', col: 'A' },
      { keyword: 'ex_B', col: 'B' },
      { keyword: 'ex_C', col: 'C' },
    ])
  })
})
