import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rowsOf } from '../../app/db/rows'
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

describe('the scale seed (npm run db:seed:scale)', () => {
  it('writes the search keys the row triggers would keep, with the triggers off', async () => {
    const [{ before }] = (await rows(sql`SELECT max(id) AS before FROM class_works`)) as [{ before: number }]
    expect(await seedScale(t.db, { count: 620, now: t.now })).toBe(620)

    // Every key recomputed from the rows, as the triggers of migrations 0004 and 0018 compute it.
    const wrong = await rows(sql`
      SELECT c.id FROM class_works c
      LEFT JOIN class_card_grades cg ON cg.class_work_id = c.id
      WHERE c.id > ${before} AND (
        c.seats_sold IS DISTINCT FROM (SELECT coalesce(sum(s.purchased_count), 0)::int FROM class_work_schedules s
          WHERE s.class_work_id = c.id AND NOT s.is_canceled)
        OR c.target_grade_ids IS DISTINCT FROM (SELECT array_agg(g.target_grade_id ORDER BY g.target_grade_id)
          FROM class_work_target_grades g WHERE g.class_work_id = c.id)
        OR c.next_start_at IS DISTINCT FROM (SELECT min(s.started_at) FROM class_work_schedules s
          WHERE s.class_work_id = c.id AND NOT s.is_canceled AND s.started_at >= now())
        OR c.upcoming_slots IS DISTINCT FROM (SELECT coalesce(array_agg(DISTINCT s.slot ORDER BY s.slot), '{}')
          FROM class_work_schedules s WHERE s.class_work_id = c.id AND NOT s.is_canceled AND s.started_at >= now())
        OR cg.grades::text IS DISTINCT FROM card_grades_of(c.id)::text
      )`)
    expect(wrong).toEqual([])

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
