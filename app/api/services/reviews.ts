import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm'
import {
  type CreateReviewBody,
  type RatingSummary,
  REVIEWS_PER_PAGE,
  type ReplyReviewBody,
  type Review,
  type ReviewPage,
  type ReviewReply,
} from '../../contract/v1/reviews'
import type { Db, Tx } from '../../db/client'
import { classWorkSchedules, classWorks, purchases, reviews, users } from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { ratingSummary } from '../../lib/rating'
import type { UserRow } from '../auth'
import { ApiError, notFound, refuseContactInfo } from '../errors'
import { refuseIfSuspended } from './account-state'
import { iso } from './class-cards'

/**
 * Reviews (issue 16; docs/decisions/0021): one per attended, ended reservation, ★1–5 and a comment; the teacher
 * replies once. The class's rating (count and sum, hence the Bayesian score that sort=rating walks) changes in
 * the same transaction as the review, after the class row is locked (lock order 0015: the member's row, then the
 * class).
 */

async function adjustRating(tx: Tx, classWorkId: number, delta: { count: number; sum: number }) {
  await tx
    .update(classWorks)
    .set({
      ratingCount: sql`${classWorks.ratingCount} + ${delta.count}`,
      ratingSum: sql`${classWorks.ratingSum} + ${delta.sum}`,
    })
    .where(eq(classWorks.id, classWorkId))
}

/** POST /v1/purchases/{id}/review: the member's own reservation, reserved (not cancelled), whose lesson ended. */
export async function createReview(
  db: Db,
  user: UserRow,
  purchaseId: number,
  body: CreateReviewBody,
  now: Date,
): Promise<{ id: number }> {
  refuseContactInfo(body.comment, 'レビュー')
  return transaction(db, async (tx) => {
    // The member's row first, as a booking does (0015: a suspension locks it, then the classes): the review's
    // foreign key would take the same lock after the class's, and a suspension committed meanwhile ends this too.
    await refuseIfSuspended(tx, user.id, 'key share')
    const ownPurchase = () =>
      tx
        .select({
          status: purchases.status,
          classWorkId: classWorkSchedules.classWorkId,
          endedAt: classWorkSchedules.endedAt,
          isCanceled: classWorkSchedules.isCanceled,
        })
        .from(purchases)
        .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
        .where(and(eq(purchases.id, purchaseId), eq(purchases.userId, user.id)))
    const [seen] = await ownPurchase()
    if (!seen) throw notFound('予約')
    const [cls] = await tx
      .select({ hiddenAt: classWorks.hiddenAt })
      .from(classWorks)
      .where(eq(classWorks.id, seen.classWorkId))
      .for('no key update')
    // Read again under the class lock: a teacher or an operator cancelling the lesson holds it (0015), so a
    // cancellation and refund committed while this waited is seen here, not reviewed past.
    const [p] = await ownPurchase()
    if (!p) throw notFound('予約')
    if (p.status !== 'reserved' || p.isCanceled)
      throw new ApiError(422, 'not_attended', 'キャンセルされた授業にはレビューを書けません')
    if (p.endedAt > now) throw new ApiError(422, 'not_ended', 'レビューは授業が終わってから書けます')
    // Taken down by an operator (its teacher suspended, or the class itself): its page is gone, and so is reviewing.
    if (cls?.hiddenAt)
      throw new ApiError(410, 'gone', 'このクラスは公開が停止されたため、レビューを書けません')
    const [row] = await tx
      .insert(reviews)
      .values({
        purchaseId,
        classWorkId: p.classWorkId,
        userId: user.id,
        rating: body.rating,
        comment: body.comment.trim(),
        createdAt: now,
      })
      .onConflictDoNothing({ target: reviews.purchaseId })
      .returning({ id: reviews.id })
    if (!row) throw new ApiError(409, 'already_reviewed', 'この授業のレビューはすでに書いています')
    await adjustRating(tx, p.classWorkId, { count: 1, sum: body.rating })
    await enqueue(tx, 'notify.review', { reviewId: row.id })
    return { id: row.id }
  })
}

/** POST /v1/teachers/reviews/{id}/reply: the class's teacher, once. Anyone else: 404. */
export async function replyToReview(
  db: Db,
  user: UserRow,
  reviewId: number,
  body: ReplyReviewBody,
  now: Date,
): Promise<ReviewReply> {
  refuseContactInfo(body.reply, '返信')
  const updated = await transaction(db, async (tx) => {
    // A teacher suspended after signing in replies no more (their classes are taken down in the same step).
    await refuseIfSuspended(tx, user.id, 'key share')
    return tx
      .update(reviews)
      .set({ reply: body.reply.trim(), repliedAt: now })
      .where(
        and(
          eq(reviews.id, reviewId),
          eq(reviews.status, 'visible'),
          sql`${reviews.reply} is null`,
          sql`exists (select 1 from ${classWorks} where ${classWorks.id} = ${reviews.classWorkId} and ${classWorks.teacherId} = ${user.id})`,
        ),
      )
      .returning({ id: reviews.id, reply: reviews.reply })
  })
  if (updated[0]?.reply) return { id: reviewId, reply: { body: updated[0].reply, created_at: iso(now) } }
  const [own] = await db
    .select({ reply: reviews.reply })
    .from(reviews)
    .innerJoin(classWorks, eq(classWorks.id, reviews.classWorkId))
    .where(and(eq(reviews.id, reviewId), eq(classWorks.teacherId, user.id), eq(reviews.status, 'visible')))
  if (own?.reply) throw new ApiError(409, 'already_replied', 'このレビューにはすでに返信しています')
  throw notFound('レビュー')
}

