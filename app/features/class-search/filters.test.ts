import { describe, expect, it } from 'vitest'
import { activeFilters, clearFilters, fromDraft, searchKey, toDraft, withoutFilter } from './filters'

const names = {
  categories: [{ id: 2, name: '英語' }],
  targetGrades: [{ id: 5, name: '小学4年' }],
  classStyles: [{ id: 1, name: '1対1' }],
}

describe('activeFilters', () => {
  it('labels every active filter, ranges as one', () => {
    expect(
      activeFilters(
        {
          q: 'フォニックス',
          category: 2,
          grade: 5,
          style: 1,
          price_min: 1000,
          price_max: 3000,
          from: '2026-11-01',
          to: '2026-11-30',
          sort: 'new',
          page: 2,
        },
        names,
      ),
    ).toEqual([
      { key: 'q', label: '「フォニックス」' },
      { key: 'category', label: '英語' },
      { key: 'grade', label: '小学4年' },
      { key: 'style', label: '1対1' },
      { key: 'price', label: '1,000円〜3,000円' },
      { key: 'date', label: '2026/11/1〜2026/11/30' },
    ])
  })
  it('names free classes and open-ended ranges', () => {
    expect(activeFilters({ price_max: 0 }, names)).toEqual([{ key: 'price', label: '無料' }])
    expect(activeFilters({ price_min: 500 }, names)).toEqual([{ key: 'price', label: '500円〜' }])
    expect(activeFilters({ to: '2026-12-24' }, names)).toEqual([{ key: 'date', label: '〜2026/12/24' }])
    expect(activeFilters({ category: 99 }, names)).toEqual([{ key: 'category', label: '#99' }])
    expect(activeFilters({ sort: 'popular' }, names)).toEqual([])
  })
})

describe('withoutFilter and clearFilters', () => {
  const p = {
    q: '英語',
    category: 2,
    price_min: 0,
    price_max: 1000,
    from: '2026-11-01',
    sort: 'start' as const,
    page: 3,
  }
  it('drops one filter (ranges whole) and the page', () => {
    expect(withoutFilter(p, 'q')).toEqual({
      category: 2,
      price_min: 0,
      price_max: 1000,
      from: '2026-11-01',
      sort: 'start',
    })
    expect(withoutFilter(p, 'price')).toEqual({ q: '英語', category: 2, from: '2026-11-01', sort: 'start' })
    expect(withoutFilter(p, 'date')).toEqual({
      q: '英語',
      category: 2,
      price_min: 0,
      price_max: 1000,
      sort: 'start',
    })
  })
  it('keeps only the sort when clearing', () => {
    expect(clearFilters(p)).toEqual({ sort: 'start' })
    expect(clearFilters({ q: 'x' })).toEqual({})
  })
})

describe('the filter form', () => {
  it('round-trips a search through the draft, on page one with the sort kept', () => {
    const p = { q: '将棋', grade: 5, price_max: 2000, to: '2026-12-01', sort: 'price_asc' as const, page: 4 }
    expect(fromDraft(toDraft(p), p)).toEqual({
      q: '将棋',
      grade: 5,
      price_max: 2000,
      to: '2026-12-01',
      sort: 'price_asc',
    })
  })
  it('drops blank and invalid fields', () => {
    const draft = {
      ...toDraft({}),
      q: '  ',
      category: 'abc',
      price_min: '-5',
      from: '2026-02-31',
      style: '1',
    }
    expect(fromDraft(draft, {})).toEqual({ style: 1 })
  })
})

describe('searchKey', () => {
  it('ignores key order and unset values', () => {
    expect(searchKey({ q: 'a', page: undefined, category: 2 })).toBe(searchKey({ category: 2, q: 'a' }))
    expect(searchKey({ q: 'a' })).not.toBe(searchKey({ q: 'b' }))
  })
})
