/**
 * Class cards (app/api/services/class-cards.ts) on the demo content: the extras a card adds to its row (target
 * grades in master order, the next open schedule, the favorite count) come from one statement; checked here
 * against plain queries, and cardsByIds against selectClassRows + toCards.
 */
import { asc, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cardsByIds, selectClassRows, toCards } from '../../app/api/services/class-cards'
import { rowsOf } from '../../app/db/rows'
import { classWorks, classWorkTargetGrades, targetGrades } from '../../app/db/schema'
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

async function rowsOfQuery<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await db.execute(query))
}

describe('class cards', () => {
  it('carry grades in master order, the next open schedule and the favorite count', async () => {
    const rows = await selectClassRows(db).orderBy(asc(classWorks.id))
    expect(rows.length).toBeGreaterThan(0)
    const now = database.now
    const cards = await toCards(db, rows, now)
    expect(cards.map((c) => c.id)).toEqual(rows.map((r) => r.id))

    const grades = await rowsOfQuery<{ class_work_id: number; id: number; name: string }>(sql`
      select g.class_work_id, t.id, t.name from class_work_target_grades g
      join target_grades t on t.id = g.target_grade_id order by t.sort_order, t.id`)
    const next = await rowsOfQuery<{ class_work_id: number; id: number }>(sql`
      select distinct on (class_work_id) class_work_id, id from class_work_schedules
      where not is_canceled and started_at >= ${now.toISOString()}::timestamptz
      order by class_work_id, started_at, id`)
    const favorites = await rowsOfQuery<{ class_work_id: number; n: number }>(sql`
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
    // The statement is built once per database: a second call with other ids and another time answers for those.
    const later = new Date(database.now.getTime() + 10 * 365 * 86_400_000)
    const [one] = await cardsByIds(db, [wanted[1]!], later)
    expect(one?.id).toBe(wanted[1])
    expect(one?.next_schedule).toBeNull()
  })

  // One session on PGlite, so its prepared statements are all in pg_prepared_statements (on PostgreSQL they are
  // spread over the pool's connections).
  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    'cardsByIds settles on one generic plan for any page of ids instead of planning every call',
    async () => {
      const ids = (await db.select({ id: classWorks.id }).from(classWorks)).map((r) => r.id)
      for (let i = 0; i < 12; i++) await cardsByIds(db, ids.slice(i, i + 3 + (i % 5)), database.now)
      const [plans] = await rowsOfQuery<{ generic_plans: number; custom_plans: number }>(sql`
        select generic_plans::int, custom_plans::int from pg_prepared_statements
        where statement like '%plan_opaque%'`)
      // PostgreSQL plans the first five calls for their values, then keeps the generic plan.
      expect(plans?.custom_plans).toBeLessThanOrEqual(5)
      expect(plans?.generic_plans).toBeGreaterThanOrEqual(7)
    },
  )

  it("keep a class's grades on its row as they are edited, and follow a renamed or reordered grade", async () => {
    const gradesOf = async (id: number) => (await cardsByIds(db, [id], database.now))[0]?.target_grades
    const [cls] = await db.select({ id: classWorks.id }).from(classWorks).orderBy(asc(classWorks.id)).limit(1)
    const id = cls!.id
    const master = await db.select().from(targetGrades).orderBy(asc(targetGrades.sortOrder))
    const [a, , c] = master
    // Replaced in one transaction, as the class editor does: the card shows the new set in master order.
    await db.transaction(async (tx) => {
      await tx.delete(classWorkTargetGrades).where(eq(classWorkTargetGrades.classWorkId, id))
      await tx.insert(classWorkTargetGrades).values([
        { classWorkId: id, targetGradeId: c!.id },
        { classWorkId: id, targetGradeId: a!.id },
      ])
    })
    expect(await gradesOf(id)).toEqual([
      { id: a!.id, name: a!.name },
      { id: c!.id, name: c!.name },
    ])
    // A renamed grade and a new master order reach the class's row.
    await db.update(targetGrades).set({ name: '改名した学年' }).where(eq(targetGrades.id, c!.id))
    await db.update(targetGrades).set({ sortOrder: -1 }).where(eq(targetGrades.id, c!.id))
    expect(await gradesOf(id)).toEqual([
      { id: c!.id, name: '改名した学年' },
      { id: a!.id, name: a!.name },
    ])
    // Removing every grade leaves an empty list.
    await db.delete(classWorkTargetGrades).where(eq(classWorkTargetGrades.classWorkId, id))
    expect(await gradesOf(id)).toEqual([])
  })
})
