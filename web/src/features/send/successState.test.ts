import { describe, expect, it } from 'vitest'
import { newSendPath } from './successState'

describe('newSendPath', () => {
  it('goes back to the send method used', () => {
    expect(newSendPath({ id: 1, status: 'queued', price: 0, from: '/send-sms/file' })).toBe('/send-sms/file')
    expect(newSendPath({ from: '/send-sms/peer-to-peer' })).toBe('/send-sms/peer-to-peer')
    expect(newSendPath({ from: '/send-sms/regional/province' })).toBe('/send-sms/regional/province')
  })

  it('falls back to the method list without a usable origin', () => {
    expect(newSendPath(null)).toBe('/send-sms')
    expect(newSendPath({ id: 1, status: 'queued', price: 0 })).toBe('/send-sms')
    expect(newSendPath({ from: 'https://evil.example/send-sms/quick' })).toBe('/send-sms')
    expect(newSendPath({ from: '/send-sms/success-send/12' })).toBe('/send-sms')
    expect(newSendPath({ from: '/wallet/credit' })).toBe('/send-sms')
  })
})
