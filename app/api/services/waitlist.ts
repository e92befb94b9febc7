import { and, asc, eq, gt, inArray, isNull, lte, sql } from 'drizzle-orm'
import type { WaitlistEntry } from '../../contract/v1/waitlist'
import type { Db, DbOrTx, Tx } from '../../db/client'
import { classWorkSchedules, classWorks, learners, purchases, users, waitlistEntries } from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import type { UserRow } from '../auth'
import { ApiError, notFound } from '../errors'
import { refuseIfSuspended } from './account-state'
import { iso } from './class-cards'
import { ownLearner } from './learners'

/**
 * キャンセル待ち (issue 16; docs/decisions/0023). A member waits for a seat of a full schedule. When a seat frees
 * (a cancellation, a larger capacity, an offer that expired or was declined), the first in line is offered it for
 * OFFER_HOURS: the seat is held (`held_count`), so no other buyer can take it, and only that member can book it.
 * Every change runs with the class and schedule rows locked, in that order, like every seat change (0015).
 */

export const OFFER_MS = 12 * 3600_000
const LIVE = ['waiting', 'offered'] as const

async function lockClassAndSchedule(tx: Tx, scheduleId: number) {
  const [ref] = await tx
    .select({ classWorkId: classWorkSchedules.classWorkId })
    .from(classWorkSchedules)
    .where(eq(classWorkSchedules.id, scheduleId))
  if (!ref) return undefined
  await tx
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(eq(classWorks.id, ref.classWorkId))
    .for('no key update')
  const [s] = await tx
    .select()
    .from(classWorkSchedules)
    .where(eq(classWorkSchedules.id, scheduleId))
    .for('no key update')
  return s
}

/**
 * Offers every free seat of a schedule to the next waiting members (the caller holds the class and schedule
 * locks). A seat is free when neither sold nor held; offers are made only before the lesson starts. A suspended
 * member is passed over: they cannot book, and a seat held for them would wait for the expiry job (inside a
 * suspension, the seat it frees would otherwise go to the member's own wait for a sibling).
 */
export async function offerFreedSeats(tx: Tx, scheduleId: number, now: Date): Promise<number> {
  const [s] = await tx
    .select({
      capacity: classWorkSchedules.capacity,
      purchased: classWorkSchedules.purchasedCount,
      held: classWorkSchedules.heldCount,
      isCanceled: classWorkSchedules.isCanceled,
      startedAt: classWorkSchedules.startedAt,
      isPublished: classWorks.isPublished,
    })
    .from(classWorkSchedules)
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .where(eq(classWorkSchedules.id, scheduleId))
  // An unpublished class takes no booking, so an offer could not be used: the line waits until it is published.
  if (!s || s.isCanceled || s.startedAt <= now || !s.isPublished) return 0
  const free = s.capacity - s.purchased - s.held
  if (free <= 0) return 0
  const next = await tx
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .innerJoin(users, eq(users.id, waitlistEntries.userId))
    .where(
      and(
        eq(waitlistEntries.scheduleId, scheduleId),
        eq(waitlistEntries.status, 'waiting'),
        isNull(users.suspendedAt),
      ),
    )
    .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id))
    .limit(free)
    .for('update', { of: waitlistEntries })
  if (next.length === 0) return 0
  // The offer ends at the lesson's start if that comes first.
  const expires = new Date(Math.min(now.getTime() + OFFER_MS, s.startedAt.getTime()))
  await tx
    .update(waitlistEntries)
    .set({ status: 'offered', offeredAt: now, offerExpiresAt: expires })
    .where(
      inArray(
        waitlistEntries.id,
        next.map((n) => n.id),
      ),
    )
  await tx
    .update(classWorkSchedules)
    .set({ heldCount: sql`${classWorkSchedules.heldCount} + ${next.length}` })
    .where(eq(classWorkSchedules.id, scheduleId))
  // Keyed by the offer's time too: an entry offered again after its class was published again is told again.
  for (const n of next)
    await enqueue(
      tx,
      'notify.waitlist_offer',
      { entryId: n.id },
      { dedupeKey: `offer:${n.id}:${now.getTime()}` },
    )
  return next.length
}

/** The upcoming live schedules of a class, locked in id order (the caller holds the class lock, 0015). */
async function lockUpcomingSchedules(tx: Tx, classWorkId: number, now: Date): Promise<number[]> {
  const rows = await tx
    .select({ id: classWorkSchedules.id })
    .from(classWorkSchedules)
    .where(
      and(
        eq(classWorkSchedules.classWorkId, classWorkId),
        eq(classWorkSchedules.isCanceled, false),
        gt(classWorkSchedules.startedAt, now),
      ),
    )
    .orderBy(asc(classWorkSchedules.id))
    .for('no key update')
  return rows.map((r) => r.id)
}

