import { randomBytes } from 'node:crypto'
import { and, asc, eq, gte, or, sql } from 'drizzle-orm'
import type { CalendarFeed, CalendarSubscription } from '../../contract/v1/calendar'
import type { Db } from '../../db/client'
import { classWorkSchedules, classWorks, learners, purchases, users } from '../../db/schema'
import type { UserRow } from '../auth'
import { notFound } from '../errors'
import { iso } from './class-cards'
import { courseLessonsOf, lessonsOr } from './lessons'

/**
 * Calendar sync (issue 16): a private feed per member, addressed by a random secret that the member can replace
 * (the old address stops at once). It lists their lessons from 30 days back: booked ones, and cancelled ones as
 * cancelled so that a subscribed calendar removes them.
 */

const FEED_PAST_DAYS = 30
const FEED_LIMIT = 500

const newToken = () => randomBytes(32).toString('base64url')

/** The member's secret, made on first use. */
export async function calendarSubscription(db: Db, user: UserRow): Promise<CalendarSubscription> {
  if (user.calendarToken) return { token: user.calendarToken }
  const [row] = await db
    .update(users)
    .set({ calendarToken: sql`coalesce(${users.calendarToken}, ${newToken()})` })
    .where(eq(users.id, user.id))
    .returning({ token: users.calendarToken })
  return { token: row!.token! }
}

/** A new secret: the previous address stops working. */
export async function regenerateCalendarToken(db: Db, user: UserRow): Promise<CalendarSubscription> {
  const [row] = await db
    .update(users)
    .set({ calendarToken: newToken() })
    .where(eq(users.id, user.id))
    .returning({ token: users.calendarToken })
  return { token: row!.token! }
}

const latest = (...dates: (Date | null)[]) => new Date(Math.max(...dates.map((d) => d?.getTime() ?? 0)))

export async function calendarFeed(db: Db, token: string, now: Date): Promise<CalendarFeed> {
  const [owner] = await db
    .select({ id: users.id, nickname: users.nickname, suspendedAt: users.suspendedAt })
    .from(users)
    .where(eq(users.calendarToken, token))
  if (!owner || owner.suspendedAt) throw notFound('カレンダー')
  const teachers = sql`(select nickname from ${users} t where t.id = ${classWorks.teacherId})`
  const rows = await db
    .select({
      purchaseId: purchases.id,
      status: purchases.status,
      createdAt: purchases.createdAt,
      canceledAt: purchases.canceledAt,
      learnerNickname: learners.nickname,
      startedAt: classWorkSchedules.startedAt,
      endedAt: classWorkSchedules.endedAt,
      isCanceled: classWorkSchedules.isCanceled,
      revision: classWorkSchedules.revision,
      movedAt: classWorkSchedules.movedAt,
      scheduleId: classWorkSchedules.id,
      classWorkId: classWorks.id,
      title: classWorks.title,
      lessonCount: classWorks.lessonCount,
      teacher: sql<string>`${teachers}`,
    })
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .leftJoin(learners, eq(learners.id, purchases.learnerId))
    .where(
      and(
        eq(purchases.userId, owner.id),
        gte(classWorkSchedules.endedAt, new Date(now.getTime() - FEED_PAST_DAYS * 24 * 3600_000)),
        or(
          eq(purchases.status, 'reserved'),
          gte(purchases.canceledAt, new Date(now.getTime() - FEED_PAST_DAYS * 24 * 3600_000)),
        ),
      ),
    )
    // Past the limit, what is still to come and booked goes in first, then what was cancelled, then the past: a
    // family with many children and courses must not lose their next lessons to last month's. Then in time order.
    .orderBy(
      sql`case when ${classWorkSchedules.endedAt} >= ${now.toISOString()}::timestamptz then (case when ${purchases.status} = 'reserved' and not ${classWorkSchedules.isCanceled} then 0 else 1 end) else 2 end`,
      asc(classWorkSchedules.startedAt),
      asc(purchases.id),
    )
    .limit(FEED_LIMIT)
    .then((kept) =>
      kept.sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.purchaseId - b.purchaseId),
    )
  const courseLessons = await courseLessonsOf(
    db,
    rows.filter((r) => r.lessonCount > 1).map((r) => r.scheduleId),
  )
  return {
    owner: owner.nickname,
    // One event per lesson: a course run (全N回) is N events of one reservation.
    lessons: rows.flatMap((r) => {
      const live = r.status === 'reserved' && !r.isCanceled
      const lessons = lessonsOr(
        { id: r.scheduleId, startedAt: r.startedAt, endedAt: r.endedAt },
        courseLessons,
      )
      // A run stopped midway (a cancellation, a suspension) took place up to then: the lessons over by the time
      // it was cancelled stay in the family's calendar; only those after it are 【中止】.
      const tookPlace = (l: { endedAt: Date }) =>
        live || (r.status !== 'reserved' && r.canceledAt !== null && l.endedAt <= r.canceledAt)
      return lessons.map((l, i) => ({
        purchase_id: r.purchaseId,
        class_work_id: r.classWorkId,
        class_title: r.title,
        teacher_nickname: r.teacher,
        attendee: r.learnerNickname ?? `${owner.nickname}（ご本人）`,
        started_at: iso(l.startedAt),
        ended_at: iso(l.endedAt),
        lesson_number: i + 1,
        lesson_count: lessons.length,
        status: tookPlace(l) ? ('confirmed' as const) : ('cancelled' as const),
        updated_at: iso(latest(r.createdAt, r.movedAt, r.canceledAt)),
        sequence: r.revision + (tookPlace(l) ? 0 : 1),
      }))
    }),
  }
}
