import { and, asc, count, eq, gt, isNull, sql } from 'drizzle-orm'
import type { ClassRequestList, CreateClassRequestBody } from '../../contract/v1/requests'
import type { Db, DbOrTx } from '../../db/client'
import { classRequests, classWorkSchedules, classWorks, users } from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import type { UserRow } from '../auth'
import { ApiError, notFound, refuseContactInfoIn } from '../errors'
import { refuseIfSuspended } from './account-state'
import { iso } from './class-cards'
import { isPublishedClass } from './follows'

/**
 * リクエスト開催 (issue 16): members ask for a date of a class with nothing coming; the teacher sees how many and
 * when; a new schedule mails everyone who asked (notify.class_requests) and closes their requests.
 */

/** The teacher's list shows the oldest this many; its count is of them all. */
const REQUEST_LIST_LIMIT = 500

/**
 * A class's open requests, of members who are not suspended: a suspended member's note and nickname leave the
 * teacher's list and its count with the rest of their account (their request is never mailed either).
 */
const openRequests = (classWorkId: number) =>
  and(
    eq(classRequests.classWorkId, classWorkId),
    isNull(classRequests.notifiedAt),
    sql`not exists (select 1 from ${users} where ${users.id} = ${classRequests.userId} and ${users.suspendedAt} is not null)`,
  )

export async function createClassRequest(
  db: Db,
  user: UserRow,
  classWorkId: number,
  body: CreateClassRequestBody,
  now: Date,
): Promise<{ id: number; request_count: number }> {
  const note = (body.note ?? '').trim()
  // With the field named, so that the form shows the refusal by the note.
  refuseContactInfoIn({ note: { label: '先生へのひとこと', text: note } })
  // The member's row first (FOR KEY SHARE, which the request's foreign key takes anyway): a suspension holds it and
  // then locks the member's classes, so taking it after the class lock could deadlock (0015); and a suspended
  // member asks for nothing. Then the class row, shared-locked: adding a schedule locks it for update, so a date
  // added meanwhile is either seen below (409) or added after this request commits, and then counts it and tells
  // its member.
  return transaction(db, async (tx) => {
    await refuseIfSuspended(tx, user.id, 'key share')
    const [cls] = await tx
      .select({ teacherId: classWorks.teacherId })
      .from(classWorks)
      .where(and(eq(classWorks.id, classWorkId), eq(classWorks.isPublished, true)))
      .for('share')
    if (!cls) throw notFound('クラス')
    if (cls.teacherId === user.id)
      throw new ApiError(422, 'own_class', 'ご自身のクラスにはリクエストできません')
    const [upcoming] = await tx
      .select({ id: classWorkSchedules.id })
      .from(classWorkSchedules)
      .where(
        and(
          eq(classWorkSchedules.classWorkId, classWorkId),
          eq(classWorkSchedules.isCanceled, false),
          gt(classWorkSchedules.startedAt, now),
        ),
      )
      .limit(1)
    if (upcoming)
      throw new ApiError(409, 'has_schedule', '予定されている日程があります。日程から予約してください')
    const [row] = await tx
      .insert(classRequests)
      .values({
        classWorkId,
        userId: user.id,
        weekdays: body.weekdays,
        times: body.times,
        note,
        createdAt: now,
      })
      // A literal predicate: it must match the partial unique index when the statement is prepared.
      .onConflictDoNothing({
        target: [classRequests.classWorkId, classRequests.userId],
        where: sql`${classRequests.notifiedAt} is null`,
      })
      .returning({ id: classRequests.id })
    if (!row) throw new ApiError(409, 'already_requested', 'このクラスにはすでにリクエストしています')
    const [n] = await tx.select({ n: count() }).from(classRequests).where(openRequests(classWorkId))
    return { id: row.id, request_count: Number(n?.n ?? 0) }
  })
}

/** The caller's open request for a published class, if any (404 for a class the public cannot see). */
export async function myClassRequest(
  db: Db,
  user: UserRow,
  classWorkId: number,
): Promise<{ requested: boolean; requested_at: string | null }> {
  const [published, [mine]] = await Promise.all([
    isPublishedClass(db, classWorkId),
    db
      .select({ createdAt: classRequests.createdAt })
      .from(classRequests)
      .where(
        and(
          eq(classRequests.classWorkId, classWorkId),
          eq(classRequests.userId, user.id),
          isNull(classRequests.notifiedAt),
        ),
      ),
  ])
  if (!published) throw notFound('クラス')
  return { requested: Boolean(mine), requested_at: mine ? iso(mine.createdAt) : null }
}

/** The open requests of the teacher's own class (404 for anyone else's). */
export async function teacherClassRequests(
  db: Db,
  user: UserRow,
  classWorkId: number,
): Promise<ClassRequestList> {
  const [cls] = await db
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(and(eq(classWorks.id, classWorkId), eq(classWorks.teacherId, user.id)))
  if (!cls) throw notFound('クラス')
  const rows = await db
    .select({
      id: classRequests.id,
      nickname: users.nickname,
      weekdays: classRequests.weekdays,
      times: classRequests.times,
      note: classRequests.note,
      createdAt: classRequests.createdAt,
    })
    .from(classRequests)
    .innerJoin(users, eq(users.id, classRequests.userId))
    .where(openRequests(classWorkId))
    .orderBy(asc(classRequests.createdAt), asc(classRequests.id))
    .limit(REQUEST_LIST_LIMIT)
  // The list stops at its limit; the count does not.
  const total =
    rows.length < REQUEST_LIST_LIMIT
      ? rows.length
      : Number(
          (await db.select({ n: count() }).from(classRequests).where(openRequests(classWorkId)))[0]?.n ?? 0,
        )
  return {
    count: total,
    items: rows.map((r) => ({
      id: r.id,
      nickname: r.nickname,
      weekdays: r.weekdays,
      times: r.times,
      note: r.note,
      created_at: iso(r.createdAt),
    })),
  }
}

/**
 * Called in the transaction that adds a schedule: the requesters hear of it once the schedule commits (if the
 * class is published then; the job looks).
 */
export async function queueRequestNotices(
  tx: DbOrTx,
  classWorkId: number,
  scheduleId: number,
  /** Another occasion for the same schedule (the class published again): a key of its own. */
  occasion?: string,
): Promise<void> {
  const [open] = await tx.select({ n: count() }).from(classRequests).where(openRequests(classWorkId))
  if (Number(open?.n ?? 0) > 0)
    await enqueue(
      tx,
      'notify.class_requests',
      { classWorkId, scheduleId },
      { dedupeKey: occasion ? `requests:${scheduleId}:${occasion}` : `requests:${scheduleId}` },
    )
}

/** A class published (again): requesters hear of its next date, which they could not book while it was not. */
export async function queueRequestNoticesOnPublish(
  tx: DbOrTx,
  classWorkId: number,
  now: Date,
): Promise<void> {
  const [next] = await tx
    .select({ id: classWorkSchedules.id })
    .from(classWorkSchedules)
    .where(
      and(
        eq(classWorkSchedules.classWorkId, classWorkId),
        eq(classWorkSchedules.isCanceled, false),
        gt(classWorkSchedules.startedAt, now),
      ),
    )
    .orderBy(asc(classWorkSchedules.startedAt))
    .limit(1)
  if (next) await queueRequestNotices(tx, classWorkId, next.id, `published:${now.getTime()}`)
}
