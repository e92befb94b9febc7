import { and, asc, count, eq, gt, inArray } from 'drizzle-orm'
import type { CreateLearnerBody, Learner, UpdateLearnerBody } from '../../contract/v1/users'
import { MAX_LEARNERS } from '../../contract/v1/users'
import type { Db, Tx } from '../../db/client'
import {
  classWorkSchedules,
  learners,
  purchases,
  schoolTypes,
  targetGrades,
  waitlistEntries,
} from '../../db/schema'
import type { UserRow } from '../auth'
import { ApiError, invalidRequest, notFound } from '../errors'

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

async function ownLearner(tx: Tx, userId: number, learnerId: number) {
  const [l] = await tx
    .select()
    .from(learners)
    .where(and(eq(learners.id, learnerId), eq(learners.userId, userId)))
    .limit(1)
  if (!l) throw notFound('お子さまのプロフィール')
  return l
}

export async function listMyLearners(db: Db, userId: number): Promise<Learner[]> {
  const rows = await db.select().from(learners).where(eq(learners.userId, userId)).orderBy(asc(learners.id))
  return rows.map(toLearner)
}

/** Adds a learner profile (parents only, at most 10). */
export async function addLearner(db: Db, user: UserRow, body: CreateLearnerBody): Promise<Learner> {
  if (user.role !== 'parent') {
    throw new ApiError(422, 'not_parent', 'お子さまのプロフィールは保護者のみ登録できます')
  }
  return db.transaction(async (tx) => {
    await checkLearnerMasters(tx, body)
    const [n] = await tx.select({ n: count() }).from(learners).where(eq(learners.userId, user.id))
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
    await ownLearner(tx, userId, learnerId)
    await checkLearnerMasters(tx, body)
    const [l] = await tx
      .update(learners)
      .set({
        nickname: body.nickname,
        schoolTypeId: body.school_type_id,
        targetGradeId: body.target_grade_id,
      })
      .where(and(eq(learners.id, learnerId), eq(learners.userId, userId)))
      .returning()
    return toLearner(l!)
  })
}

/**
 * Removes a learner profile; one with a reservation (past or upcoming, so history keeps its name) or a place in
 * the line of an upcoming lesson stays (409).
 */
export async function removeLearner(db: Db, userId: number, learnerId: number, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    // Locked: a booking or waitlist entry for this child (they lock the profile FOR SHARE) is either committed
    // and seen below, or waits and then finds the profile gone — never a child's seat left without its child.
    const [own] = await tx
      .select({ id: learners.id })
      .from(learners)
      .where(and(eq(learners.id, learnerId), eq(learners.userId, userId)))
      .for('update')
    if (!own) throw notFound('お子さまのプロフィール')
    const [held] = await tx
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.learnerId, learnerId), inArray(purchases.status, ['reserved', 'pending'])))
      .limit(1)
    // A place in the line of a lesson that has started is over, whatever its status says.
    const [waiting] = await tx
      .select({ id: waitlistEntries.id })
      .from(waitlistEntries)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, waitlistEntries.scheduleId))
      .where(
        and(
          eq(waitlistEntries.learnerId, learnerId),
          inArray(waitlistEntries.status, ['waiting', 'offered']),
          gt(classWorkSchedules.startedAt, now),
        ),
      )
      .limit(1)
    if (held) throw new ApiError(409, 'has_reservations', '予約のあるお子さまのプロフィールは削除できません')
    if (waiting)
      throw new ApiError(
        409,
        'has_waitlist',
        'キャンセル待ち中のお子さまのプロフィールは削除できません。先にキャンセル待ちを取り消してください',
      )
    await tx.delete(learners).where(and(eq(learners.id, learnerId), eq(learners.userId, userId)))
  })
}
