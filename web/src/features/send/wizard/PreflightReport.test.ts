import { describe, expect, it } from 'vitest'
import { columnLabel, sendableCount } from '../../../lib/files'
import { percentText, preflightRows } from './PreflightReport'

describe('pre-flight report', () => {
  const file = {
    id: 1, name: 'a.xlsx', purpose: 'send' as const, size: 1, status: 'ready' as const, progress: 100, error: '',
    records: 8, valid: 5, invalid: 2, duplicates: 1, blacklisted: 2, columns: [], mobile_col: 0, text_col: null,
    per_operator: [], created_at: '', parsed_at: '',
  }
  it('counts what will be sent: valid unique less blacklisted', () => {
    expect(sendableCount(file)).toBe(3)
    expect(sendableCount({ valid: 1, blacklisted: 4 })).toBe(0)
    expect(Object.fromEntries(preflightRows(file).map((r) => [r.key, r.value]))).toEqual({
      records: 8, valid: 5, invalid: 2, duplicates: 1, blacklisted: 2, sendable: 3,
    })
  })
  it('peer-to-peer counts (mobile, text) pairs', () => {
    expect(preflightRows({ ...file, purpose: 'peer_to_peer' })[1].label).toMatch('شماره و پیام')
  })
  it('percentages relative to the records', () => {
    expect(percentText(1, 8)).toBe('۱۲٫۵٪')
    expect(percentText(0, 0)).toBe('—')
  })
  it('names columns with their header', () => {
    expect(columnLabel({ index: 1, key: 'B', title: 'موبایل' })).toBe('ستون B (موبایل)')
    expect(columnLabel({ index: 1, key: 'B', title: '' })).toBe('ستون B')
  })
})
