import '@tanstack/react-start/server-only'
import { type SQL, sql } from 'drizzle-orm'
import type { Db } from './client'

/**
 * Writes the keys the row triggers of migrations 0004, 0018 and 0022 keep on a class — seats sold, next start,
 * upcoming slots, target grade ids and the card grades — from its schedule and grade rows: for bulk loads made with
 * those triggers off (the scale seed, bench:search). `ids` limits it to those classes (a seed's batch), so a batch
 * costs the same at any catalogue size; without it, every class.
 *
 * `now` is the caller's clock, as refreshNextStarts uses it: a schedule at or after it counts as upcoming.
 */
export async function recomputeSearchKeys(db: Db, now: Date, ids?: readonly number[]): Promise<void> {
  if (ids?.length === 0) return
  // One text parameter, not a list: drizzle would spread a JS array into one parameter per id.
  const only = (column: SQL) => (ids ? sql`and ${column} = any(${`{${ids.join(',')}}`}::int[])` : sql``)
  const at = sql`${now.toISOString()}::timestamptz`
  await db.execute(sql`
    update class_works c set seats_sold = coalesce(k.seats, 0), next_start_at = k.next,
      upcoming_slots = coalesce(k.slots, '{}'),
      target_grade_ids = coalesce((select array_agg(g.target_grade_id order by g.target_grade_id)
        from class_work_target_grades g where g.class_work_id = c.id), '{}')
    from class_works c2 left join (
      select class_work_id,
        sum(purchased_count) filter (where not is_canceled) as seats,
        min(started_at) filter (where not is_canceled and started_at >= ${at}) as next,
        array_agg(distinct slot order by slot) filter (where not is_canceled and started_at >= ${at}) as slots
      from class_work_schedules where true ${only(sql`class_work_id`)} group by class_work_id
    ) k on k.class_work_id = c2.id
    where c2.id = c.id ${only(sql`c2.id`)}`)
  // The cards' grades (class_card_grades), as class_card_grades_refresh keeps them: a row per class with grades.
  await db.execute(sql`
    insert into class_card_grades (class_work_id, grades)
    select id, card_grades_of(id) from class_works where target_grade_ids <> '{}' ${only(sql`id`)}
    on conflict (class_work_id) do update set grades = excluded.grades`)
  await db.execute(sql`
    delete from class_card_grades g using class_works c
    where c.id = g.class_work_id and c.target_grade_ids = '{}' ${only(sql`c.id`)}`)
}
