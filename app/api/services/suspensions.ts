import { and, asc, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import type { AdminSuspension, LiftSuspensionBody, LiftSuspensionResult } from '../../contract/v1/trust'
import { audit } from '../../db/audit'
import type { Db } from '../../db/client'
import { classWorks, reports, reviews, users } from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { ADMIN_LIST_PAGE_SIZE } from '../../lib/page-sizes'
import { actorLabel, type UserRow } from '../auth'
import { ApiError, notFound, ownAccount } from '../errors'
import { iso } from './class-cards'
import { restoreSuspendedReviews } from './reviews'

/**
 * Suspended accounts, and lifting a suspension (an operator's mistake, or a member who was heard). A suspension
 * (reports.ts) hid the account's published classes and its reviews (hidden_by_suspension); lifting it brings the
 * classes back as drafts (their pictures were deleted, so the teacher publishes them again with a new one) and
 * shows the reviews again. What was judged on a report of its own stays hidden: a class or review hidden on its
 * report, and every class or review whose open report the suspension closed. Lessons cancelled and refunded stay so.
 */

export async function adminListSuspensions(db: Db, page = 1): Promise<AdminSuspension[]> {
  // Spelt out: a select from one table names its columns bare, and a bare "id" in a subquery is the subquery's.
  const userId = sql`${users}.${sql.identifier('id')}`
  const note = sql<string | null>`(select ${reports.note} from ${reports}
    where ${reports.targetUserId} = ${userId} and ${reports.status} = 'suspended'
    order by ${reports.resolvedAt} desc, ${reports.id} desc limit 1)`
  const hidden = sql<number>`(select count(*)::int from ${classWorks}
    where ${classWorks.teacherId} = ${userId} and ${classWorks.hiddenBySuspension})`
  const hiddenReviews = sql<number>`(select count(*)::int from ${reviews}
    where ${reviews.userId} = ${userId} and ${reviews.hiddenBySuspension})`
  const rows = await db
    .select({
      id: users.id,
      nickname: users.nickname,
      isTeacher: users.isTeacher,
      suspendedAt: users.suspendedAt,
      note,
      hidden,
      hiddenReviews,
    })
    .from(users)
    .where(isNotNull(users.suspendedAt))
    .orderBy(desc(users.suspendedAt), desc(users.id))
    .limit(ADMIN_LIST_PAGE_SIZE)
    .offset((page - 1) * ADMIN_LIST_PAGE_SIZE)
  return rows.map((r) => ({
    user: { id: r.id, nickname: r.nickname, is_teacher: r.isTeacher },
    suspended_at: iso(r.suspendedAt!),
    note: r.note,
    hidden_classes: Number(r.hidden),
    hidden_reviews: Number(r.hiddenReviews),
  }))
}

export async function adminLiftSuspension(
  db: Db,
  operator: UserRow,
  userId: number,
  body: LiftSuspensionBody,
  now: Date,
  address?: string,
): Promise<LiftSuspensionResult> {
  if (userId === operator.id) throw ownAccount()
  const note = (body.note ?? '').trim() || null
  return transaction(db, async (tx) => {
    // The member first, as a suspension locks it (0015): two operators lifting at once get one lift and one 409.
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update')
    if (!user) throw notFound('アカウント')
    if (!user.suspendedAt) throw new ApiError(409, 'not_suspended', 'このアカウントは利用停止していません')
    const suspendedAt = user.suspendedAt
    if (body.suspended_at !== undefined && Date.parse(body.suspended_at) !== suspendedAt.getTime())
      throw new ApiError(
        409,
        'suspension_changed',
        'このアカウントは画面を開いたあとに改めて利用停止されました。ページを読み込み直して確認してください',
      )
    await tx.update(users).set({ suspendedAt: null, updatedAt: now }).where(eq(users.id, userId))
    // Every class this changes, theirs and those their reviews are on, locked at once in id order (0015).
    const [own, reviewed] = await Promise.all([
      tx
        .select({ id: classWorks.id })
        .from(classWorks)
        .where(and(eq(classWorks.teacherId, userId), eq(classWorks.hiddenBySuspension, true))),
      tx
        .selectDistinct({ id: reviews.classWorkId })
        .from(reviews)
        .where(and(eq(reviews.userId, userId), eq(reviews.hiddenBySuspension, true))),
    ])
    const touched = [...new Set([...own, ...reviewed].map((c) => c.id))]
    if (touched.length)
      await tx
        .select({ id: classWorks.id })
        .from(classWorks)
        .where(inArray(classWorks.id, touched))
        .orderBy(asc(classWorks.id))
        .for('no key update')
    // The classes the suspension took down become drafts again; its reviews show again.
    const restored = await tx
      .update(classWorks)
      .set({ hiddenAt: null, hiddenBySuspension: false, updatedAt: now })
      .where(and(eq(classWorks.teacherId, userId), eq(classWorks.hiddenBySuspension, true)))
      .returning({ id: classWorks.id })
    const reviewsRestored = await restoreSuspendedReviews(tx, userId)
    await audit(tx, {
      actorId: operator.id,
      actorLabel: actorLabel(operator),
      action: 'account_reinstate',
      targetType: 'user',
      targetId: userId,
      address,
      before: { suspended: true, suspended_at: iso(suspendedAt), nickname: user.nickname },
      after: {
        suspended: false,
        classes_restored: restored.length,
        reviews_restored: reviewsRestored,
        note,
      },
    })
    await enqueue(tx, 'notify.account_reinstated', {
      userId,
      classesRestored: restored.length,
      reviewsRestored,
    })
    return { user_id: userId, classes_restored: restored.length, reviews_restored: reviewsRestored }
  })
}
