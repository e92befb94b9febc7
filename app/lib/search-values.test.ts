import { describe, expect, it } from 'vitest'
import { calendarDay, intIn, oneOf, textUpTo } from './search-values'

describe('search value readers', () => {
  it('intIn reads integers from numbers and numeric text within range', () => {
    expect(intIn(3, 1, 10)).toBe(3)
    expect(intIn('7', 1, 10)).toBe(7)
    expect(intIn(' 7 ', 1, 10)).toBe(7)
    for (const bad of [0, 11, 1.5, '1.5', 'abc', '', '1e3', true, null, [2], {}, Number.NaN]) {
      expect(intIn(bad, 1, 10), String(bad)).toBeUndefined()
    }
  })
  it('textUpTo trims, cuts and turns numbers into text', () => {
    expect(textUpTo(' 英語 ', 10)).toBe('英語')
    expect(textUpTo(2026, 10)).toBe('2026')
    expect(textUpTo('abcdef', 3)).toBe('abc')
    expect(textUpTo('  ', 3)).toBeUndefined()
    expect(textUpTo(['x'], 3)).toBeUndefined()
    // Control characters would reach the database and be refused there (a NUL): spaces instead.
    expect(textUpTo('英\u0000語', 10)).toBe('英 語')
    expect(textUpTo('\u0000', 10)).toBeUndefined()
  })
  it('calendarDay accepts real days only', () => {
    expect(calendarDay('2026-11-01')).toBe('2026-11-01')
    expect(calendarDay('2028-02-29')).toBe('2028-02-29')
    // This century only: the database has no year 0, and no lesson is held in 0001 or 9999.
    expect(calendarDay('0001-01-01')).toBeUndefined()
    expect(calendarDay('1999-12-31')).toBeUndefined()
    expect(calendarDay('2100-01-01')).toBeUndefined()
    for (const bad of ['2026-02-30', '2026-13-01', '2026-1-1', 20261101, ''])
      expect(calendarDay(bad)).toBeUndefined()
  })
  it('oneOf accepts listed words only', () => {
    expect(oneOf('new', ['new', 'old'] as const)).toBe('new')
    expect(oneOf('x', ['new'] as const)).toBeUndefined()
  })
})
