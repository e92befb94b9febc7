import { describe, expect, it } from 'vitest'
import { findOverlap, isoToTokyoLocal, periodsOverlap, tokyoLocalToIso } from './schedule-overlap'

const p = (a: string, b: string) => ({ startedAt: new Date(a), endedAt: new Date(b) })

describe('schedule overlap', () => {
  it('overlapping periods', () => {
    expect(
      periodsOverlap(
        p('2026-01-01T10:00Z', '2026-01-01T11:00Z'),
        p('2026-01-01T10:30Z', '2026-01-01T11:30Z'),
      ),
    ).toBe(true)
    expect(
      periodsOverlap(
        p('2026-01-01T10:00Z', '2026-01-01T12:00Z'),
        p('2026-01-01T10:30Z', '2026-01-01T11:00Z'),
      ),
    ).toBe(true)
  })

  it('back-to-back periods do not overlap', () => {
    expect(
      periodsOverlap(
        p('2026-01-01T10:00Z', '2026-01-01T11:00Z'),
        p('2026-01-01T11:00Z', '2026-01-01T12:00Z'),
      ),
    ).toBe(false)
    expect(
      periodsOverlap(
        p('2026-01-01T12:00Z', '2026-01-01T13:00Z'),
        p('2026-01-01T10:00Z', '2026-01-01T11:00Z'),
      ),
    ).toBe(false)
  })

  it('finds the first overlap', () => {
    const others = [p('2026-01-01T08:00Z', '2026-01-01T09:00Z'), p('2026-01-01T10:30Z', '2026-01-01T11:30Z')]
    expect(findOverlap(p('2026-01-01T10:00Z', '2026-01-01T11:00Z'), others)).toBe(others[1])
    expect(findOverlap(p('2026-01-01T12:00Z', '2026-01-01T13:00Z'), others)).toBeUndefined()
  })

  it('reads datetime-local values as Tokyo time', () => {
    expect(tokyoLocalToIso('2026-11-21T10:00')).toBe('2026-11-21T01:00:00.000Z')
    expect(tokyoLocalToIso('')).toBeUndefined()
    expect(isoToTokyoLocal('2026-11-21T01:00:00.000Z')).toBe('2026-11-21T10:00')
  })
})
