import { describe, expect, it } from 'vitest'
import { dragState, dragStep } from './swipe'

describe('carousel drag', () => {
  it('becomes a drag after 15 px across, a scroll after 10 px down first', () => {
    expect(dragState('pending', 14, 0)).toBe('pending')
    expect(dragState('pending', 15, 3)).toBe('drag')
    expect(dragState('pending', -20, 4)).toBe('drag')
    expect(dragState('pending', 4, 10)).toBe('scroll')
    expect(dragState('pending', 9, -9)).toBe('pending')
    expect(dragState('pending', 16, 18)).toBe('scroll')
    expect(dragState('scroll', 200, 0)).toBe('scroll')
    expect(dragState('drag', 0, 200)).toBe('drag')
  })
  it('changes the slide past a tenth of the width, right-to-left', () => {
    expect(dragStep('drag', 79, 800)).toBe(0)
    expect(dragStep('drag', 80, 800)).toBe(1)
    expect(dragStep('drag', -80, 800)).toBe(-1)
    expect(dragStep('scroll', 300, 800)).toBe(0)
    expect(dragStep('pending', 300, 800)).toBe(0)
    expect(dragStep('drag', 50, 0)).toBe(0)
  })
})
