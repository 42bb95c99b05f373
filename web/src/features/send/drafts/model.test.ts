import { describe, expect, it } from 'vitest'
import type { Draft } from '../api'
import { draftPath, draftTitle, fromDraft, toDraftBody } from './model'

const STATE = {
  sender: '30001234', cancel11: false, cancel11Touched: true, advertising: false, schedule: 'later' as const,
  sendAt: new Date('2030-01-02T08:30:00Z'), text: 'تخفیف ویژه برای مشتریان وفادار ما تا پایان هفته', numbers: ['989121111111'],
}

describe('drafts model', () => {
  it('turns a wizard state into the POST /user/draft body', () => {
    const body = toDraftBody('quick', STATE, 12)
    expect(body).toMatchObject({ id: 12, type: 'quick', sender: '30001234', numbers: ['989121111111'], file_id: null, phonebook_ids: [] })
    expect(body.send_at).toBe('2030-01-02T08:30:00.000Z')
    expect(body.title).toBe('تخفیف ویژه برای مشتریان وفادار ما')
    expect(toDraftBody('file', { ...STATE, schedule: 'now', fileId: '5', numbers: undefined })).toMatchObject({ file_id: 5, send_at: null, numbers: [] })
    expect(toDraftBody('file', STATE)).not.toHaveProperty('id')
    expect(draftTitle('phonebook', '  ')).toBe('ارسال از دفترچه تلفن')
  })

  it('resumes a draft with the line kind of today', () => {
    const d = { ...toDraftBody('quick', STATE), id: 3, cancel11: false, recipients: 1, file_name: '', created_by: 'x', updated_at: '' } as Draft
    const resumed = fromDraft(d, [{ id: 1, number: '30001234', kind: 'advertising', is_default: true }])
    expect(resumed).toMatchObject({ sender: '30001234', advertising: true, cancel11: true, schedule: 'later', numbers: ['989121111111'] })
    expect(resumed.sendAt?.toISOString()).toBe('2030-01-02T08:30:00.000Z')
    expect(fromDraft({ ...d, sender: '', send_at: null })).not.toHaveProperty('sender')
    expect(draftPath(d)).toBe('/send-sms/quick/steps?draft=3')
  })
})
