import { describe, expect, it } from 'vitest'
import { ageOn } from './age'

describe('ageOn (Tokyo days)', () => {
  it('counts a birthday from its Tokyo morning, whatever the time zone of the device', () => {
    // 2008-11-25 15:00Z is already the 26th in Tokyo.
    expect(ageOn('2008-11-26', new Date('2026-11-25T14:59:59Z'))).toBe(17)
    expect(ageOn('2008-11-26', new Date('2026-11-25T15:00:00Z'))).toBe(18)
    expect(ageOn('2000-02-29', new Date('2026-02-28T00:00:00Z'))).toBe(25)
  })
})
