import { type SQL, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rowsOf } from '../../app/db/rows'
import { recomputeSearchKeys } from '../../app/db/search-keys'
import { seedScale } from '../../app/db/seed/scale'
import { openTestDatabase, type TestDatabase } from './support/test-db'

let t: TestDatabase
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(async () => {
  await t?.close()
})

type Row = Record<string, unknown>
const rows = async (query: ReturnType<typeof sql>) => rowsOf<Row>(await t.db.execute(query))

/**
 * The classes (of those `where` selects) whose kept keys differ from their rows, each key computed independently the
 * way the triggers of migrations 0004, 0018 and 0022 compute it, at the test's clock.
 */
async function classesWithWrongKeys(where: SQL): Promise<number[]> {
  const at = sql`${t.now.toISOString()}::timestamptz`
  const wrong = await rows(sql`
    SELECT c.id FROM class_works c
    LEFT JOIN class_card_grades cg ON cg.class_work_id = c.id
    WHERE ${where} AND (
      c.seats_sold IS DISTINCT FROM (SELECT coalesce(sum(s.purchased_count), 0)::int FROM class_work_schedules s
        WHERE s.class_work_id = c.id AND NOT s.is_canceled)
      OR c.target_grade_ids IS DISTINCT FROM (SELECT coalesce(array_agg(g.target_grade_id ORDER BY g.target_grade_id), '{}')
        FROM class_work_target_grades g WHERE g.class_work_id = c.id)
      OR c.next_start_at IS DISTINCT FROM (SELECT min(s.started_at) FROM class_work_schedules s
        WHERE s.class_work_id = c.id AND NOT s.is_canceled AND s.started_at >= ${at})
      OR c.upcoming_slots IS DISTINCT FROM (SELECT coalesce(array_agg(DISTINCT s.slot ORDER BY s.slot), '{}')
        FROM class_work_schedules s WHERE s.class_work_id = c.id AND NOT s.is_canceled AND s.started_at >= ${at})
      OR cg.grades::text IS DISTINCT FROM card_grades_of(c.id)::text
    ) ORDER BY c.id`)
  return wrong.map((r) => Number(r.id))
}

describe('recomputeSearchKeys (bulk loads with the triggers off)', () => {
  it('writes the given classes keys from their rows and leaves the others alone; without ids, every class', async () => {
    const demo = rowsOf<{ id: number }>(
      await t.db.execute(
        sql`SELECT id FROM class_works WHERE cardinality(target_grade_ids) > 0 ORDER BY id LIMIT 3`,
      ),
    ).map((r) => Number(r.id))
    expect(demo).toHaveLength(3)
    const [a, b, noGrades] = demo as [number, number, number]
    const inDemo = sql`c.id IN (${a}, ${b}, ${noGrades})`

    // Keys gone wrong, as rows written with the triggers off leave them; the third class loses its grades.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL session_replication_role = replica`)
      await tx.execute(sql`UPDATE class_works SET seats_sold = 999, next_start_at = NULL, upcoming_slots = '{}',
        target_grade_ids = '{}' WHERE id IN (${a}, ${b})`)
      await tx.execute(sql`DELETE FROM class_card_grades WHERE class_work_id IN (${a}, ${b})`)
      await tx.execute(sql`DELETE FROM class_work_target_grades WHERE class_work_id = ${noGrades}`)
    })
    expect(await classesWithWrongKeys(inDemo)).toEqual([a, b, noGrades])

    await recomputeSearchKeys(t.db, t.now, [a, noGrades])
    expect(await classesWithWrongKeys(inDemo)).toEqual([b])
    const [{ cards }] = (await rows(
      sql`SELECT count(*)::int AS cards FROM class_card_grades WHERE class_work_id = ${noGrades}`,
    )) as [{ cards: number }]
    expect(cards).toBe(0)

    await recomputeSearchKeys(t.db, t.now, [])
    expect(await classesWithWrongKeys(inDemo)).toEqual([b])
    await recomputeSearchKeys(t.db, t.now)
    expect(await classesWithWrongKeys(sql`true`)).toEqual([])
  })
})

describe('the scale seed (npm run db:seed:scale)', () => {
  it('writes the search keys the row triggers would keep, with the triggers off', async () => {
    const [{ before }] = (await rows(sql`SELECT max(id) AS before FROM class_works`)) as [{ before: number }]
    expect(await seedScale(t.db, { count: 620, now: t.now })).toBe(620)

    expect(await classesWithWrongKeys(sql`c.id > ${before}`)).toEqual([])

    // Two batches of 500 and 120, each with its three schedules and at least one grade, all published.
    const [counts] = (await rows(sql`
      SELECT count(*)::int AS classes,
        count(*) FILTER (WHERE c.is_published AND c.next_start_at IS NOT NULL AND cardinality(c.target_grade_ids) > 0)::int AS keyed,
        (SELECT count(*)::int FROM class_work_schedules s WHERE s.class_work_id > ${before}) AS schedules
      FROM class_works c WHERE c.id > ${before}`)) as [Row]
    expect(counts).toEqual({ classes: 620, keyed: 620, schedules: 1860 })
  })

  it('leaves the triggers on for the app afterwards', async () => {
    const [{ role }] = (await rows(sql`SELECT current_setting('session_replication_role') AS role`)) as [
      { role: string },
    ]
    expect(role).toBe('origin')
    // A schedule written by the app moves its class's seats through the trigger.
    const [{ id }] = (await rows(sql`SELECT max(id) AS id FROM class_works`)) as [{ id: number }]
    const [{ sold }] = (await rows(sql`SELECT seats_sold AS sold FROM class_works WHERE id = ${id}`)) as [
      { sold: number },
    ]
    await t.db.execute(sql`INSERT INTO class_work_schedules (class_work_id, started_at, ended_at, capacity, purchased_count)
      VALUES (${id}, now() + interval '3 days', now() + interval '3 days 1 hour', 5, 2)`)
    const [after] = (await rows(sql`SELECT seats_sold AS sold FROM class_works WHERE id = ${id}`)) as [
      { sold: number },
    ]
    expect(after.sold).toBe(sold + 2)
  })
})
