import { describe, expect, it } from 'vitest'
import { CANCEL11_FOOTER, countSegments, isGsm7, MAX_TEXT } from './segments'

describe('countSegments', () => {
  it('counts an empty text as zero parts with a full first part left', () => {
    expect(countSegments('')).toEqual({ encoding: 'gsm7', characters: 0, parts: 0, chars_left: 160 })
  })

  it('fits 160 GSM-7 septets in one part', () => {
    expect(countSegments('a'.repeat(160))).toEqual({ encoding: 'gsm7', characters: 160, parts: 1, chars_left: 0 })
    expect(countSegments('hello')).toEqual({ encoding: 'gsm7', characters: 5, parts: 1, chars_left: 155 })
  })

  it('splits long GSM-7 text into parts of 153', () => {
    expect(countSegments('a'.repeat(161))).toEqual({ encoding: 'gsm7', characters: 161, parts: 2, chars_left: 145 })
    expect(countSegments('a'.repeat(306))).toEqual({ encoding: 'gsm7', characters: 306, parts: 2, chars_left: 0 })
    expect(countSegments('a'.repeat(307)).parts).toBe(3)
  })

  it('counts extension characters as two septets', () => {
    expect(countSegments('{}')).toEqual({ encoding: 'gsm7', characters: 4, parts: 1, chars_left: 156 })
    expect(countSegments('€\f^\\[~]|')).toMatchObject({ encoding: 'gsm7', characters: 16 })
    expect(countSegments('a'.repeat(159) + '€')).toMatchObject({ characters: 161, parts: 2 })
  })

  it('does not split an escape pair across parts', () => {
    // 152 septets then a two-septet € does not fit the first 153-septet part.
    const r = countSegments('a'.repeat(152) + '€' + 'b'.repeat(10))
    expect(r).toEqual({ encoding: 'gsm7', characters: 164, parts: 2, chars_left: 153 - 12 })
  })

  it('switches to UCS-2 for Persian text', () => {
    expect(countSegments('سلام')).toEqual({ encoding: 'ucs2', characters: 4, parts: 1, chars_left: 66 })
    expect(countSegments('س'.repeat(70))).toMatchObject({ parts: 1, chars_left: 0 })
    expect(countSegments('س'.repeat(71))).toEqual({ encoding: 'ucs2', characters: 71, parts: 2, chars_left: 63 })
    expect(countSegments('س'.repeat(134))).toMatchObject({ parts: 2, chars_left: 0 })
    expect(countSegments('س'.repeat(135))).toMatchObject({ parts: 3, chars_left: 66 })
  })

  it('counts surrogate pairs as two units and never splits them', () => {
    expect(countSegments('😀')).toEqual({ encoding: 'ucs2', characters: 2, parts: 1, chars_left: 68 })
    const r = countSegments('س'.repeat(66) + '😀' + 'س')
    expect(r).toEqual({ encoding: 'ucs2', characters: 69, parts: 1, chars_left: 1 })
    const split = countSegments('س'.repeat(66) + '😀' + 'س'.repeat(5))
    expect(split).toEqual({ encoding: 'ucs2', characters: 73, parts: 2, chars_left: 67 - 7 })
  })

  it('appends the cancel-11 footer, forcing UCS-2', () => {
    expect(CANCEL11_FOOTER).toHaveLength(6)
    expect(countSegments('', true)).toEqual({ encoding: 'ucs2', characters: 6, parts: 1, chars_left: 64 })
    expect(countSegments('hello', true)).toEqual({ encoding: 'ucs2', characters: 11, parts: 1, chars_left: 59 })
    expect(countSegments('س'.repeat(64), true)).toMatchObject({ parts: 1, chars_left: 0 })
    expect(countSegments('س'.repeat(65), true)).toMatchObject({ parts: 2 })
  })

  it('knows the GSM alphabet', () => {
    expect(isGsm7('Hello @ £ $ ¥ è é Ä ñ §¿ \n\r')).toBe(true)
    expect(isGsm7('`')).toBe(false)
    expect(isGsm7('سلام')).toBe(false)
    expect(isGsm7('ç')).toBe(false)
  })

  it('exposes the editor maximum', () => {
    expect(MAX_TEXT).toBe(2700)
  })
})
