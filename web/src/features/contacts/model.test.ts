import { describe, expect, it } from 'vitest'
import {
  contactErrors, contactFilters, contactInput, contactToForm, displayMobile, EMPTY_CONTACT, featureFormErrors, featureValue,
  featuresFor, guessMapping, importPercent, latinTitleError, localMobile, mappingBody, MESSAGES, parseMobile,
  type Contact, type Feature,
} from './model'

const feature = (p: Partial<Feature>): Feature => ({
  id: 1, title_fa: 'شهر', title_en: 'city', type: 'text', enabled: true, flows: ['contacts', 'import'], ...p,
})

describe('numbers', () => {
  it('shows stored 98… numbers as 09… with Persian digits', () => {
    expect(localMobile('989121234567')).toBe('09121234567')
    expect(displayMobile('989121234567')).toBe('۰۹۱۲۱۲۳۴۵۶۷')
    expect(localMobile('12345')).toBe('12345')
  })

  it('parses typed numbers in any digit form, or null', () => {
    expect(parseMobile('۰۹۱۲۱۲۳۴۵۶۷')).toBe('989121234567')
    expect(parseMobile('+98 912 123 4567')).toBe('989121234567')
    expect(parseMobile('0912123')).toBeNull()
    expect(parseMobile('02112345678')).toBeNull()
  })
})

describe('custom features', () => {
  it('accepts Latin letters, digits and hyphens only in the Latin title (spec §5)', () => {
    expect(latinTitleError('birth-city2')).toBeUndefined()
    expect(latinTitleError('شهر')).toBe(MESSAGES.latinTitle)
    expect(latinTitleError('birth city')).toBe(MESSAGES.latinTitle)
    expect(latinTitleError('birth_city')).toBe(MESSAGES.latinTitle)
    expect(latinTitleError('  ')).toBe(MESSAGES.required)
  })

  it('checks values by type and sends Latin digits', () => {
    expect(featureValue('integer', '۱۲۳')).toEqual({ value: '123' })
    expect(featureValue('integer', '12a')).toEqual({ error: MESSAGES.integer })
    expect(featureValue('date', '2025-03-21')).toEqual({ value: '2025-03-21' })
    expect(featureValue('date', '1404/01/01')).toEqual({ error: MESSAGES.date })
    expect(featureValue('text', 'x'.repeat(500))).toEqual({ value: 'x'.repeat(500) })
    expect(featureValue('text', 'x'.repeat(501))).toEqual({ error: MESSAGES.textTooLong })
    expect(featureValue('text', '   ')).toEqual({})
  })

  it('requires both titles and a flow', () => {
    expect(featureFormErrors({ title_fa: '', title_en: 'a b', type: 'text', enabled: true, flows: [] })).toEqual({
      title_fa: MESSAGES.required, title_en: MESSAGES.latinTitle, flows: MESSAGES.flows,
    })
  })

  it('keeps enabled features of a flow', () => {
    const list = [feature({ id: 1 }), feature({ id: 2, enabled: false }), feature({ id: 3, flows: ['send'] })]
    expect(featuresFor(list, 'contacts').map((f) => f.id)).toEqual([1])
    expect(featuresFor(list, 'send').map((f) => f.id)).toEqual([3])
  })
})