/**
 * The teacher unpublished the class (the caller holds its lock): nobody can book it, so live offers go back to
 * waiting, in their place in line, and the seats they held are free again. An offer whose time has run out (a
 * suspension ends one at once) is over, not sent back into the line to be offered again.
 */
export async function withdrawOffersOf(tx: Tx, classWorkId: number, now: Date): Promise<void> {
  for (const scheduleId of await lockUpcomingSchedules(tx, classWorkId, now)) {
    const offered = and(eq(waitlistEntries.scheduleId, scheduleId), eq(waitlistEntries.status, 'offered'))
    const over = await tx
      .update(waitlistEntries)
      .set({ status: 'expired' })
      .where(and(offered, lte(waitlistEntries.offerExpiresAt, now)))
      .returning({ id: waitlistEntries.id })
    const live = await tx
      .update(waitlistEntries)
      .set({ status: 'waiting', offeredAt: null, offerExpiresAt: null })
      .where(offered)
      .returning({ id: waitlistEntries.id })
    const back = [...over, ...live]
    if (back.length > 0)
      await tx
        .update(classWorkSchedules)
        .set({ heldCount: sql`${classWorkSchedules.heldCount} - ${back.length}` })
        .where(eq(classWorkSchedules.id, scheduleId))
  }
}

/** The class is published again (the caller holds its lock): each upcoming schedule's free seats go to its line. */
export async function offerSeatsOfClass(tx: Tx, classWorkId: number, now: Date): Promise<void> {
  for (const scheduleId of await lockUpcomingSchedules(tx, classWorkId, now))
    await offerFreedSeats(tx, scheduleId, now)
}

/** A schedule was cancelled: nobody waits for it any more and no seat stays held. */
export async function cancelWaitlistOf(tx: Tx, scheduleId: number): Promise<number[]> {
  const ended = await tx
    .update(waitlistEntries)
    .set({ status: 'canceled' })
    .where(and(eq(waitlistEntries.scheduleId, scheduleId), inArray(waitlistEntries.status, [...LIVE])))
    .returning({ id: waitlistEntries.id })
  await tx.update(classWorkSchedules).set({ heldCount: 0 }).where(eq(classWorkSchedules.id, scheduleId))
  return ended.map((e) => e.id)
}

/**
 * The caller's live offer for a schedule, if any (read inside the booking's transaction, after the schedule lock):
 * booking then takes the held seat instead of a free one. With an attendee (`learnerId`, null for the member
 * themself), only the offer made for that attendee: the seat was offered for the attendee who waited, and booking
 * another child with it would leave that child neither a seat nor a place in line. `'any'`: an offer for whomever.
 */
export async function activeOffer(
  tx: DbOrTx,
  userId: number,
  scheduleId: number,
  learnerId: number | null | 'any',
  now: Date,
) {
  const [offer] = await tx
    // Whom the seat is held for: a child's nickname, or null for the member themself.
    .select({ id: waitlistEntries.id, learner: learners.nickname })
    .from(waitlistEntries)
    .leftJoin(learners, eq(learners.id, waitlistEntries.learnerId))
    .where(
      and(
        eq(waitlistEntries.scheduleId, scheduleId),
        eq(waitlistEntries.userId, userId),
        eq(waitlistEntries.status, 'offered'),
        gt(waitlistEntries.offerExpiresAt, now),
        learnerId === 'any' ? undefined : sql`coalesce(${waitlistEntries.learnerId}, 0) = ${learnerId ?? 0}`,
      ),
    )
    .limit(1)
  return offer
}

