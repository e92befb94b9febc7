import { describe, expect, it } from 'vitest'
import { hasFilters, parseClassSearch } from './search-params'

describe('parseClassSearch', () => {
  it('keeps valid values with their types', () => {
    expect(
      parseClassSearch({
        q: ' 英語 ',
        category: 3,
        grade: '5',
        style: 2,
        price_min: 0,
        price_max: '3000',
        from: '2026-11-01',
        to: '2026-12-31',
        sort: 'price_asc',
        page: 2,
      }),
    ).toEqual({
      q: '英語',
      category: 3,
      grade: 5,
      style: 2,
      price_min: 0,
      price_max: 3000,
      from: '2026-11-01',
      to: '2026-12-31',
      sort: 'price_asc',
      page: 2,
    })
  })
  it('falls back to defaults for invalid values instead of failing', () => {
    expect(
      parseClassSearch({
        q: '',
        category: 'abc',
        grade: -1,
        style: 1.5,
        price_min: 'cheap',
        price_max: 1e12,
        from: '2026-13-01',
        to: '2026-02-30',
        sort: 'random',
        page: 0,
        unknown: 'x',
      }),
    ).toEqual({})
  })
  it('reads objects the router parsed from `?x={…}` or `?x=[…]` as no value, never throwing', () => {
    // String() of these throws: `{toString: 1}` has no callable toString, a null-prototype object none at all.
    const unprintable = { toString: 1 }
    const bare = Object.create(null)
    const parsed = parseClassSearch({
      rating_min: unprintable,
      weekday: [unprintable, bare, 'sat'],
      time: [bare],
      q: bare,
      page: unprintable,
      sort: bare,
    })
    expect(Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined))).toEqual({
      weekday: 'sat',
    })
  })

  it('drops page 1 and truncates very long keywords', () => {
    expect(parseClassSearch({ page: 1 })).toEqual({})
    expect(parseClassSearch({ q: 'あ'.repeat(150) }).q).toHaveLength(100)
    expect(parseClassSearch({ q: 12345 }).q).toBe('12345')
  })
  it('swaps reversed ranges', () => {
    expect(parseClassSearch({ price_min: 5000, price_max: 1000 })).toEqual({
      price_min: 1000,
      price_max: 5000,
    })
    expect(parseClassSearch({ from: '2026-12-01', to: '2026-11-01' })).toEqual({
      from: '2026-11-01',
      to: '2026-12-01',
    })
  })
  it('knows when filters narrow the results', () => {
    expect(hasFilters({})).toBe(false)
    expect(hasFilters({ sort: 'new', page: 2 })).toBe(false)
    expect(hasFilters({ price_min: 0 })).toBe(true)
    expect(hasFilters({ q: '将棋' })).toBe(true)
  })
  it('names every key, so that an invalid value in the URL is overridden', () => {
    const out = parseClassSearch({ category: 'x', sort: 'random' })
    expect(Object.keys(out)).toEqual(expect.arrayContaining(['category', 'sort', 'page']))
    expect(out.category).toBeUndefined()
    expect(out.sort).toBeUndefined()
  })
})

describe('review filter and sort (issue 16)', () => {
  it('reads rating_min from the offered steps only, and sort=rating', () => {
    expect(parseClassSearch({ rating_min: '4.5', sort: 'rating' })).toMatchObject({
      rating_min: 4.5,
      sort: 'rating',
    })
    expect(parseClassSearch({ rating_min: 4 }).rating_min).toBe(4)
    for (const bad of ['5', '2', '4.2', 'abc', '', -1])
      expect(parseClassSearch({ rating_min: bad }).rating_min).toBeUndefined()
    expect(hasFilters(parseClassSearch({ rating_min: '3' }))).toBe(true)
  })
})

describe('weekday and time (issue 16)', () => {
  it('keeps the known keys in week order, from a comma list or an array', () => {
    expect(parseClassSearch({ weekday: 'sun,sat,xyz', time: ['evening', 'morning'] })).toMatchObject({
      weekday: 'sat,sun',
      time: 'morning,evening',
    })
    expect(parseClassSearch({ weekday: 'nope', time: '' })).toMatchObject({
      weekday: undefined,
      time: undefined,
    })
    expect(hasFilters(parseClassSearch({ time: 'evening' }))).toBe(true)
  })
})
