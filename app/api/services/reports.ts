import { and, asc, desc, eq, gt, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type {
  AdminReport,
  AdminReportQuery,
  CreateReportBody,
  ResolveReportBody,
  ResolveReportResult,
} from '../../contract/v1/trust'
import { audit } from '../../db/audit'
import type { Db, Tx } from '../../db/client'
import {
  classWorkSchedules,
  classWorks,
  messages,
  purchases,
  reports,
  reviews,
  roomMembers,
  sessions,
  users,
  waitlistEntries,
} from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { ADMIN_LIST_PAGE_SIZE } from '../../lib/page-sizes'
import { actorLabel, type UserRow } from '../auth'
import { ApiError, notFound, ownAccount } from '../errors'
import { releaseAvatar } from './avatar-images'
import { iso } from './class-cards'
import { releaseClassImage } from './class-images'
import { cancelHeldSchedule } from './class-management'
import { releaseHold, requestRefund } from './payments'
import { hideReview } from './reviews'
import { publicTeacher } from './teachers'
import { offerFreedSeats } from './waitlist'

/**
 * 通報 and what an operator does about one (issue 15; docs/decisions/0020): dismiss it, hide the content (a class
 * leaves search and its page answers 410; a message disappears for its recipient), or suspend the account whose
 * content it is. Every decision is audited; the reports about the same content are closed together.
 */

export const REPORT_RECEIVED_MESSAGE = '通報を受け付けました'

/** Whose content the target is, or 404 when the reporter cannot see it. */
async function ownerOfTarget(db: Db, reporter: UserRow, type: CreateReportBody['target_type'], id: number) {
  if (type === 'class') {
    const [c] = await db
      .select({ teacherId: classWorks.teacherId })
      .from(classWorks)
      .where(and(eq(classWorks.id, id), eq(classWorks.isPublished, true)))
    if (!c) throw notFound('クラス')
    return c.teacherId
  }
  if (type === 'teacher') {
    const [t] = await db
      .select({ id: users.id })
      .from(users)
      // Only a teacher the reporter can see: one with a public page.
      .where(and(eq(users.id, id), publicTeacher))
    if (!t) throw notFound('先生')
    return t.id
  }
  if (type === 'review') {
    const [r] = await db
      .select({ userId: reviews.userId })
      .from(reviews)
      .innerJoin(classWorks, eq(classWorks.id, reviews.classWorkId))
      .where(and(eq(reviews.id, id), eq(reviews.status, 'visible'), eq(classWorks.isPublished, true)))
    if (!r) throw notFound('レビュー')
    return r.userId
  }
  // A message: one the reporter received, in a room they belong to.
  const [m] = await db
    .select({ senderId: messages.senderId })
    .from(messages)
    .innerJoin(roomMembers, and(eq(roomMembers.roomId, messages.roomId), eq(roomMembers.userId, reporter.id)))
    .where(and(eq(messages.id, id), eq(messages.status, 'visible')))
  if (!m) throw notFound('メッセージ')
  return m.senderId
}

/**
 * Records a report. Reporting the same content again while the first report is open changes nothing and answers
 * the same (the rate limit is counted by the route before this runs).
 */
export async function createReport(db: Db, reporter: UserRow, body: CreateReportBody, now: Date) {
  const targetUserId = await ownerOfTarget(db, reporter, body.target_type, body.target_id)
  if (targetUserId === reporter.id)
    throw new ApiError(422, 'own_content', 'ご自身のクラスやメッセージ、レビューは通報できません')
  const [row] = await db
    .insert(reports)
    .values({
      reporterId: reporter.id,
      targetType: body.target_type,
      targetId: body.target_id,
      targetUserId,
      reason: body.reason,
      detail: (body.detail ?? '').trim(),
      createdAt: now,
    })
    // The open report answers a second one, in the same statement: read afterwards, it could have been decided
    // (closed) in between and there would be nothing to answer with. The update writes nothing new; while an
    // operator's decision holds the row it waits, and if the report closed meanwhile this one is recorded afresh.
    .onConflictDoUpdate({
      target: [reports.reporterId, reports.targetType, reports.targetId],
      // Written into the SQL, not a parameter: a prepared statement planned generically could not match the
      // partial unique index otherwise (42P10 on PGlite from the sixth run).
      targetWhere: sql`${reports.status} = 'open'`,
      set: { reason: sql`${reports.reason}` },
    })
    .returning({ id: reports.id })
  return { id: row!.id, message: REPORT_RECEIVED_MESSAGE }
}

const reporters = alias(users, 'reporters')
const owners = alias(users, 'owners')
const teacherTargets = alias(users, 'teacher_targets')

/**
 * Open reports oldest first (the longest wait first); closed ones newest first. Not those about the operator's own
 * account or content: its reporter is never shown to the one reported (0020), and four eyes decide them.
 */
export async function adminListReports(
  db: Db,
  query: Required<Pick<AdminReportQuery, 'status'>> & AdminReportQuery,
  operatorId: number,
) {
  const page = typeof query.page === 'number' ? query.page : 1
  const where: SQL[] = [eq(reports.status, query.status ?? 'open'), ne(reports.targetUserId, operatorId)]
  if (query.kind) where.push(eq(reports.targetType, query.kind))
  const rows = await db
    .select({
      id: reports.id,
      targetType: reports.targetType,
      targetId: reports.targetId,
      reason: reports.reason,
      detail: reports.detail,
      status: reports.status,
      createdAt: reports.createdAt,
      resolvedAt: reports.resolvedAt,
      note: reports.note,
      reporterId: reporters.id,
      reporterNickname: reporters.nickname,
      ownerId: owners.id,
      ownerNickname: owners.nickname,
      ownerSuspendedAt: owners.suspendedAt,
      classTitle: classWorks.title,
      messageBody: messages.body,
      reviewComment: reviews.comment,
      reviewClassId: reviews.classWorkId,
      teacherNickname: teacherTargets.nickname,
    })
    .from(reports)
    .innerJoin(reporters, eq(reporters.id, reports.reporterId))
    .innerJoin(owners, eq(owners.id, reports.targetUserId))
    .leftJoin(classWorks, and(eq(reports.targetType, 'class'), eq(classWorks.id, reports.targetId)))
    .leftJoin(messages, and(eq(reports.targetType, 'message'), eq(messages.id, reports.targetId)))
    .leftJoin(reviews, and(eq(reports.targetType, 'review'), eq(reviews.id, reports.targetId)))
    .leftJoin(teacherTargets, and(eq(reports.targetType, 'teacher'), eq(teacherTargets.id, reports.targetId)))
    .where(and(...where))
    .orderBy(query.status === 'open' ? asc(reports.createdAt) : desc(reports.resolvedAt), asc(reports.id))
    .limit(ADMIN_LIST_PAGE_SIZE)
    .offset((page - 1) * ADMIN_LIST_PAGE_SIZE)
  return rows.map(
    (r): AdminReport => ({
      id: r.id,
      target_type: r.targetType as AdminReport['target_type'],
      target_id: r.targetId,
      target_summary:
        r.targetType === 'class'
          ? (r.classTitle ?? '（削除されたクラス）')
          : r.targetType === 'teacher'
            ? (r.teacherNickname ?? '')
            : r.targetType === 'review'
              ? (r.reviewComment ?? '（削除されたレビュー）')
              : (r.messageBody ?? '（削除されたメッセージ）'),
      target_url:
        r.targetType === 'class'
          ? `/class_search/detail/${r.targetId}`
          : r.targetType === 'teacher'
            ? `/teacher/detail/${r.targetId}`
            : r.targetType === 'review' && r.reviewClassId
              ? `/class_search/detail/${r.reviewClassId}`
              : null,
      target_user: { id: r.ownerId, nickname: r.ownerNickname, suspended: r.ownerSuspendedAt !== null },
      reporter: { id: r.reporterId, nickname: r.reporterNickname },
      reason: r.reason as AdminReport['reason'],
      detail: r.detail,
      status: r.status as AdminReport['status'],
      created_at: iso(r.createdAt),
      resolved_at: r.resolvedAt ? iso(r.resolvedAt) : null,
      note: r.note,
    }),
  )
}

interface Cancellation {
  canceled: number
  refunded: number
}

/** The ids among `ids` of classes that are courses (a sql `false` list when none: inArray needs one). */
function courseIds(classes: { id: number; lessonCount: number }[], ids: number[]): number[] {
  const wanted = new Set(ids)
  const found = classes.filter((c) => c.lessonCount > 1 && wanted.has(c.id)).map((c) => c.id)
  return found.length ? found : [0]
}

/**
 * Cancels, with full refunds, the future lessons of the given classes (each schedule not started and not canceled)
 * and the given member's own future reservations and every hold of theirs (also on a lesson under way), locking class → schedule → purchase in id order
 * (docs/decisions/0015). Returns how many reservations ended and what was refunded.
 */
async function cancelFutureLessons(
  tx: Tx,
  input: { classIds: number[]; memberId?: number; alsoLock?: number[] },
  now: Date,
): Promise<Cancellation> {
  const own = input.memberId
    ? await tx
        .select({
          purchaseId: purchases.id,
          scheduleId: purchases.scheduleId,
          classWorkId: classWorkSchedules.classWorkId,
        })
        .from(purchases)
        .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
        .where(
          and(
            eq(purchases.userId, input.memberId),
            or(
              and(eq(purchases.status, 'reserved'), gt(classWorkSchedules.startedAt, now)),
              // Every hold, even on a lesson under way (booked minutes before the start): its checkout page can
              // still pay, and money that arrives must find the seat given up, not book a suspended account.
              eq(purchases.status, 'pending'),
            ),
          ),
        )
    : []
  // One ascending pass over every class the caller will touch (alsoLock: a suspension's reviewed classes), so
  // that no later lock goes below one already held (0015).
  const classIds = [
    ...new Set([...input.classIds, ...own.map((o) => o.classWorkId), ...(input.alsoLock ?? [])]),
  ].sort((a, b) => a - b)
  if (classIds.length === 0) return { canceled: 0, refunded: 0 }
  const classes = await tx
    .select({ id: classWorks.id, title: classWorks.title, lessonCount: classWorks.lessonCount })
    .from(classWorks)
    .where(inArray(classWorks.id, classIds))
    .orderBy(asc(classWorks.id))
    .for('no key update')
  // Only locks were asked for (a suspended member with reviews but no classes or seats): nothing to cancel.
  if (input.classIds.length === 0 && own.length === 0) return { canceled: 0, refunded: 0 }
  const classById = new Map(classes.map((c) => [c.id, c]))
  const stopped = new Set(input.classIds)
  const schedules = await tx
    .select({
      id: classWorkSchedules.id,
      classWorkId: classWorkSchedules.classWorkId,
      startedAt: classWorkSchedules.startedAt,
      endedAt: classWorkSchedules.endedAt,
    })
    .from(classWorkSchedules)
    .where(
      or(
        input.classIds.length
          ? and(
              inArray(classWorkSchedules.classWorkId, input.classIds),
              eq(classWorkSchedules.isCanceled, false),
              // A course run under way (全N回) is stopped too: its remaining lessons will not be taught.
              or(
                gt(classWorkSchedules.startedAt, now),
                and(
                  gt(classWorkSchedules.endedAt, now),
                  inArray(classWorkSchedules.classWorkId, courseIds(classes, input.classIds)),
                ),
              ),
            )
          : sql`false`,
        own.length
          ? inArray(
              classWorkSchedules.id,
              own.map((o) => o.scheduleId),
            )
          : sql`false`,
      ),
    )
    .orderBy(asc(classWorkSchedules.id))
    .for('no key update')
  const result: Cancellation = { canceled: 0, refunded: 0 }
  for (const schedule of schedules) {
    if (!stopped.has(schedule.classWorkId)) continue
    const { canceled, refunded } = await cancelHeldSchedule(
      tx,
      classById.get(schedule.classWorkId)!,
      schedule,
      now,
      'operator',
    )
    result.canceled += canceled.length
    result.refunded += refunded
  }
  // The member's own seats on other teachers' classes: cancelled as if by them, refunded in full.
  for (const o of own) {
    if (stopped.has(o.classWorkId)) continue
    // A seat still waiting for its payment is given back unpaid.
    if (await releaseHold(tx, o.purchaseId, now)) continue
    const [p] = await tx
      .update(purchases)
      .set({ status: 'canceled_by_user', canceledAt: now })
      .where(and(eq(purchases.id, o.purchaseId), eq(purchases.status, 'reserved')))
      .returning({ id: purchases.id, price: purchases.price, userId: purchases.userId })
    if (!p) continue
    await tx
      .update(classWorkSchedules)
      .set({ purchasedCount: sql`greatest(${classWorkSchedules.purchasedCount} - 1, 0)` })
      .where(eq(classWorkSchedules.id, o.scheduleId))
    const refunded = await requestRefund(tx, p.id, 'operator')
    await enqueue(tx, 'notify.purchase_canceled', { purchaseId: p.id, by: 'operator' })
    // The freed seat goes to the waitlist first (issue 16); class and schedule are locked above.
    await offerFreedSeats(tx, o.scheduleId, now)
    result.canceled += 1
    result.refunded += refunded
  }
  return result
}

/**
 * Suspends an account: it cannot sign in (the auth flow refuses it, /v1 answers 403), every session ends now, its
 * photo is removed, its classes leave search and their pages answer 410, and every future lesson it teaches or attends is cancelled and
 * refunded in full, with mails. All in the caller's transaction.
 */
async function suspendAccount(tx: Tx, userId: number, now: Date) {
  const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update')
  if (!user) throw notFound('アカウント')
  if (user.suspendedAt)
    throw new ApiError(409, 'already_suspended', 'このアカウントはすでに利用停止しています')
  if (user.isOperator) throw new ApiError(409, 'operator_account', '運営のアカウントは利用停止できません')
  // The photo goes with the account, as a taken-down class's picture does (0035): its address was public (the
  // teacher page's JSON-LD) and an uploaded file is served with immutable caching. Lifting does not restore it.
  await tx
    .update(users)
    .set({ suspendedAt: now, updatedAt: now, avatarUrl: null })
    .where(eq(users.id, userId))
  await releaseAvatar(tx, user.avatarUrl)
  const classIds = (
    await tx
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(eq(classWorks.teacherId, userId))
      .orderBy(asc(classWorks.id))
  ).map((c) => c.id)
  // Their visible reviews: their classes are locked with the rest, in order, before any review is hidden.
  const theirReviews = await tx
    .select({ id: reviews.id, classWorkId: reviews.classWorkId })
    .from(reviews)
    .where(and(eq(reviews.userId, userId), eq(reviews.status, 'visible')))
    .orderBy(asc(reviews.classWorkId), asc(reviews.id))
  const cancellation = await cancelFutureLessons(
    tx,
    { classIds, memberId: userId, alsoLock: theirReviews.map((r) => r.classWorkId) },
    now,
  )
  // Published classes are taken down (hidden: their pages answer 410, their pictures are deleted); drafts stay
  // drafts, never revealed.
  const published = classIds.length
    ? await tx
        .select({ id: classWorks.id, imageUrl: classWorks.imageUrl })
        .from(classWorks)
        .where(and(inArray(classWorks.id, classIds), eq(classWorks.isPublished, true)))
    : []
  if (published.length) {
    await tx
      .update(classWorks)
      .set({ isPublished: false, hiddenAt: now, hiddenBySuspension: true, imageUrl: null, updatedAt: now })
      .where(
        inArray(
          classWorks.id,
          published.map((c) => c.id),
        ),
      )
    for (const c of published) await releaseClassImage(tx, c.imageUrl, c.id)
  }
  // Their place in any waitlist ends: waiting entries are cancelled; a seat held for them expires now and the
  // minute's expiry job passes it to the next in line (no extra class locks taken here).
  await tx
    .update(waitlistEntries)
    .set({ status: 'canceled' })
    .where(and(eq(waitlistEntries.userId, userId), eq(waitlistEntries.status, 'waiting')))
  await tx
    .update(waitlistEntries)
    .set({ offerExpiresAt: now })
    .where(and(eq(waitlistEntries.userId, userId), eq(waitlistEntries.status, 'offered')))
  // Their reviews leave the class pages and the ratings (a suspension is for what they wrote, too).
  for (const r of theirReviews) await hideReview(tx, r.id, true)
  // Their messages waiting for an operator are never delivered now (the sender sees them as removed).
  await tx
    .update(messages)
    .set({ status: 'deleted', moderatedAt: now })
    .where(and(eq(messages.senderId, userId), eq(messages.status, 'held')))
  const ended = await tx
    .delete(sessions)
    .where(and(eq(sessions.issuer, user.issuer), eq(sessions.sub, user.sub)))
    .returning({ id: sessions.id })
  return { user, cancellation, unpublished: published.length, sessionsEnded: ended.length }
}

/**
 * Whether deciding the report is in the operator's own interest, beyond being about their own account (four eyes,
 * 0020): one they filed themselves, a review of their own class, a message in one of their own rooms.
 */
async function concernsOperator(
  tx: Tx,
  report: { reporterId: number; targetType: string; targetId: number },
  operatorId: number,
): Promise<boolean> {
  if (report.reporterId === operatorId) return true
  if (report.targetType === 'review') {
    const [own] = await tx
      .select({ id: reviews.id })
      .from(reviews)
      .innerJoin(classWorks, eq(classWorks.id, reviews.classWorkId))
      .where(and(eq(reviews.id, report.targetId), eq(classWorks.teacherId, operatorId)))
    return own !== undefined
  }
  if (report.targetType === 'message') {
    const [own] = await tx
      .select({ id: messages.id })
      .from(messages)
      .innerJoin(roomMembers, eq(roomMembers.roomId, messages.roomId))
      .where(and(eq(messages.id, report.targetId), eq(roomMembers.userId, operatorId)))
    return own !== undefined
  }
  return false
}

/**
 * Hides one class: out of search and pages (410), its future lessons cancelled and refunded. Null when its teacher
 * has deleted it since it was reported (only a class nobody ever reserved can be): nothing is left to hide or cancel,
 * and the report still closes as hidden, as for a review or a message that is gone.
 */
async function hideClass(tx: Tx, classWorkId: number, now: Date): Promise<Cancellation | null> {
  const [cls] = await tx
    .select({ id: classWorks.id, hiddenAt: classWorks.hiddenAt, imageUrl: classWorks.imageUrl })
    .from(classWorks)
    .where(eq(classWorks.id, classWorkId))
    // Locked as it is read: a lift of the suspension committing between the read and the writes below would leave
    // the class a draft its teacher can publish again, its report closed as hidden.
    .for('update')
  if (!cls) return null
  if (cls.hiddenAt) {
    // Taken down by a suspension meanwhile (a report filed while it ran): judged on its own report now, so lifting
    // the suspension does not bring it back (0020).
    await tx.update(classWorks).set({ hiddenBySuspension: false }).where(eq(classWorks.id, classWorkId))
    return { canceled: 0, refunded: 0 }
  }
  const cancellation = await cancelFutureLessons(tx, { classIds: [classWorkId] }, now)
  // Its picture goes too: a report is often about it, and its address must stop answering (0035).
  await tx
    .update(classWorks)
    .set({ hiddenAt: now, isPublished: false, imageUrl: null, updatedAt: now })
    .where(eq(classWorks.id, classWorkId))
  await releaseClassImage(tx, cls.imageUrl, classWorkId)
  // Its teacher is told (their class management shows a draft that can no longer be published).
  await enqueue(tx, 'notify.class_hidden', {
    classWorkId,
    canceled: cancellation.canceled,
    refunded: cancellation.refunded,
  })
  return cancellation
}

export async function adminResolveReport(
  db: Db,
  operator: UserRow,
  id: number,
  body: ResolveReportBody,
  now: Date,
  address?: string,
): Promise<ResolveReportResult> {
  return transaction(db, async (tx) => {
    const [seen] = await tx.select().from(reports).where(eq(reports.id, id))
    if (!seen) throw notFound('通報')
    // Locked first, in id order: this report and every open one the decision closes with it. Two operators deciding
    // two reports of one class at once each held their own and then, under the class lock, closed the other's
    // (0015). Two deciding this one get one decision and one 409.
    const locked = await tx
      .select()
      .from(reports)
      .where(
        or(
          eq(reports.id, id),
          and(
            eq(reports.status, 'open'),
            body.action === 'suspend'
              ? eq(reports.targetUserId, seen.targetUserId)
              : and(eq(reports.targetType, seen.targetType), eq(reports.targetId, seen.targetId)),
          ),
        ),
      )
      .orderBy(asc(reports.id))
      .for('update')
    const [report] = await tx.select().from(reports).where(eq(reports.id, id))
    if (!report) throw notFound('通報')
    if (report.status !== 'open') throw new ApiError(409, 'already_resolved', 'この通報は対応済みです')
    // Four eyes on everything the decision closes: not only this report, but one the operator filed (or about
    // their own room) on the same content, or about the same account on a suspension.
    for (const r of [report, ...locked.filter((l) => l.id !== id && l.status === 'open')])
      if (r.targetUserId === operator.id || (await concernsOperator(tx, r, operator.id))) throw ownAccount()
    const note = (body.note ?? '').trim() || null
    let status: 'dismissed' | 'hidden' | 'suspended' = 'dismissed'
    let cancellation: Cancellation = { canceled: 0, refunded: 0 }
    let after: Record<string, unknown> = {}
    if (body.action === 'hide') {
      status = 'hidden'
      if (report.targetType === 'class') {
        const hidden = await hideClass(tx, report.targetId, now)
        if (hidden) cancellation = hidden
        after = {
          ...(hidden ? { class_hidden: report.targetId } : { class_already_deleted: report.targetId }),
          ...cancellationJson(cancellation),
        }
      } else if (report.targetType === 'review') {
        await hideReview(tx, report.targetId)
        after = { review_hidden: report.targetId }
      } else if (report.targetType === 'message') {
        await tx
          .update(messages)
          .set({ status: 'deleted', moderatedAt: now, moderatedBy: operator.id })
          .where(eq(messages.id, report.targetId))
        after = { message_deleted: report.targetId }
      } else {
        throw new ApiError(
          422,
          'cannot_hide',
          '先生のページは非表示にできません。問題がある場合は利用停止を選んでください',
        )
      }
    } else if (body.action === 'suspend') {
      status = 'suspended'
      const s = await suspendAccount(tx, report.targetUserId, now)
      cancellation = s.cancellation
      after = {
        suspended_user: report.targetUserId,
        classes_unpublished: s.unpublished,
        sessions_ended: s.sessionsEnded,
        ...cancellationJson(cancellation),
      }
      await audit(tx, {
        actorId: operator.id,
        actorLabel: actorLabel(operator),
        action: 'account_suspend',
        targetType: 'user',
        targetId: report.targetUserId,
        address,
        before: { suspended: false, nickname: s.user.nickname },
        after: { suspended: true, report_id: id, ...after },
      })
    }
    // Every open report about the same content (or, on a suspension, about anything of that account) closes too:
    // those locked and checked above. One filed while this decision waited for the class or the account is left
    // open for a decision of its own: it was never checked for four eyes (the operator may have filed it).
    const closed = await tx
      .update(reports)
      .set({ status, resolvedAt: now, resolvedBy: operator.id, note })
      .where(
        and(
          eq(reports.status, 'open'),
          inArray(
            reports.id,
            locked.filter((l) => l.status === 'open').map((l) => l.id),
          ),
        ),
      )
      .returning({ id: reports.id, targetType: reports.targetType, targetId: reports.targetId })
    if (status === 'suspended') {
      // Every reported class or review of the account was closed with it (judged with the account): lifting the
      // suspension does not bring those back, only what the suspension took down unreported (migration 0031).
      const reported = (type: string) => closed.filter((r) => r.targetType === type).map((r) => r.targetId)
      if (reported('class').length) {
        await tx
          .update(classWorks)
          .set({ hiddenBySuspension: false })
          .where(and(inArray(classWorks.id, reported('class')), eq(classWorks.hiddenBySuspension, true)))
        // A reported class its teacher had unpublished was left a draft by the suspension: it is taken down like
        // the others (hidden, its picture gone), or lifting would let it be published again as it was reported.
        const drafts = await tx
          .select({ id: classWorks.id, imageUrl: classWorks.imageUrl })
          .from(classWorks)
          .where(and(inArray(classWorks.id, reported('class')), isNull(classWorks.hiddenAt)))
        if (drafts.length) {
          await tx
            .update(classWorks)
            .set({ hiddenAt: now, isPublished: false, imageUrl: null, updatedAt: now })
            .where(
              inArray(
                classWorks.id,
                drafts.map((c) => c.id),
              ),
            )
          for (const c of drafts) await releaseClassImage(tx, c.imageUrl, c.id)
        }
      }
      // A reported message is removed with the account it came from, as "hide" would have removed it (the
      // decision closed its report): its recipient no longer sees it.
      if (reported('message').length)
        await tx
          .update(messages)
          .set({ status: 'deleted', moderatedAt: now, moderatedBy: operator.id })
          .where(and(inArray(messages.id, reported('message')), ne(messages.status, 'deleted')))
      if (reported('review').length)
        await tx
          .update(reviews)
          .set({ hiddenBySuspension: false })
          .where(and(inArray(reviews.id, reported('review')), eq(reviews.hiddenBySuspension, true)))
    }
    if (status !== 'suspended')
      await audit(tx, {
        actorId: operator.id,
        actorLabel: actorLabel(operator),
        action: status === 'hidden' ? 'report_hide' : 'report_dismiss',
        targetType: report.targetType,
        targetId: report.targetId,
        address,
        before: { status: 'open', report_id: id },
        after: { status, reports_closed: closed.length, note, ...after },
      })
    // With the suspension's time: its mail goes only while that suspension holds (not after a lift, nor a later one).
    if (status === 'suspended')
      await enqueue(tx, 'notify.account_suspended', {
        userId: report.targetUserId,
        suspendedAt: now.toISOString(),
      })
    return {
      id,
      status,
      canceled_reservations: cancellation.canceled,
      refunded_amount: cancellation.refunded,
    }
  })
}

const cancellationJson = (c: Cancellation) => ({
  reservations_canceled: c.canceled,
  refunded_amount: c.refunded,
})
