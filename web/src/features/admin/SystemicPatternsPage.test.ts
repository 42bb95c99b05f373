import { describe, expect, it } from 'vitest'
import { parseVariables } from './SystemicPatternsPage'

describe('parseVariables', () => {
  it('reads one variable a line with defaults', () => {
    expect(parseVariables('code,integer,6\nname\n\n date , string , x')).toEqual([
      { name: 'code', type: 'integer', length: 6 },
      { name: 'name', type: 'string', length: 20 },
      { name: 'date', type: 'string', length: 20 },
    ])
  })
})
