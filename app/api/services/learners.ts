import { and, asc, count, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm'
import type { CreateLearnerBody, Learner, UpdateLearnerBody } from '../../contract/v1/users'
import { MAX_LEARNERS } from '../../contract/v1/users'
import type { Db, Tx } from '../../db/client'
import {
  classWorkSchedules,
  learners,
  payments,
  purchases,
  schoolTypes,
  targetGrades,
  users,
  waitlistEntries,
} from '../../db/schema'
import { ACCOUNT_SUSPENDED_MESSAGE, type UserRow } from '../auth'
import { ApiError, invalidRequest, notFound, refuseContactInfoIn } from '../errors'

const toLearner = (l: typeof learners.$inferSelect): Learner => ({
  id: l.id,
  nickname: l.nickname,
  school_type_id: l.schoolTypeId,
  target_grade_id: l.targetGradeId,
})

/** A wrong master id is bad input (400), never a 500 from a foreign key. */
async function checkLearnerMasters(tx: Tx, body: { school_type_id?: number; target_grade_id?: number }) {
  if (body.school_type_id !== undefined) {
    const found = await tx
      .select({ id: schoolTypes.id })
      .from(schoolTypes)
      .where(inArray(schoolTypes.id, [body.school_type_id]))
    if (found.length === 0)
      throw invalidRequest('入力内容に誤りがあります', [
        { path: ['school_type_id'], message: '選択肢にない値です' },
      ])
  }
  if (body.target_grade_id !== undefined) {
    const found = await tx
      .select({ id: targetGrades.id })
      .from(targetGrades)
      .where(inArray(targetGrades.id, [body.target_grade_id]))
    if (found.length === 0)
      throw invalidRequest('入力内容に誤りがあります', [
        { path: ['target_grade_id'], message: '選択肢にない値です' },
      ])
  }
}

const learnerNotFound = () => notFound('お子さまのプロフィール')

/** The member's own learner profile, not removed: the only one that may be listed, edited or booked for. */
export const ownLearner = (learnerId: number, userId: number) =>
  and(eq(learners.id, learnerId), eq(learners.userId, userId), isNull(learners.deletedAt))

/** The member's learner profiles still in use (removed ones stay only for the reservations that name them). */
export const learnersOf = (userId: number) => and(eq(learners.userId, userId), isNull(learners.deletedAt))

/**
 * The caller's learner, locked for the update that follows (FOR NO KEY UPDATE, the lock the UPDATE takes anyway):
 * a deletion running at the same moment either commits first, and the profile is not found (404), or waits.
 */
async function lockOwnLearner(tx: Tx, userId: number, learnerId: number) {
  const [l] = await tx.select().from(learners).where(ownLearner(learnerId, userId)).for('no key update')
  if (!l) throw learnerNotFound()
  return l
}

export async function listMyLearners(db: Db, userId: number): Promise<Learner[]> {
  const rows = await db.select().from(learners).where(learnersOf(userId)).orderBy(asc(learners.id))
  return rows.map(toLearner)
}

/** Adds a learner profile (parents only, at most 10). */
export async function addLearner(db: Db, user: UserRow, body: CreateLearnerBody): Promise<Learner> {
  if (user.role !== 'parent') {
    throw new ApiError(422, 'not_parent', 'お子さまのプロフィールは保護者のみ登録できます')
  }
  return db.transaction(async (tx) => {
    // The member's row first (docs/decisions/0015), FOR NO KEY UPDATE: two additions at once queue here, so the
    // second counts the first one's child and the limit holds. A booking's FOR KEY SHARE does not wait for it; a
    // suspension's FOR UPDATE does, and a member suspended meanwhile adds nobody.
    const [me] = await tx
      .select({ suspendedAt: users.suspendedAt })
      .from(users)
      .where(eq(users.id, user.id))
      .for('no key update')
    if (me?.suspendedAt) throw new ApiError(403, 'account_suspended', ACCOUNT_SUSPENDED_MESSAGE)
    await checkLearnerMasters(tx, body)
    refuseContactInfoIn({ nickname: { label: 'ニックネーム', text: body.nickname } })
    const [n] = await tx.select({ n: count() }).from(learners).where(learnersOf(user.id))
    if (Number(n?.n ?? 0) >= MAX_LEARNERS) {
      throw new ApiError(409, 'too_many_learners', `登録できるお子さまは${MAX_LEARNERS}人までです`)
    }
    const [l] = await tx
      .insert(learners)
      .values({
        userId: user.id,
        nickname: body.nickname,
        schoolTypeId: body.school_type_id,
        targetGradeId: body.target_grade_id,
      })
      .returning()
    return toLearner(l!)
  })
}

export async function updateLearner(
  db: Db,
  userId: number,
  learnerId: number,
  body: UpdateLearnerBody,
): Promise<Learner> {
  return db.transaction(async (tx) => {
    const current = await lockOwnLearner(tx, userId, learnerId)
    await checkLearnerMasters(tx, body)
    // Only a changed nickname: one saved before this rule must not block a change of grade.
    refuseContactInfoIn({
      nickname: {
        label: 'ニックネーム',
        text: body.nickname !== current.nickname ? body.nickname : undefined,
      },
    })
    const [l] = await tx
      .update(learners)
      .set({
        nickname: body.nickname,
        schoolTypeId: body.school_type_id,
        targetGradeId: body.target_grade_id,
      })
      .where(ownLearner(learnerId, userId))
      .returning()
    // Held by the lock above; kept so that a row gone anyway is a 404, never a 500.
    if (!l) throw learnerNotFound()
    return toLearner(l)
  })
}

/**
 * Removes a learner profile; one with a seat in a lesson not over yet, an unpaid hold whose money may still arrive,
 * or a place in the line of an upcoming lesson stays (409). One that past reservations name is only marked removed
 * (`deleted_at`), so that their receipts and lists keep the child's nickname instead of falling back to the parent's.
 */
export async function removeLearner(db: Db, userId: number, learnerId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    // Locked: a booking or waitlist entry for this child (they lock the profile FOR SHARE) is either committed
    // and seen below, or waits and then finds the profile gone — never a child's seat left without its child.
    const [own] = await tx
      .select({ id: learners.id })
      .from(learners)
      .where(ownLearner(learnerId, userId))
      .for('update')
    if (!own) throw learnerNotFound()
    // What keeps the profile, read in one statement (one snapshot: a payment settling meanwhile turns a hold from
    // the second kind into the first, never into neither). Filtered by the parent too, for their own index.
    // - A seat being paid for, or one for a lesson (or course run) not over yet. A lesson already taken does not
    //   keep the profile: the reservation keeps naming the child below.
    // - A hold that ended unpaid, whose money may still arrive: its payment not succeeded and still looked at by
    //   the reconciliation sweep (payments.ts reconcilePayments; a webhook needs the same provider reference).
    //   Settling it would take the seat for this child, with the profile gone for the parent. Only while a seat
    //   can still be taken (the lesson neither started nor cancelled: settlePayment refunds otherwise).
    const keeping = await tx
      .select({ status: purchases.status })
      .from(purchases)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
      .where(
        and(
          eq(purchases.userId, userId),
          eq(purchases.learnerId, learnerId),
          or(
            eq(purchases.status, 'pending'),
            and(eq(purchases.status, 'reserved'), gt(classWorkSchedules.endedAt, now)),
            and(
              eq(purchases.status, 'expired'),
              eq(classWorkSchedules.isCanceled, false),
              gt(classWorkSchedules.startedAt, now),
              sql`exists (select 1 from ${payments} where ${payments.purchaseId} = ${purchases.id} and ${payments.status} <> 'succeeded' and ${payments.providerRef} is not null and ${payments.lastAttemptAt} is not null)`,
            ),
          ),
        ),
      )
    const held = keeping.some((p) => p.status !== 'expired')
    const unsettled = keeping.some((p) => p.status === 'expired')
    // A place in the line of a lesson that has started is over, whatever its status says.
    const [waiting] = await tx
      .select({ id: waitlistEntries.id })
      .from(waitlistEntries)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, waitlistEntries.scheduleId))
      .where(
        and(
          eq(waitlistEntries.userId, userId),
          eq(waitlistEntries.learnerId, learnerId),
          inArray(waitlistEntries.status, ['waiting', 'offered']),
          gt(classWorkSchedules.startedAt, now),
        ),
      )
      .limit(1)
    if (held) throw new ApiError(409, 'has_reservations', '予約のあるお子さまのプロフィールは削除できません')
    if (unsettled)
      throw new ApiError(
        409,
        'has_reservations',
        'お支払いの確認を待っている予約があるお子さまのプロフィールは削除できません。しばらくしてからもう一度お試しください',
      )
    if (waiting)
      throw new ApiError(
        409,
        'has_waitlist',
        'キャンセル待ち中のお子さまのプロフィールは削除できません。先にキャンセル待ちを取り消してください',
      )
    // A reservation that names the child (taken, cancelled or refunded) keeps the profile as its record: receipts,
    // sales lines and past student lists go on saying who the lesson was for. Otherwise nothing is kept.
    const [named] = await tx
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.userId, userId), eq(purchases.learnerId, learnerId)))
      .limit(1)
    if (named) await tx.update(learners).set({ deletedAt: now }).where(eq(learners.id, learnerId))
    else await tx.delete(learners).where(eq(learners.id, learnerId))
  })
}