/** POST /v1/class_work_schedules/{id}/waitlist: only for a full, upcoming, live schedule of someone else's class. */
export async function joinWaitlist(
  db: Db,
  user: UserRow,
  scheduleId: number,
  learnerId: number | null,
  now: Date,
): Promise<{ id: number; position: number }> {
  return transaction(db, async (tx) => {
    // As a booking (purchases.ts): the member, the child's profile, then the class (0015).
    await refuseIfSuspended(tx, user.id, 'key share')
    if (learnerId !== null) {
      const [own] = await tx
        .select({ id: learners.id })
        .from(learners)
        .where(ownLearner(learnerId, user.id))
        .for('share')
      if (!own) throw notFound('お子さまのプロフィール')
    }
    const s = await lockClassAndSchedule(tx, scheduleId)
    // Publication and teacher under the class lock: an unpublishing that committed meanwhile is seen.
    const [cls] = s
      ? await tx
          .select({ teacherId: classWorks.teacherId, isPublished: classWorks.isPublished })
          .from(classWorks)
          .where(eq(classWorks.id, s.classWorkId))
      : []
    if (!s || !cls?.isPublished) throw notFound('クラスの日程')
    if (cls.teacherId === user.id) throw new ApiError(422, 'own_class', 'ご自身のクラスには申し込めません')
    if (s.isCanceled) throw new ApiError(409, 'canceled', 'この日程は中止になりました')
    if (s.startedAt <= now) throw new ApiError(409, 'started', 'この日程はすでに始まっています')
    if (s.purchasedCount + s.heldCount < s.capacity)
      throw new ApiError(409, 'not_full', '空席があります。キャンセル待ちではなく、そのまま予約できます')
    const [reserved] = await tx
      .select({ id: purchases.id })
      .from(purchases)
      .where(
        and(
          eq(purchases.scheduleId, scheduleId),
          eq(purchases.userId, user.id),
          inArray(purchases.status, ['reserved', 'pending']),
          // The same attendee, as booking counts them: a parent with one child's seat may wait for another's.
          sql`coalesce(${purchases.learnerId}, 0) = ${learnerId ?? 0}`,
        ),
      )
      .limit(1)
    if (reserved) throw new ApiError(409, 'already_reserved', 'この日程はすでに予約しています')
    // The line is ordered by when each joined: never before the last one in (read under the schedule lock). This
    // request's clock was read before it waited for the lock, or may be another instance's, behind: a member
    // already told their place must not be passed by someone who came after them.
    const [last] = await tx
      .select({ at: sql<Date | null>`max(${waitlistEntries.createdAt})`.mapWith(waitlistEntries.createdAt) })
      .from(waitlistEntries)
      .where(eq(waitlistEntries.scheduleId, scheduleId))
    const joinedAt = last?.at && last.at.getTime() > now.getTime() ? last.at : now
    const [row] = await tx
      .insert(waitlistEntries)
      .values({ scheduleId, userId: user.id, learnerId, createdAt: joinedAt })
      .onConflictDoNothing({
        target: [waitlistEntries.scheduleId, waitlistEntries.userId],
        where: sql`${waitlistEntries.status} in ('waiting', 'offered')`,
      })
      .returning({ id: waitlistEntries.id, createdAt: waitlistEntries.createdAt })
    if (!row) throw new ApiError(409, 'already_waiting', 'この日程はすでにキャンセル待ちしています')
    const [ahead] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(waitlistEntries)
      .where(
        and(
          eq(waitlistEntries.scheduleId, scheduleId),
          eq(waitlistEntries.status, 'waiting'),
          lte(waitlistEntries.createdAt, row.createdAt),
        ),
      )
    return { id: row.id, position: Number(ahead?.n ?? 1) }
  })
}

/** DELETE /v1/waitlist/{id}: the member leaves the line; a seat held for them goes to the next. */
export async function leaveWaitlist(db: Db, user: UserRow, entryId: number, now: Date): Promise<void> {
  const [entry] = await db
    .select({ scheduleId: waitlistEntries.scheduleId })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.id, entryId), eq(waitlistEntries.userId, user.id)))
  if (!entry) throw notFound('キャンセル待ち')
  await transaction(db, async (tx) => {
    await lockClassAndSchedule(tx, entry.scheduleId)
    const [left] = await tx
      .update(waitlistEntries)
      .set({ status: 'left' })
      .where(and(eq(waitlistEntries.id, entryId), inArray(waitlistEntries.status, [...LIVE])))
      .returning({ wasOffered: sql<boolean>`${waitlistEntries.offeredAt} is not null` })
    if (!left) throw new ApiError(409, 'not_waiting', 'このキャンセル待ちはすでに終わっています')
    if (left.wasOffered) {
      await tx
        .update(classWorkSchedules)
        .set({ heldCount: sql`greatest(${classWorkSchedules.heldCount} - 1, 0)` })
        .where(eq(classWorkSchedules.id, entry.scheduleId))
      await offerFreedSeats(tx, entry.scheduleId, now)
    }
  })
}

