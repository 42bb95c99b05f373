import { describe, expect, it } from 'vitest'
import { acceptFor, checkUploadFile, filePollMs, formatBytes, SEND_FILE_MAX_BYTES, XLS_MESSAGE } from './files'

describe('upload checks', () => {
  it('accepts xlsx, csv and txt for send files and only xlsx for peer-to-peer', () => {
    expect(checkUploadFile({ name: 'a.XLSX', size: 10 }, 'send')).toBeNull()
    expect(checkUploadFile({ name: 'a.csv', size: 10 }, 'send')).toBeNull()
    expect(checkUploadFile({ name: 'a.txt', size: 10 }, 'send')).toBeNull()
    expect(checkUploadFile({ name: 'a.pdf', size: 10 }, 'send')).toMatch('فرمت فایل نامعتبر است')
    expect(checkUploadFile({ name: 'noext', size: 10 }, 'send')).toMatch('فرمت فایل نامعتبر است')
    expect(checkUploadFile({ name: 'a.csv', size: 10 }, 'peer_to_peer')).toMatch('xlsx')
    expect(checkUploadFile({ name: 'a.xlsx', size: 10 }, 'peer_to_peer')).toBeNull()
    expect(acceptFor('peer_to_peer')).toBe('.xlsx')
  })

  it('turns .xls, empty and oversized files away before uploading', () => {
    expect(checkUploadFile({ name: 'old.xls', size: 10 }, 'send')).toBe(XLS_MESSAGE)
    expect(checkUploadFile({ name: 'a.csv', size: 0 }, 'send')).toBe('فایل خالی است')
    expect(checkUploadFile({ name: 'a.csv', size: SEND_FILE_MAX_BYTES }, 'send')).toBeNull()
    expect(checkUploadFile({ name: 'a.csv', size: SEND_FILE_MAX_BYTES + 1 }, 'send')).toMatch('۶۴ مگابایت')
  })

  it('formats sizes in Persian', () => {
    expect(formatBytes(512)).toBe('۵۱۲ بایت')
    expect(formatBytes(1536)).toBe('۱٫۵ کیلوبایت')
    expect(formatBytes(64 * 1024 * 1024)).toBe('۶۴ مگابایت')
  })

  it('polls quickly only while parsing without the live socket', () => {
    expect(filePollMs('parsing', false)).toBe(1000)
    expect(filePollMs('parsing', true)).toBe(3000)
    expect(filePollMs('ready', false)).toBe(false)
    expect(filePollMs(undefined, false)).toBe(false)
  })
})
