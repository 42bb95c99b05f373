import { describe, expect, it } from 'vitest'
import { emptyReader, joinWords, replyLabels, splitWords, variablesOf } from './model'

describe('secretary model', () => {
  it('splits keywords on Latin and Persian commas and new lines', () => {
    expect(splitWords(' نظر، poll ,\nرای ,, ')).toEqual(['نظر', 'poll', 'رای'])
    expect(joinWords(['نظر', 'poll'])).toBe('نظر، poll')
    expect(joinWords(null)).toBe('')
  })
  it('offers each kind its variables and reply boxes', () => {
    expect(variablesOf('gift')).toEqual(['mobile', 'title', 'code'])
    expect(variablesOf('feedback')).toEqual(['mobile', 'title'])
    expect(replyLabels('contest').repeat).toBeDefined()
    expect(replyLabels('secretary').wrong).toBeUndefined()
  })
  it('starts a poll with two empty options and other kinds with none', () => {
    expect(emptyReader('poll').options).toHaveLength(2)
    expect(emptyReader('gift').options).toBeNull()
  })
})