/** Offers whose time ran out: the held seat passes to the next in line. Run every minute by the job runner. */
export async function expireOffers(
  db: Db,
  now: Date,
  /** Collects the members whose offer ended, for their open pages to be told (a live update). */
  ended: number[] = [],
): Promise<number> {
  const due = await db
    .selectDistinct({ scheduleId: waitlistEntries.scheduleId })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.status, 'offered'), lte(waitlistEntries.offerExpiresAt, now)))
    .limit(100)
  let expired = 0
  for (const { scheduleId } of due) {
    // Counted once committed: a retried transaction (a deadlock) counts its last run only.
    const members = await transaction(db, async (tx): Promise<number[]> => {
      await lockClassAndSchedule(tx, scheduleId)
      const gone = await tx
        .update(waitlistEntries)
        .set({ status: 'expired' })
        .where(
          and(
            eq(waitlistEntries.scheduleId, scheduleId),
            eq(waitlistEntries.status, 'offered'),
            lte(waitlistEntries.offerExpiresAt, now),
          ),
        )
        .returning({ id: waitlistEntries.id, userId: waitlistEntries.userId })
      if (gone.length === 0) return []
      await tx
        .update(classWorkSchedules)
        .set({ heldCount: sql`greatest(${classWorkSchedules.heldCount} - ${gone.length}, 0)` })
        .where(eq(classWorkSchedules.id, scheduleId))
      await offerFreedSeats(tx, scheduleId, now)
      return gone.map((g) => g.userId)
    })
    expired += members.length
    ended.push(...members)
  }
  return expired
}

/** GET /v1/waitlist: the member's live entries, soonest lesson first. */
export async function myWaitlist(db: Db, user: UserRow, now: Date): Promise<WaitlistEntry[]> {
  const rows = await db
    .select({
      id: waitlistEntries.id,
      status: waitlistEntries.status,
      createdAt: waitlistEntries.createdAt,
      offerExpiresAt: waitlistEntries.offerExpiresAt,
      scheduleId: classWorkSchedules.id,
      startedAt: classWorkSchedules.startedAt,
      endedAt: classWorkSchedules.endedAt,
      classWorkId: classWorks.id,
      title: classWorks.title,
      lessonCount: classWorks.lessonCount,
      learnerNickname: learners.nickname,
      position: sql<number>`(select count(*)::int from ${waitlistEntries} w2 where w2.schedule_id = ${waitlistEntries.scheduleId} and w2.status = 'waiting' and (w2.created_at, w2.id) <= (${waitlistEntries.createdAt}, ${waitlistEntries.id}))`,
    })
    .from(waitlistEntries)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, waitlistEntries.scheduleId))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .leftJoin(learners, eq(learners.id, waitlistEntries.learnerId))
    .where(
      and(
        eq(waitlistEntries.userId, user.id),
        inArray(waitlistEntries.status, [...LIVE]),
        gt(classWorkSchedules.startedAt, now),
      ),
    )
    .orderBy(asc(classWorkSchedules.startedAt), asc(waitlistEntries.id))
    .limit(200)
  return rows.map((r) => ({
    id: r.id,
    status: r.status as WaitlistEntry['status'],
    position: r.status === 'waiting' ? r.position : null,
    offer_expires_at: r.status === 'offered' && r.offerExpiresAt ? iso(r.offerExpiresAt) : null,
    created_at: iso(r.createdAt),
    attendee: r.learnerNickname ?? `${user.nickname}（ご本人）`,
    class_work: { id: r.classWorkId, title: r.title, lesson_count: r.lessonCount },
    schedule: { id: r.scheduleId, started_at: iso(r.startedAt), ended_at: iso(r.endedAt) },
  }))
}

/** Who is told of an offer (the job's mail). */
export async function offerDetails(db: DbOrTx, entryId: number) {
  const [r] = await db
    .select({
      status: waitlistEntries.status,
      offeredAt: waitlistEntries.offeredAt,
      expiresAt: waitlistEntries.offerExpiresAt,
      userId: users.id,
      email: users.email,
      nickname: users.nickname,
      learner: learners.nickname,
      suspendedAt: users.suspendedAt,
      classWorkId: classWorks.id,
      title: classWorks.title,
      lessonCount: classWorks.lessonCount,
      startedAt: classWorkSchedules.startedAt,
      endedAt: classWorkSchedules.endedAt,
    })
    .from(waitlistEntries)
    .innerJoin(users, eq(users.id, waitlistEntries.userId))
    .leftJoin(learners, eq(learners.id, waitlistEntries.learnerId))
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, waitlistEntries.scheduleId))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .where(eq(waitlistEntries.id, entryId))
  return r
}
