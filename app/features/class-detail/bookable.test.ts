import { describe, expect, it } from 'vitest'
import { hasBookableLesson } from './bookable'

const now = '2026-12-05T10:00:00.000Z'
const lesson = (started_at: string, is_canceled = false) => ({ started_at, is_canceled })

describe('hasBookableLesson', () => {
  it('is true for a lesson still to start', () => {
    expect(hasBookableLesson([lesson('2026-12-05T10:00:01.000Z')], now)).toBe(true)
  })
  it('is false with no lessons, only cancelled ones, or only ones started or under way', () => {
    expect(hasBookableLesson([], now)).toBe(false)
    expect(hasBookableLesson([lesson('2026-12-06T10:00:00.000Z', true)], now)).toBe(false)
    expect(hasBookableLesson([lesson(now), lesson('2026-12-05T09:30:00.000Z')], now)).toBe(false)
  })
  it('is true when one of several can be booked', () => {
    expect(
      hasBookableLesson([lesson('2026-12-06T10:00:00.000Z', true), lesson('2026-12-07T10:00:00.000Z')], now),
    ).toBe(true)
  })
})
