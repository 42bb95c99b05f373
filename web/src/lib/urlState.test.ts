import { describe, expect, it } from 'vitest'
import { clearFilters, filterKey, hasFilters, readFilters, readPaging, withFilters, withLimit, withPage } from './urlState'

const p = (s: string) => new URLSearchParams(s)

describe('paging in the URL', () => {
  it('reads page and limit with defaults 1 and 10', () => {
    expect(readPaging(p(''))).toEqual({ page: 1, limit: 10 })
    expect(readPaging(p('page=3&limit=50'))).toEqual({ page: 3, limit: 50 })
    expect(readPaging(p('page=-2&limit=abc'))).toEqual({ page: 1, limit: 10 })
  })

  it('uses configurable names', () => {
    const o = { pageKey: 'p', limitKey: 'size', defaultLimit: 20 }
    expect(readPaging(p('p=2'), o)).toEqual({ page: 2, limit: 20 })
    expect(withPage(p(''), 4, o).toString()).toBe('p=4')
  })

  it('resets the page to 1 when the limit changes', () => {
    expect(withLimit(p('page=5&limit=10&q=x'), 25).toString()).toBe('page=1&limit=25&q=x')
  })
})

describe('filters in the URL', () => {
  it('prefixes keys', () => {
    expect(filterKey('q')).toBe('q')
    expect(filterKey('q', 'inbox')).toBe('inbox-q')
  })

  it('reads only the requested non-empty filters', () => {
    expect(readFilters(p('q=a&status=&x=1'), ['q', 'status'])).toEqual({ q: 'a' })
    expect(readFilters(p('inbox-q=a&q=b'), ['q'], { prefix: 'inbox' })).toEqual({ q: 'a' })
    expect(hasFilters(p('page=2'), ['q'])).toBe(false)
    expect(hasFilters(p('q=1'), ['q'])).toBe(true)
  })

  it('sets and removes filters and resets the page', () => {
    const next = withFilters(p('page=4&q=old&status=1'), { q: 'new', status: '' })
    expect(next.get('q')).toBe('new')
    expect(next.has('status')).toBe(false)
    expect(next.get('page')).toBe('1')
    expect(withFilters(p(''), { q: 'x' }, { prefix: 'r' }).get('r-q')).toBe('x')
  })

  it('clears everything but the limit and the tab', () => {
    expect(clearFilters(p('page=3&limit=25&tab=2&q=x&r-from=1')).toString()).toBe('limit=25&tab=2')
    expect(clearFilters(p('size=5&t=1&q=x'), { limitKey: 'size', tabKey: 't' }).toString()).toBe('size=5&t=1')
  })
})
