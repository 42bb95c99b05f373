import { describe, expect, it } from 'vitest'
import { KEY_LABELS, browserName, changeText, summaryText } from './summary'

describe('audit summaries', () => {
  it('names the keys in Persian with Persian digits', () => {
    expect(summaryText({ name: 'مشتریان', count: 3, enabled: true })).toBe('نام: مشتریان، تعداد: ۳، فعال: بله')
    expect(summaryText(null)).toBe('')
    expect(summaryText({ fields: ['name', 'tags'], method: 'sms' })).toBe('فیلدهای تغییرکرده: نام، برچسب‌ها، روش: پیامک')
    expect(summaryText({ refunded: 4600 })).toMatch(/^بازگشت هزینه: ۴[٬,]?۶۰۰/)
    expect(summaryText({ from: 'sending', to: 'paused' })).toBe('از: در حال ارسال، به: متوقف موقت')
  })
  it('shows before and after, then the details', () => {
    expect(changeText({ before: { number: '3000' }, after: { number: '5000' }, details: null })).toBe('شماره خط: ۳۰۰۰ ← شماره خط: ۵۰۰۰')
    expect(changeText({ before: null, after: null, details: { ids: [1, 2] } })).toBe('شناسه‌ها: ۱، ۲')
  })
  it('shortens a user agent', () => {
    expect(browserName('Mozilla/5.0 (X11) AppleWebKit/537.36 Chrome/120.0 Safari/537.36')).toBe('Chrome 120')
    expect(browserName('Mozilla/5.0 Chrome/120.0 Safari/537.36 Edg/121.0')).toBe('Edge 121')
    expect(browserName('node')).toBe('node')
    expect(browserName('')).toBe('—')
  })
  it('names every key the Go code writes in a summary, with no raw key left', () => {
    // The keys of the Details/Before/After maps under pkg/ (grep '(Details|Before|After): map[string]any{').
    const written = ('action actor added amount assigned_to bytes code default deleted enabled entrants events from group_id ids item kind ' +
      'line_kind method mobile name new_mobile number numbers on operator purpose rating reason seed sessions sessions_closed size staff ' +
      'status title to tracking_number type url user username version winners held role_id permissions').split(' ')
    expect(written.filter((k) => !KEY_LABELS[k])).toEqual([])
    const text = summaryText({ held: true, role_id: 3 })
    expect(text).toBe('در انتظار بازبینی: بله، نقش دسترسی: ۳')
    expect(text).not.toMatch(/[a-z_]/)
  })
})
