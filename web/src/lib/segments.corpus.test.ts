import { describe, expect, it } from 'vitest'
import corpus from '../../../pkg/sms/testdata/segments_corpus.json'
import { countSegments } from './segments'

interface CorpusCase {
  name: string
  text: string
  cancel11: boolean
  encoding: 'gsm7' | 'ucs2'
  characters: number
  parts: number
  chars_left: number
}

// The same corpus the Go counter (pkg/sms) is tested against: both sides must agree.
describe('countSegments against the shared Go corpus', () => {
  const cases = corpus as CorpusCase[]

  it('has cases', () => {
    expect(cases.length).toBeGreaterThan(10)
  })

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    expect(countSegments(c.text, c.cancel11)).toEqual({
      encoding: c.encoding,
      characters: c.characters,
      parts: c.parts,
      chars_left: c.chars_left,
    })
  })
})
