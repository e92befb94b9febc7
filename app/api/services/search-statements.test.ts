import { fillPlaceholders } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { drizzle } from 'drizzle-orm/pglite'
import { describe, expect, it } from 'vitest'
import type { SearchSort } from '../../contract/v1/class-works'
import type { Db } from '../../db/client'
import * as schema from '../../db/schema'
import {
  classWorkSearchQueries,
  countedPageTemplate,
  type SearchParams,
  searchStatementKey,
  searchValues,
} from './class-works'

// Building statements needs no connection.
const db = drizzle.mock({ schema }) as unknown as Db
const dialect = new PgDialect()

const WORDS = ['英語', 'ピアノ', '陶', 'a', 'プログラミング', '絵', 'ダンス', 'はじめて', 'math']
const SORTS: (SearchSort | undefined)[] = [
  undefined,
  'new',
  'start',
  'price_asc',
  'price_desc',
  'popular',
  'rating',
]
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
const TIMES = ['morning', 'afternoon', 'evening'] as const

/** A seeded generator, so that a failure names a search that can be made again. */
function generator(seed: number) {
  let x = seed
  const next = () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31
    return x / 2 ** 31
  }
  const int = (n: number) => Math.floor(next() * n)
  const maybe = <T>(make: () => T): T | undefined => (next() < 0.4 ? make() : undefined)
  const some = <T>(list: readonly T[]) => [
    ...new Set(Array.from({ length: 1 + int(3) }, () => list[int(list.length)]!)),
  ]
  return (): SearchParams => {
    const p: SearchParams = {
      q: maybe(() =>
        Array.from({ length: 1 + int(11) }, () => WORDS[int(WORDS.length)]).join(next() < 0.5 ? ' ' : '　'),
      ),
      category: maybe(() => 1 + int(20)),
      style: maybe(() => 1 + int(5)),
      price_min: maybe(() => int(5000)),
      price_max: maybe(() => int(50_000)),
      grade: maybe(() => 1 + int(12)),
      rating_min: maybe(() => 1 + int(9) / 2),
      weekday: maybe(() => some(WEEKDAYS)),
      time: maybe(() => some(TIMES)),
      from: maybe(() => `2026-12-${String(1 + int(28)).padStart(2, '0')}`),
      to: maybe(() => `2027-01-${String(1 + int(28)).padStart(2, '0')}`),
      sort: SORTS[int(SORTS.length)],
      now: maybe(() => new Date(Date.UTC(2026, 11, 1 + int(40), int(24)))),
    }
    return Object.fromEntries(Object.entries(p).filter(([, value]) => value !== undefined)) as SearchParams
  }
}

describe('countedPageTemplate', () => {
  it('is, filled with the values of any search of its key, the statement written for that search', () => {
    const next = generator(20261205)
    const templates = new Map<string, { sql: string; params: unknown[] }>()
    for (let i = 0; i < 2000; i++) {
      const p = next()
      const v = searchValues(p)
      const key = searchStatementKey(v, p.sort)
      // The first search of a key makes its template, as countedPageRows keeps the first statement it builds.
      let template = templates.get(key)
      if (!template) {
        template = dialect.sqlToQuery(countedPageTemplate(db, v, p.sort))
        templates.set(key, template)
      }
      // Not 0: written in, a zero offset leaves the clause out (the template keeps it, and 0 fills it alike).
      const offset = 20 * (1 + (i % 4))
      const written = dialect.sqlToQuery(classWorkSearchQueries(db, p).countedPage(offset))
      expect(template.sql, JSON.stringify(p)).toBe(written.sql)
      expect(fillPlaceholders(template.params, { ...v, offset }), JSON.stringify(p)).toEqual(written.params)
    }
    // Many searches share a key, or the comparison above would prove little.
    expect(templates.size).toBeGreaterThan(100)
    expect(templates.size).toBeLessThan(1900)
  })

  it('keys searches that differ only in their values alike, and searches that differ in their filters apart', () => {
    const key = (p: SearchParams) => searchStatementKey(searchValues(p), p.sort)
    expect(key({ q: '英語', price_max: 3000 })).toBe(key({ q: 'ピアノ', price_max: 5_000_001 }))
    expect(key({ q: '英語' })).not.toBe(key({ q: '英語 ピアノ' }))
    expect(key({ q: '英語' })).not.toBe(key({ q: '英語', sort: 'popular' }))
    expect(key({ weekday: ['mon'] })).not.toBe(key({ weekday: ['mon', 'tue'] }))
    expect(key({ from: '2026-12-01' })).not.toBe(key({ to: '2026-12-01' }))
  })
})
