/**
 * Class cards (app/api/services/class-cards.ts) on the demo content: the extras a card adds to its row (target
 * grades in master order, the next open schedule, the favorite count) come from one statement; checked here
 * against plain queries, and cardsByIds against selectClassRows + toCards.
 */
import { asc, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardsByIds, selectClassRows, toCards } from '../../app/api/services/class-cards'
import { classWorks } from '../../app/db/schema'
import { openTestDatabase, type TestDatabase } from './support/test-db'

let database: TestDatabase
let db: TestDatabase['db']

beforeAll(async () => {
  database = await openTestDatabase()
  db = database.db
})
afterAll(async () => {
  await database?.close()
})

async function rowsOf<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows?: T[] } | T[]
  return Array.isArray(result) ? result : (result.rows ?? [])
}

describe('class cards', () => {
  it('carry grades in master order, the next open schedule and the favorite count', async () => {
    const rows = await selectClassRows(db).orderBy(asc(classWorks.id))
    expect(rows.length).toBeGreaterThan(0)
    const now = database.now
    const cards = await toCards(db, rows, now)
    expect(cards.map((c) => c.id)).toEqual(rows.map((r) => r.id))

    const grades = await rowsOf<{ class_work_id: number; id: number; name: string }>(sql`
      select g.class_work_id, t.id, t.name from class_work_target_grades g
      join target_grades t on t.id = g.target_grade_id order by t.sort_order, t.id`)
    const next = await rowsOf<{ class_work_id: number; id: number }>(sql`
      select distinct on (class_work_id) class_work_id, id from class_work_schedules
      where not is_canceled and started_at >= ${now.toISOString()}::timestamptz
      order by class_work_id, started_at, id`)
    const favorites = await rowsOf<{ class_work_id: number; n: number }>(sql`
      select class_work_id, count(*)::int as n from favorites group by class_work_id`)

    for (const card of cards) {
      expect(card.target_grades).toEqual(
        grades.filter((g) => g.class_work_id === card.id).map((g) => ({ id: g.id, name: g.name })),
      )
      expect(card.next_schedule?.id ?? null).toBe(next.find((s) => s.class_work_id === card.id)?.id ?? null)
      expect(card.favorite_count).toBe(favorites.find((f) => f.class_work_id === card.id)?.n ?? 0)
    }
    // The demo content has both kinds, so both branches above were exercised.
    expect(cards.some((c) => c.next_schedule)).toBe(true)
    expect(cards.some((c) => c.favorite_count > 0)).toBe(true)
    // Far enough ahead, nothing is upcoming.
    const later = await toCards(db, rows, new Date(now.getTime() + 10 * 365 * 86_400_000))
    expect(later.every((c) => c.next_schedule === null)).toBe(true)
  })

  it('cardsByIds gives the same cards as selectClassRows + toCards, in the order of the ids', async () => {
    const ids = (await db.select({ id: classWorks.id }).from(classWorks)).map((r) => r.id).reverse()
    const wanted = [...ids.slice(0, 5), 999_999]
    const rows = await selectClassRows(db).where(inArray(classWorks.id, wanted))
    const rowOf = new Map(rows.map((r) => [r.id, r]))
    const expected = await toCards(
      db,
      wanted.flatMap((id) => rowOf.get(id) ?? []),
      database.now,
    )
    expect(await cardsByIds(db, wanted, database.now)).toEqual(expected)
    expect(await cardsByIds(db, [], database.now)).toEqual([])
  })
})
