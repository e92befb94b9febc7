import { describe, expect, it } from 'vitest'
import { formatMonthJa, isMonth, shiftMonth, tokyoMonth, tokyoMonthRange } from './month'

describe('Tokyo months', () => {
  it('finds the Tokyo month of an instant (UTC+9)', () => {
    expect(tokyoMonth(new Date('2026-10-31T14:59:59Z'))).toBe('2026-10')
    expect(tokyoMonth(new Date('2026-10-31T15:00:00Z'))).toBe('2026-11')
    expect(tokyoMonth(new Date('2026-12-31T15:00:00Z'))).toBe('2027-01')
  })

  it('gives [start, end) of a month', () => {
    const r = tokyoMonthRange('2026-11')
    expect(r.start.toISOString()).toBe('2026-10-31T15:00:00.000Z')
    expect(r.end.toISOString()).toBe('2026-11-30T15:00:00.000Z')
    expect(tokyoMonthRange('2026-12').end.toISOString()).toBe('2026-12-31T15:00:00.000Z')
    expect(() => tokyoMonthRange('2026-13')).toThrow()
  })

  it('shifts across years', () => {
    expect(shiftMonth('2026-01', -1)).toBe('2025-12')
    expect(shiftMonth('2026-12', 1)).toBe('2027-01')
    expect(shiftMonth('2026-05', -12)).toBe('2025-05')
  })

  it('validates and formats', () => {
    expect(isMonth('2026-02')).toBe(true)
    expect(isMonth('2026-2')).toBe(false)
    // Years 0–99 would be read as 1900–1999 by Date.UTC: refused, as is a year past 2099.
    expect(isMonth('0024-03')).toBe(false)
    expect(isMonth('2100-01')).toBe(false)
    expect(isMonth('1999-12')).toBe(true)
    expect(formatMonthJa('2026-02')).toBe('2026年2月')
  })
})
