import { describe, expect, it } from 'vitest'
import type { Campaign } from './api'
import { campaignErrors, campaignInput, cronError, EMPTY_CAMPAIGN, formFromCampaign, scheduleSummary, toggled } from './form'

const valid = { ...EMPTY_CAMPAIGN, title: ' یادآوری ', sender: '3000', text: 'سلام', numbers: ['989121234567'] }

describe('cron expressions', () => {
  it.each(['0 9 * * *', '*/15 8-18 * * 0-4', '0 0 1,15 * *', '30 23 31 12 6', ' 5  4 * * * '])('%s is valid', (e) => {
    expect(cronError(e)).toBeUndefined()
  })
  it.each([
    ['', 'وارد کنید'],
    ['* * * *', 'پنج بخش'],
    ['60 * * * *', 'دقیقه'],
    ['0 24 * * *', 'ساعت'],
    ['0 0 0 * *', 'روز ماه'],
    ['0 0 * 13 *', 'ماه'],
    ['0 0 * * 7', 'روز هفته'],
    ['*/0 * * * *', 'دقیقه'],
    ['5-1 * * * *', 'دقیقه'],
    ['a * * * *', 'دقیقه'],
  ])('%s is refused (%s)', (e, part) => {
    expect(cronError(e)).toMatch(part)
  })
})

describe('campaign form', () => {
  it('requires title, line, recipients, text and a complete schedule', () => {
    expect(Object.keys(campaignErrors(EMPTY_CAMPAIGN)).sort()).toEqual(['sender', 'source', 'text', 'title'])
    expect(campaignErrors(valid)).toEqual({})
    expect(campaignErrors({ ...valid, kind: 'weekly' }).weekdays).toBeDefined()
    expect(campaignErrors({ ...valid, kind: 'monthly' }).monthDays).toBeDefined()
    expect(campaignErrors({ ...valid, kind: 'cron', cron: '0 9 * *' }).cron).toMatch('پنج بخش')
    expect(campaignErrors({ ...valid, time: '' }).time).toBeDefined()
    expect(campaignErrors({ ...valid, sourceKind: 'phonebooks' }).source).toBe('لطفا دفترچه تلفن را انتخاب کنید')
    expect(campaignErrors({ ...valid, sourceKind: 'file' }).source).toMatch('فایل')
  })

  it('builds the API body by source and schedule kind', () => {
    expect(campaignInput({ ...valid, kind: 'weekly', weekdays: [4, 0] })).toEqual({
      title: 'یادآوری', type: 'quick', sender: '3000', text: 'سلام', cancel11: true, enabled: true,
      numbers: ['989121234567'], schedule: { kind: 'weekly', time: '09:00', weekdays: [0, 4] },
    })
    const monthly = campaignInput({ ...valid, sourceKind: 'phonebooks', phonebookIds: [3], kind: 'monthly', monthDays: [15, 1] })
    expect(monthly.type).toBe('phonebook')
    expect(monthly.phonebook_ids).toEqual([3])
    expect(monthly.schedule).toEqual({ kind: 'monthly', time: '09:00', month_days: [1, 15] })
    const cron = campaignInput({ ...valid, sourceKind: 'file', fileId: 9, text: 'سلام {ex_B}', kind: 'cron', cron: ' 0  9 * * * ' })
    expect(cron.type).toBe('keyword')
    expect(cron.file_id).toBe(9)
    expect(cron.schedule).toEqual({ kind: 'cron', cron: '0 9 * * *' })
    expect(campaignInput({ ...valid, sourceKind: 'file', fileId: 9 }).type).toBe('file')
  })

  it('round-trips a saved campaign through the form', () => {
    const input = campaignInput({ ...valid, sourceKind: 'phonebooks', phonebookIds: [3, 4], kind: 'monthly', monthDays: [1], enabled: false })
    const { phonebook_ids, ...rest } = input
    const saved: Campaign = { ...rest, source: { phonebook_ids }, id: 5, next_run_at: null, last_run_at: null, runs: 0, failed_runs: 0, created_at: '' }
    expect(campaignInput(formFromCampaign(saved))).toEqual(input)
  })

  it('summarises schedules in Persian', () => {
    expect(scheduleSummary({ kind: 'daily', time: '09:30' })).toBe('هر روز ساعت ۰۹:۳۰')
    expect(scheduleSummary({ kind: 'weekly', time: '10:00', weekdays: [0, 2, 6] })).toBe('هر هفته شنبه، دوشنبه و جمعه ساعت ۱۰:۰۰')
    expect(scheduleSummary({ kind: 'monthly', time: '08:00', month_days: [1, 15] })).toBe('هر ماه روز ۱ و ۱۵ ساعت ۰۸:۰۰')
    expect(scheduleSummary({ kind: 'cron', cron: '0 9 * * *' })).toBe('کرون: 0 9 * * *')
  })

  it('toggles list values', () => {
    expect(toggled([1, 2], 2)).toEqual([1])
    expect(toggled([1], 3)).toEqual([1, 3])
  })
})

describe('a campaign run spread over time (ارسال تدریجی)', () => {
  it('sends the pace of each run and refuses one out of bounds', () => {
    expect(campaignInput({ ...valid, gradual: 'per_hour', gradualCount: '۲۰۰۰' }).gradual).toEqual({ per_hour: 2000 })
    expect(campaignInput({ ...valid, gradual: 'per_minute', gradualCount: '50' }).gradual).toEqual({ per_minute: 50 })
    expect(campaignInput(valid).gradual).toBeUndefined()
    expect(campaignErrors({ ...valid, gradual: 'per_hour', gradualCount: '5' }).gradual).toMatch(/در ساعت باید بین/)
    expect(campaignErrors({ ...valid, gradual: 'per_hour', gradualCount: '2000' }).gradual).toBeUndefined()
  })

  it('brings a saved pace back into the form', () => {
    const saved = { ...campaignInput({ ...valid, gradual: 'per_minute', gradualCount: '40' }), id: 1, source: { numbers: valid.numbers },
      next_run_at: null, last_run_at: null, runs: 0, failed_runs: 0, created_at: '' } as unknown as Campaign
    const form = formFromCampaign(saved)
    expect([form.gradual, form.gradualCount]).toEqual(['per_minute', '40'])
  })
})
