import { describe, expect, it } from 'vitest'
import { bulkBody, bulkStepErrors, EMPTY_BULK, PHONEBOOK_REQUIRED } from './bulkDraft'
import type { UserFile } from '../../../lib/files'
import { FIXED_CONTACT_TAGS } from '../../../lib/contactTags'

const ready: UserFile = {
  id: 7, name: 'a.xlsx', purpose: 'send', size: 1, status: 'ready', progress: 100, error: '',
  records: 3, valid: 3, invalid: 0, duplicates: 0, blacklisted: 0,
  columns: [{ index: 0, key: 'A', title: 'موبایل' }, { index: 1, key: 'B', title: 'نام' }],
  mobile_col: 0, text_col: null, per_operator: [], created_at: '', parsed_at: '',
}
const now = new Date('2025-03-21T10:00:00Z')

describe('bulk wizard steps', () => {
  it('step 1 needs a line and a parsed file with something to send', () => {
    expect(bulkStepErrors('file', 0, EMPTY_BULK)).toEqual({ sender: 'خط ارسال را انتخاب کنید', file: 'فایل گیرندگان را بارگذاری کنید' })
    const d = { ...EMPTY_BULK, sender: '3000', fileId: 7 }
    expect(bulkStepErrors('file', 0, d, { ...ready, status: 'parsing' }).file).toMatch('پردازش فایل')
    expect(bulkStepErrors('file', 0, d, { ...ready, status: 'failed', error: 'فایل خالی است' }).file).toBe('فایل خالی است')
    expect(bulkStepErrors('file', 0, d, { ...ready, valid: 2, blacklisted: 2 }).file).toMatch('شماره قابل ارسالی')
    expect(bulkStepErrors('file', 0, d, ready)).toEqual({})
  })

  it('phonebook sends need a phonebook (spec §5)', () => {
    const d = { ...EMPTY_BULK, sender: '3000' }
    expect(bulkStepErrors('phonebook', 0, d).phonebooks).toBe(PHONEBOOK_REQUIRED)
    expect(bulkStepErrors('phonebook', 0, { ...d, phonebookIds: [2] })).toEqual({})
  })

  it('step 2 needs a text except for peer-to-peer, known keyword columns and a valid schedule', () => {
    expect(bulkStepErrors('file', 1, EMPTY_BULK, ready, now).text).toBe('متن پیامک را وارد کنید')
    expect(bulkStepErrors('peer_to_peer', 1, EMPTY_BULK, ready, now)).toEqual({})
    expect(bulkStepErrors('keyword', 1, { ...EMPTY_BULK, text: 'سلام {ex_B} {ex_F}' }, ready, now).text).toMatch('{ex_F}')
    expect(bulkStepErrors('keyword', 1, { ...EMPTY_BULK, text: 'سلام {ex_B}' }, ready, now)).toEqual({})
    const later = { ...EMPTY_BULK, text: 'x', schedule: 'later' as const, sendAt: new Date('2025-03-21T10:03:00Z') }
    expect(bulkStepErrors('file', 1, later, ready, now).sendAt).toMatch('۵ دقیقه')
  })

  it('builds the POST /send and calculate-price bodies of each type', () => {
    const d = { ...EMPTY_BULK, sender: '3000', cancel11: false, text: 'سلام {ex_B}', fileId: 7, phonebookIds: [1, 2] }
    expect(bulkBody('file', d)).toEqual({ type: 'file', sender: '3000', cancel11: false, file_id: 7, text: 'سلام {ex_B}', send_at: null })
    expect(bulkBody('keyword', d)).toEqual({ type: 'keyword', sender: '3000', cancel11: false, file_id: 7, text: 'سلام {ex_B}', send_at: null })
    expect(bulkBody('peer_to_peer', d)).toEqual({ type: 'peer_to_peer', sender: '3000', cancel11: false, file_id: 7, send_at: null })
    const at = new Date('2025-03-21T11:00:00Z')
    expect(bulkBody('phonebook', { ...d, schedule: 'later', sendAt: at })).toEqual({
      type: 'phonebook', sender: '3000', cancel11: false, phonebook_ids: [1, 2], text: 'سلام {ex_B}', send_at: '2025-03-21T11:00:00.000Z',
    })
    // The price is asked for the send's own time: its sending hours are those of send_at.
    expect(bulkBody('keyword', { ...d, schedule: 'later', sendAt: at }).send_at).toBe('2025-03-21T11:00:00.000Z')
  })

  it('a phonebook text may use the contacts\' tags (Latin or Persian, custom features); an unknown one is named inline', () => {
    const tags = [...FIXED_CONTACT_TAGS, { keyword: 'city', label: 'شهر', aliases: ['شهر'] }]
    const text = (t: string) => ({ ...EMPTY_BULK, phonebookIds: [1], text: t })
    expect(bulkStepErrors('phonebook', 1, text('{title} {name} از {City} {شهر} {تاریخ_تولد}'), undefined, now, tags)).toEqual({})
    expect(bulkStepErrors('phonebook', 1, text('سلام {nmae} عزیز'), undefined, now, tags).text)
      .toBe('برچسب «{nmae}» در دفترچه تلفن تعریف نشده است؛ برچسب‌های قابل استفاده: {name}، {title}، {mobile}، {birth_date}، {city}')
  })
})
