import { describe, expect, it } from 'vitest'
import { availableControls } from './StopSendButton'
import { isFinalStatus, sendStatusInfo } from '../../lib/statuses'

describe('sends under review', () => {
  it('a held send reads «در حال بررسی» and can only be cancelled', () => {
    expect(sendStatusInfo('held').label).toBe('در حال بررسی')
    expect(availableControls({ status: 'held' })).toEqual(['stop'])
    expect(isFinalStatus('held')).toBe(false)
  })

  it('a blocked send reads «مسدود» and is final', () => {
    expect(sendStatusInfo('blocked').label).toBe('مسدود')
    expect(availableControls({ status: 'blocked' })).toEqual([])
    expect(isFinalStatus('blocked')).toBe(true)
  })
})
