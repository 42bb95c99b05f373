import { describe, expect, it } from 'vitest'
import { wordDiff } from './textDiff'

describe('wordDiff', () => {
  it('marks changed words', () => {
    expect(wordDiff('کد ورود: %code%', 'کد تازه: %code%')).toEqual([
      { op: 'same', text: 'کد ' },
      { op: 'add', text: 'تازه:' },
      { op: 'del', text: 'ورود:' },
      { op: 'same', text: ' %code%' },
    ])
  })
  it('handles empty sides', () => {
    expect(wordDiff('', 'a b')).toEqual([{ op: 'add', text: 'a b' }])
    expect(wordDiff('a', '')).toEqual([{ op: 'del', text: 'a' }])
    expect(wordDiff('same', 'same')).toEqual([{ op: 'same', text: 'same' }])
  })
})