/**
 * Takes a review down after a report, or with its author's account (`bySuspension`: lifting the suspension shows
 * it again): it no longer shows or counts. Idempotent.
 */
export async function hideReview(tx: Tx, reviewId: number, bySuspension = false): Promise<boolean> {
  const [r] = await tx.select().from(reviews).where(eq(reviews.id, reviewId))
  if (!r) return false
  if (r.status === 'hidden') {
    if (bySuspension || !r.hiddenBySuspension) return false
    // Taken down by a suspension, now hidden on a report of its own: lifting the suspension leaves it hidden.
    const [kept] = await tx
      .update(reviews)
      .set({ hiddenBySuspension: false })
      .where(
        and(eq(reviews.id, reviewId), eq(reviews.status, 'hidden'), eq(reviews.hiddenBySuspension, true)),
      )
      .returning({ id: reviews.id })
    if (kept) return false
    // Shown again meanwhile (the suspension lifted): hidden below like any visible review.
  }
  await tx
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(eq(classWorks.id, r.classWorkId))
    .for('no key update')
  const [hidden] = await tx
    .update(reviews)
    .set({ status: 'hidden', hiddenBySuspension: bySuspension })
    .where(and(eq(reviews.id, reviewId), eq(reviews.status, 'visible')))
    .returning({ id: reviews.id })
  if (hidden) await adjustRating(tx, r.classWorkId, { count: -1, sum: -r.rating })
  return Boolean(hidden)
}

/**
 * Shows again the reviews a suspension of `userId` took down (not those hidden on a report of their own), and
 * counts them in their classes' ratings again. The caller holds the member's row; the classes are locked here in
 * id order (0015). The number shown again.
 */
export async function restoreSuspendedReviews(tx: Tx, userId: number): Promise<number> {
  const hidden = await tx
    .select({ id: reviews.id, classWorkId: reviews.classWorkId, rating: reviews.rating })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), eq(reviews.hiddenBySuspension, true)))
    .orderBy(asc(reviews.classWorkId), asc(reviews.id))
  if (hidden.length === 0) return 0
  await tx
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(
      inArray(
        classWorks.id,
        hidden.map((r) => r.classWorkId),
      ),
    )
    .orderBy(asc(classWorks.id))
    .for('no key update')
  let shown = 0
  for (const r of hidden) {
    const [back] = await tx
      .update(reviews)
      .set({ status: 'visible', hiddenBySuspension: false })
      .where(and(eq(reviews.id, r.id), eq(reviews.status, 'hidden'), eq(reviews.hiddenBySuspension, true)))
      .returning({ id: reviews.id })
    if (!back) continue
    await adjustRating(tx, r.classWorkId, { count: 1, sum: r.rating })
    shown += 1
  }
  return shown
}

/** GET /v1/class_works/{id}/reviews: newest first, 10 a page, with the average and the histogram. */
export async function classReviews(
  db: Db,
  classWorkId: number,
  page: number,
  viewer: UserRow | undefined,
): Promise<ReviewPage> {
  const [cls] = await db
    .select({ teacherId: classWorks.teacherId, count: classWorks.ratingCount, sum: classWorks.ratingSum })
    .from(classWorks)
    .where(and(eq(classWorks.id, classWorkId), eq(classWorks.isPublished, true)))
  if (!cls) throw notFound('クラス')
  const visible = and(eq(reviews.classWorkId, classWorkId), eq(reviews.status, 'visible'))
  const [histogramRows, rows] = await Promise.all([
    db.select({ rating: reviews.rating, n: count() }).from(reviews).where(visible).groupBy(reviews.rating),
    db
      .select({
        id: reviews.id,
        rating: reviews.rating,
        comment: reviews.comment,
        createdAt: reviews.createdAt,
        reply: reviews.reply,
        repliedAt: reviews.repliedAt,
        userId: reviews.userId,
        nickname: users.nickname,
      })
      .from(reviews)
      .innerJoin(users, eq(users.id, reviews.userId))
      .where(visible)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(REVIEWS_PER_PAGE)
      .offset((page - 1) * REVIEWS_PER_PAGE),
  ])
  const histogram = [1, 2, 3, 4, 5].map((star) =>
    Number(histogramRows.find((h) => h.rating === star)?.n ?? 0),
  )
  const isTeacher = viewer?.id === cls.teacherId
  return {
    summary: { ...ratingSummary(cls.count, cls.sum), histogram },
    items: rows.map(
      (r): Review => ({
        id: r.id,
        rating: r.rating,
        comment: r.comment,
        created_at: iso(r.createdAt),
        reviewer: { nickname: r.nickname },
        reply: r.reply && r.repliedAt ? { body: r.reply, created_at: iso(r.repliedAt) } : null,
        can_reply: isTeacher && r.reply === null,
        can_report: viewer !== undefined && viewer.id !== r.userId,
      }),
    ),
    page,
    total_pages: Math.ceil(cls.count / REVIEWS_PER_PAGE),
  }
}

/** A teacher's rating across their published classes. */
export async function teacherRating(db: Db, teacherId: number): Promise<RatingSummary> {
  const [row] = await db
    .select({
      count: sql<number>`coalesce(sum(${classWorks.ratingCount}), 0)::int`,
      sum: sql<number>`coalesce(sum(${classWorks.ratingSum}), 0)::int`,
    })
    .from(classWorks)
    .where(and(eq(classWorks.teacherId, teacherId), eq(classWorks.isPublished, true)))
  return ratingSummary(Number(row?.count ?? 0), Number(row?.sum ?? 0))
}
