import { describe, expect, it } from 'vitest'
import { searchSlots } from './class-works'

describe('searchSlots', () => {
  it('is weekday × 3 + part of the day, every part or day when only the other is asked', () => {
    expect(searchSlots({})).toBeUndefined()
    expect(searchSlots({ weekday: ['sat'], time: ['morning'] })).toEqual([15])
    expect(searchSlots({ weekday: ['mon', 'sun'] })).toEqual([0, 1, 2, 18, 19, 20])
    expect(searchSlots({ time: ['evening'] })).toEqual([2, 5, 8, 11, 14, 17, 20])
  })
})
