import { asc, inArray, sql } from 'drizzle-orm'
import type { Lesson } from '../../contract/v1/common'
import type { DbOrTx } from '../../db/client'
import { classWorkScheduleLessons } from '../../db/schema'

/**
 * The lessons of schedules (全N回, docs/decisions/0024). A course run keeps its N lessons in
 * class_work_schedule_lessons; a single lesson has no rows and is its own period. Every reader goes through here,
 * so "a schedule is one or N lessons" is decided in one place.
 */

export interface LessonPeriod {
  startedAt: Date
  endedAt: Date
}

/** The lessons of each schedule that has rows (course runs), in order; one query for any number of schedules. */
export async function courseLessonsOf(
  db: DbOrTx,
  scheduleIds: number[],
): Promise<Map<number, LessonPeriod[]>> {
  const map = new Map<number, LessonPeriod[]>()
  if (scheduleIds.length === 0) return map
  const rows = await db
    .select({
      scheduleId: classWorkScheduleLessons.scheduleId,
      startedAt: classWorkScheduleLessons.startedAt,
      endedAt: classWorkScheduleLessons.endedAt,
    })
    .from(classWorkScheduleLessons)
    .where(inArray(classWorkScheduleLessons.scheduleId, [...new Set(scheduleIds)]))
    .orderBy(asc(classWorkScheduleLessons.scheduleId), asc(classWorkScheduleLessons.position))
  for (const r of rows) {
    const list = map.get(r.scheduleId) ?? []
    list.push({ startedAt: r.startedAt, endedAt: r.endedAt })
    map.set(r.scheduleId, list)
  }
  return map
}

/** A schedule's lessons: its course lessons when it has them, else its own period. */
export function lessonsOr(
  schedule: { id: number; startedAt: Date; endedAt: Date },
  courseLessons: Map<number, LessonPeriod[]> | LessonPeriod[] | null | undefined,
): LessonPeriod[] {
  const own = Array.isArray(courseLessons) ? courseLessons : courseLessons?.get(schedule.id)
  return own && own.length > 0 ? own : [{ startedAt: schedule.startedAt, endedAt: schedule.endedAt }]
}

export const lessonJson = (l: LessonPeriod): Lesson => ({
  started_at: l.startedAt.toISOString(),
  ended_at: l.endedAt.toISOString(),
})

/**
 * A correlated subquery: the course lessons of the schedule whose id is `scheduleId`, as a JSON array
 * ([{ s, e }] in epoch milliseconds), or null for a single lesson. For card lists, where one more statement per page
 * would cost more than a lookup by primary key per row.
 */
export function courseLessonsJson(scheduleId: unknown) {
  return sql<{ s: number; e: number }[] | null>`(select json_agg(json_build_object(
      's', (extract(epoch from ${classWorkScheduleLessons.startedAt}) * 1000)::bigint,
      'e', (extract(epoch from ${classWorkScheduleLessons.endedAt}) * 1000)::bigint)
      order by ${classWorkScheduleLessons.position})
    from ${classWorkScheduleLessons} where ${classWorkScheduleLessons.scheduleId} = ${scheduleId})`
}

/** Reads courseLessonsJson's value. */
export function lessonsFromJson(value: { s: number | string; e: number | string }[] | null | undefined) {
  return (value ?? []).map((l) => ({ startedAt: new Date(Number(l.s)), endedAt: new Date(Number(l.e)) }))
}