describe('contact form', () => {
  const age = feature({ id: 2, title_fa: 'سن', title_en: 'age', type: 'integer' })

  it('reports a bad number, a missing group for a new contact and bad feature values', () => {
    const errors = contactErrors({ ...EMPTY_CONTACT, number: '0912', features: { age: 'ده' } }, [age], true)
    expect(errors).toEqual({ number: MESSAGES.mobile, groups: MESSAGES.chooseGroup, 'features.age': MESSAGES.integer })
    expect(contactErrors({ ...EMPTY_CONTACT, number: '09121234567', groups: [1] }, [age], true)).toEqual({})
    // An edited contact keeps its own phonebook: no group is asked for.
    expect(contactErrors({ ...EMPTY_CONTACT, number: '09121234567' }, [], false)).toEqual({})
  })

  it('builds the API body: normalised number, trimmed name, only the shown features', () => {
    const city = feature({})
    const form = { ...EMPTY_CONTACT, number: '۰۹۱۲۱۲۳۴۵۶۷', name: ' علی ', gender: 'male' as const, birth_date: '1990-05-01', tags: ['ویژه'], features: { age: '۳۱', city: '', vip: 'yes' } }
    expect(contactInput(form, [age, city])).toEqual({
      number: '989121234567', name: 'علی', gender: 'male', birth_date: '1990-05-01', tags: ['ویژه'], features: { age: '31' },
    })
    // On an update a cleared value is sent as null (removed) and a cleared birth date as ''.
    expect(contactInput({ ...form, birth_date: '' }, [age, city], true)).toMatchObject({ birth_date: '', features: { age: '31', city: null } })
    expect(contactInput({ ...EMPTY_CONTACT, number: '09121234567' }, []).birth_date).toBeUndefined()
  })

  it('fills the form from a contact', () => {
    const c: Contact = {
      id: 5, phonebook_id: 7, phonebook_name: 'مشتریان', number: '989121234567', name: 'مریم', gender: 'female',
      birth_date: '2000-01-02', tags: ['a'], features: { age: 20, note: null }, blacklists: [], created_at: '2025-01-01T00:00:00Z',
    }
    expect(contactToForm(c)).toEqual({
      number: '09121234567', name: 'مریم', gender: 'female', birth_date: '2000-01-02', tags: ['a'], groups: [7], features: { age: '20' },
    })
  })
})

describe('contact filters', () => {
  it('has a filter for every field, custom features included, and no group filter inside a group', () => {
    const filters = contactFilters({ features: [feature({}), feature({ id: 2, title_en: 'joined', title_fa: 'عضویت', type: 'date' }), feature({ id: 3, title_en: 'off', enabled: false })] })
    expect(filters.map((f) => f.key)).toEqual(['search', 'phonebook_id', 'gender', 'tag', 'birth', 'created', 'feature.city', 'feature.joined'])
    expect(filters.find((f) => f.key === 'feature.joined')?.type).toBe('date')
    expect(contactFilters({ withGroup: false }).map((f) => f.key)).not.toContain('phonebook_id')
  })
})

describe('import mapping', () => {
  const columns = [
    { index: 0, key: 'A', title: 'موبایل' },
    { index: 1, key: 'B', title: 'نام' },
    { index: 2, key: 'C', title: 'Gender' },
    { index: 3, key: 'D', title: 'City' },
    { index: 4, key: 'E', title: '' },
  ]

  it('guesses columns from header titles and never maps the mobile column', () => {
    const m = guessMapping(columns, [feature({})], 0)
    expect(m).toEqual({ name: 1, gender: 2, birth_date: null, tags: null, 'feature:city': 3 })
    // A header «نام» on the mobile column is not taken.
    expect(guessMapping([{ index: 0, key: 'A', title: 'نام' }], [], 0).name).toBeNull()
  })

  it('sends only mapped targets, features nested by Latin title', () => {
    expect(mappingBody({ name: 1, gender: null, birth_date: 4, tags: null, 'feature:city': 3, 'feature:age': null })).toEqual({
      name: 1, birth_date: 4, features: { city: 3 },
    })
  })
})

describe('import progress', () => {
  it('uses the server progress, else the processed share, and 100 when done', () => {
    expect(importPercent(undefined)).toBe(0)
    expect(importPercent({ status: 'running', progress: 40, total: 10 })).toBe(40)
    expect(importPercent({ status: 'running', progress: 0, total: 200, added: 50, skipped: 30, invalid: 20 })).toBe(50)
    expect(importPercent({ status: 'done', progress: 90 })).toBe(100)
    expect(importPercent({ status: 'running', progress: 150 })).toBe(100)
  })
})
