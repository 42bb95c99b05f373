import { describe, expect, it } from 'vitest'
import type { PriceQuote } from '../api'
import { testBodyOf } from './TestSendButton'

describe('testBodyOf', () => {
  it('tests the text from the chosen line', () => {
    expect(testBodyOf({ type: 'quick', sender: '3000', text: 'سلام', numbers: [], cancel11: true, send_at: null })).toEqual({
      text: 'سلام',
      line: '3000',
      cancel11: true,
    })
  })

  it('tests a personalised send with its first row as the quote rendered it', () => {
    const quote = { preview: [{ mobile: '09121234567', text: 'سلام علی', parts: 1, price: 230 }] } as PriceQuote
    expect(testBodyOf({ type: 'phonebook', sender: '3000', text: 'سلام {name}', phonebook_ids: [1], cancel11: false }, quote)?.text).toBe('سلام علی')
  })

  it('waits for a text and a line', () => {
    expect(testBodyOf({ type: 'quick', sender: '', text: 'سلام', numbers: [], cancel11: true, send_at: null })).toBeNull()
    expect(testBodyOf({ type: 'quick', sender: '3000', text: '  ', numbers: [], cancel11: true, send_at: null })).toBeNull()
  })
})
