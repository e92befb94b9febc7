import { describe, expect, it } from 'vitest'
import { scrollClasses } from './scroll'

describe('scrollClasses', () => {
  it('marks scrolled from 10 px', () => {
    expect(scrollClasses(9, 800, 5000).scrolled).toBe(false)
    expect(scrollClasses(10, 800, 5000).scrolled).toBe(true)
  })
  it('marks the end within 10 % of a viewport of the bottom', () => {
    // bottom edge at 4200 + 800 = 5000 - 0 → end
    expect(scrollClasses(4200, 800, 5000).scrollEnd).toBe(true)
    // 80 px (10 % of 800) above the bottom still counts
    expect(scrollClasses(4120, 800, 5000).scrollEnd).toBe(true)
    expect(scrollClasses(4119, 800, 5000).scrollEnd).toBe(false)
  })
})
