import { describe, expect, it } from 'vitest'
import { parseMagazineSearch } from './search-params'

describe('parseMagazineSearch', () => {
  it('keeps valid values', () => {
    expect(parseMagazineSearch({ q: ' 英語 ', category: '学び方', tag: '家庭学習', page: '2' })).toEqual({
      q: '英語',
      category: '学び方',
      tag: '家庭学習',
      page: 2,
    })
  })
  it('drops invalid values, unknown keys and page 1', () => {
    expect(parseMagazineSearch({ q: '', category: ['x'], tag: {}, page: 'two', other: 1 })).toEqual({})
    expect(parseMagazineSearch({ page: 1 })).toEqual({})
    expect(parseMagazineSearch({ page: 0 })).toEqual({})
    expect(parseMagazineSearch({ tag: 2026 })).toEqual({ tag: '2026' })
    expect(parseMagazineSearch({ category: 'あ'.repeat(80) }).category).toHaveLength(50)
  })
  it('names every key, so that an invalid value in the URL is overridden', () => {
    const out = parseMagazineSearch({ page: 'x' })
    expect('page' in out && out.page === undefined).toBe(true)
  })
})
