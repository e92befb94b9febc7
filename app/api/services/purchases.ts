import { and, asc, desc, eq, gt, inArray, lte, ne, or, type SQL, sql } from 'drizzle-orm'
import type { CreatePurchaseBody, Purchase, PurchaseScope } from '../../contract/v1/purchases'
import type { Db, Tx } from '../../db/client'
import {
  classWorkSchedules,
  classWorks,
  learners,
  purchases,
  reviews,
  users,
  waitlistEntries,
} from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { PAYMENT_HOLD_MS } from '../../lib/money'
import { canCancel, cancelDeadline, commissionOf, isMeetingOpen } from '../../lib/reservation-rules'
import type { PaymentProvider } from '../../payments/provider.server'
import type { UserRow } from '../auth'
import { ApiError, notFound } from '../errors'
import { refuseIfSuspended } from './account-state'
import { iso } from './class-cards'
import { ownLearner } from './learners'
import { courseLessonsOf, lessonJson, lessonsOr } from './lessons'
import {
  createAtProvider,
  openPayment,
  type PaymentDeps,
  paymentBeforeGivingUp,
  paymentsOfPurchases,
  refundedNoSeat,
  releaseHold,
  requestRefund,
} from './payments'
import { activeOffer, offerFreedSeats } from './waitlist'

const LIST_LIMIT = 200

const conflict = (code: string, message: string) => new ApiError(409, code, message)
export const FULL = () => conflict('full', '満席です')
const alreadyReserved = () => conflict('already_reserved', 'この日程はすでに予約しています')

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true
  }
  return false
}

/** Why a schedule that offers no seat offers none: cancelled, started, or else full. */
function whyNoSeat(s: { isCanceled: boolean; startedAt: Date }, now: Date): ApiError {
  if (s.isCanceled) return conflict('canceled', 'この日程は中止になりました')
  if (s.startedAt.getTime() <= now.getTime())
    return conflict('started', 'この日程はすでに始まっているため予約できません')
  return FULL()
}

export interface PurchaseDeps {
  now: Date
  /** Where paid seats are paid (the configured provider). */
  provider: PaymentProvider
  commissionRate: number
}

/**
 * Takes the class row's lock first (docs/decisions/0015: class → schedule → purchase). FOR NO KEY UPDATE is the
 * lock the seat-counter triggers' UPDATE of class_works would take later anyway; taking it up front means a
 * reservation never holds a schedule while waiting for its class, which a teacher's edit holds the other way round.
 */
async function lockClassOf(tx: Tx, classWorkId: number) {
  const [row] = await tx
    .select({
      title: classWorks.title,
      teacherId: classWorks.teacherId,
      price: classWorks.price,
      isPublished: classWorks.isPublished,
      organizationId: classWorks.organizationId,
    })
    .from(classWorks)
    .where(eq(classWorks.id, classWorkId))
    .for('no key update')
  return row
}

/**
 * Reserves a seat (POST /v1/purchases). One transaction: the seat counter is bumped by a conditional UPDATE
 * (not full, not canceled, not started) whose row lock serializes concurrent buyers, so seats never oversell;
 * the partial unique index `purchases_seat_unique` stops a second seat for the same person. Price and commission
 * are copied onto the purchase. A free class is reserved at once; a paid one is held (`pending`) for
 * PAYMENT_HOLD_MS with its payment opened, and the member pays on the checkout page (app/api/services/payments.ts).
 */
export async function createPurchase(
  db: Db,
  user: UserRow,
  body: CreatePurchaseBody,
  deps: PurchaseDeps,
): Promise<Purchase> {
  const learnerId = body.learner_id ?? null
  let held: { id: number; paymentId: number | undefined; title: string }
  try {
    held = await transaction(db, async (tx) => {
      // Locks in the order of 0015: the member (a suspension running now is waited for, or sees this seat),
      // the child's profile (it cannot be deleted under the booking), then the class.
      await refuseIfSuspended(tx, user.id, 'key share')
      if (learnerId !== null) {
        const [own] = await tx
          .select({ id: learners.id })
          .from(learners)
          .where(ownLearner(learnerId, user.id))
          .for('share')
        if (!own) throw notFound('お子さまのプロフィール')
      }
      const [found] = await tx
        .select({ classWorkId: classWorkSchedules.classWorkId })
        .from(classWorkSchedules)
        .where(eq(classWorkSchedules.id, body.schedule_id))
      // Price, publication and teacher as they are under the class lock: a price change or unpublishing that
      // committed while this waited is what the booking sees.
      const cls = found && (await lockClassOf(tx, found.classWorkId))
      if (!found || !cls?.isPublished) throw notFound('クラスの日程')
      const schedule = { id: body.schedule_id, classWorkId: found.classWorkId, ...cls }
      if (schedule.teacherId === user.id) {
        throw new ApiError(422, 'own_class', 'ご自身のクラスは予約できません')
      }
      // One statement: whether this person holds a seat already, and the seats as they are now. When no seat
      // can be had (none held for the waitlist, so no offer either), the answer is given here: in a rush for the
      // last seats every loser waits for the class lock, and each one that goes on to the offer lookup and the
      // write keeps the rest waiting longer (30 bookings for 5 seats on three instances ran past the statement
      // timeout). The conditional UPDATE below stays the authority for everyone else.
      const [state] = await tx
        .select({
          reserved: sql<boolean>`exists (select 1 from ${purchases} where ${and(
            eq(purchases.scheduleId, schedule.id),
            eq(purchases.userId, user.id),
            inArray(purchases.status, ['reserved', 'pending']),
            sql`coalesce(${purchases.learnerId}, 0) = ${learnerId ?? 0}`,
          )})`,
          capacity: classWorkSchedules.capacity,
          purchasedCount: classWorkSchedules.purchasedCount,
          heldCount: classWorkSchedules.heldCount,
          isCanceled: classWorkSchedules.isCanceled,
          startedAt: classWorkSchedules.startedAt,
        })
        .from(classWorkSchedules)
        .where(eq(classWorkSchedules.id, schedule.id))
      if (state?.reserved) throw alreadyReserved()
      const open =
        state &&
        !state.isCanceled &&
        state.startedAt.getTime() > deps.now.getTime() &&
        state.purchasedCount + state.heldCount < state.capacity
      if (state && state.heldCount === 0 && !open) throw whyNoSeat(state, deps.now)

      // A member offered a seat from the waitlist takes the seat held for them; anyone else needs one that is
      // neither sold nor held (issue 16).
      const offer = await activeOffer(tx, user.id, schedule.id, learnerId, deps.now)
      const taken = await tx
        .update(classWorkSchedules)
        .set(
          offer
            ? {
                purchasedCount: sql`${classWorkSchedules.purchasedCount} + 1`,
                heldCount: sql`${classWorkSchedules.heldCount} - 1`,
              }
            : { purchasedCount: sql`${classWorkSchedules.purchasedCount} + 1` },
        )
        .where(
          and(
            eq(classWorkSchedules.id, schedule.id),
            offer
              ? sql`${classWorkSchedules.heldCount} > 0`
              : sql`${classWorkSchedules.purchasedCount} + ${classWorkSchedules.heldCount} < ${classWorkSchedules.capacity}`,
            eq(classWorkSchedules.isCanceled, false),
            gt(classWorkSchedules.startedAt, deps.now),
          ),
        )
        .returning({ id: classWorkSchedules.id })
      if (taken.length === 0) {
        // Why not: read the row again (it may have changed since the statement above).
        const [s] = await tx
          .select({ isCanceled: classWorkSchedules.isCanceled, startedAt: classWorkSchedules.startedAt })
          .from(classWorkSchedules)
          .where(eq(classWorkSchedules.id, schedule.id))
        const refusal = s ? whyNoSeat(s, deps.now) : FULL()
        // Full, but a seat is held for this member's wait for someone else: say for whom, so they pick them.
        const offer =
          refusal.code === 'full' && (await activeOffer(tx, user.id, schedule.id, 'any', deps.now))
        if (offer)
          throw conflict(
            'offer_for_another_attendee',
            `この席は、キャンセル待ちで申し込んだ受講者（${offer.learner ?? 'ご本人'}）のために確保しています。受講する人を選び直してください`,
          )
        throw refusal
      }

      const price = schedule.price
      const paid = price > 0
      const holdExpiresAt = paid ? new Date(deps.now.getTime() + PAYMENT_HOLD_MS) : null
      const [purchase] = await tx
        .insert(purchases)
        .values({
          scheduleId: schedule.id,
          userId: user.id,
          learnerId,
          organizationId: schedule.organizationId,
          price,
          commission: commissionOf(price, deps.commissionRate),
          status: paid ? 'pending' : 'reserved',
          holdExpiresAt,
          createdAt: deps.now,
        })
        .returning({ id: purchases.id })
      const paymentId = paid
        ? await openPayment(tx, {
            purchaseId: purchase!.id,
            userId: user.id,
            amount: price,
            provider: deps.provider.name,
            holdExpiresAt: holdExpiresAt!,
          })
        : undefined
      // Their place in this schedule's line ends with the booking: the offer they used, or a wait that a free
      // seat made unnecessary. An offer that ran out stays for the expiry job, which releases its hold.
      // A wait for another attendee (a sibling) goes on.
      const waitingForThem = and(
        eq(waitlistEntries.status, 'waiting'),
        sql`coalesce(${waitlistEntries.learnerId}, 0) = ${learnerId ?? 0}`,
      )
      await tx
        .update(waitlistEntries)
        .set({
          status: 'booked',
          bookedPurchaseId: offer
            ? sql`case when ${waitlistEntries.id} = ${offer.id} then ${purchase!.id}::int end`
            : null,
        })
        .where(
          and(
            eq(waitlistEntries.scheduleId, schedule.id),
            eq(waitlistEntries.userId, user.id),
            offer ? or(eq(waitlistEntries.id, offer.id), waitingForThem) : waitingForThem,
          ),
        )
      // Outbox: the mails and live updates of a free reservation go out once this commits (a paid one's when it
      // is paid), and never if it rolls back.
      if (!paid) await enqueue(tx, 'notify.purchase_created', { purchaseId: purchase!.id })
      return { id: purchase!.id, paymentId, title: schedule.title }
    })
  } catch (err) {
    if (err instanceof ApiError) throw err
    if (isUniqueViolation(err)) throw alreadyReserved()
    throw err
  }
  // The payment at the provider, after the hold is committed (no network call under the seat's locks).
  if (held.paymentId !== undefined) await createAtProvider(db, held.paymentId, held.title, deps)
  const purchaseId = held.id
  // With an ended hold too: an operator or the teacher may have cancelled it in the meantime.
  const [created] = await listPurchaseRows(db, user.id, eq(purchases.id, purchaseId), deps.now, 'asc', true)
  return created!
}

const alreadyPaid = () =>
  conflict(
    'already_paid',
    'お支払いが完了したため、予約は確定しています。キャンセルする場合は、受講予定の予約からキャンセルしてください',
  )

/**
 * Cancels the member's own reservation (POST /v1/purchases/{id}/cancel) until 24 hours before the start: status,
 * canceled_at and the seat counter change in one transaction, with the refund of its payment queued (paid out by a
 * job, exactly once). A seat still waiting for its payment is given back, unless the provider has taken the money
 * (409 already_paid) or is still confirming it (409 payment_processing).
 */
export async function cancelPurchase(
  db: Db,
  userId: number,
  purchaseId: number,
  deps: PaymentDeps,
): Promise<Purchase> {
  // A held seat's payment may be paid, or being confirmed, at the provider already (asked outside the locks).
  const atProvider = await paymentBeforeGivingUp(db, userId, purchaseId, deps)
  if (atProvider === 'reserved') throw alreadyPaid()
  if (atProvider === 'refunded') throw refundedNoSeat()
  if (atProvider === 'processing')
    throw conflict('payment_processing', 'お支払いを確認しています。しばらくしてから、もう一度お試しください')
  await transaction(db, async (tx) => {
    const [row] = await tx
      .select({
        status: purchases.status,
        scheduleId: purchases.scheduleId,
        classWorkId: classWorkSchedules.classWorkId,
        startedAt: classWorkSchedules.startedAt,
      })
      .from(purchases)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
      .where(and(eq(purchases.id, purchaseId), eq(purchases.userId, userId), ne(purchases.status, 'expired')))
      .limit(1)
    if (!row) throw notFound('予約')
    if (row.status === 'pending') {
      if (await releaseHold(tx, purchaseId, deps.now)) return
      // The payment settled while this waited for the seat's locks: the member is charged and booked, which a
      // success answer here would hide (「予約をとりやめました」). An ended hold is what they asked for.
      const [now] = await tx
        .select({ status: purchases.status })
        .from(purchases)
        .where(eq(purchases.id, purchaseId))
      if (now?.status === 'reserved') throw alreadyPaid()
      return
    }
    if (row.status !== 'reserved') throw conflict('not_reserved', 'この予約はすでにキャンセルされています')
    if (!canCancel(row.status, row.startedAt, deps.now)) {
      throw conflict('cancel_deadline_passed', 'キャンセルできるのは授業開始の24時間前までです')
    }
    // Lock order: class, then schedule, then the purchase.
    await lockClassOf(tx, row.classWorkId)
    await tx
      .select({ id: classWorkSchedules.id })
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.id, row.scheduleId))
      .for('no key update')
    const changed = await tx
      .update(purchases)
      .set({ status: 'canceled_by_user', canceledAt: deps.now })
      .where(and(eq(purchases.id, purchaseId), eq(purchases.status, 'reserved')))
      .returning({ id: purchases.id })
    if (changed.length === 0) throw conflict('not_reserved', 'この予約はすでにキャンセルされています')
    await tx
      .update(classWorkSchedules)
      .set({ purchasedCount: sql`${classWorkSchedules.purchasedCount} - 1` })
      .where(eq(classWorkSchedules.id, row.scheduleId))
    await requestRefund(tx, purchaseId, 'member_cancel')
    await enqueue(tx, 'notify.purchase_canceled', { purchaseId })
    // The freed seat goes to the first in line, held for them (issue 16).
    await offerFreedSeats(tx, row.scheduleId, deps.now)
  })
  const [updated] = await listPurchaseRows(db, userId, eq(purchases.id, purchaseId), deps.now, 'asc', true)
  return updated!
}

/** One of the member's purchases as the list shows it (an ended hold too); undefined when not theirs. */
export async function purchaseById(db: Db, userId: number, purchaseId: number, now: Date) {
  const [row] = await listPurchaseRows(db, userId, eq(purchases.id, purchaseId), now, 'asc', true)
  return row
}

/** GET /v1/purchases?scope=upcoming (not ended yet, soonest first) | past (ended, latest first). */
export async function listPurchases(db: Db, userId: number, scope: PurchaseScope, now: Date) {
  return scope === 'upcoming'
    ? listPurchaseRows(db, userId, gt(classWorkSchedules.endedAt, now), now, 'asc')
    : listPurchaseRows(db, userId, lte(classWorkSchedules.endedAt, now), now, 'desc')
}

/** `withExpired`: also a hold that ended unpaid (the answer to giving one up); lists leave them out. */
async function listPurchaseRows(
  db: Db,
  userId: number,
  filter: SQL,
  now: Date,
  order: 'asc' | 'desc' = 'asc',
  withExpired = false,
): Promise<Purchase[]> {
  const rows = await db
    .select({
      id: purchases.id,
      status: purchases.status,
      price: purchases.price,
      holdExpiresAt: purchases.holdExpiresAt,
      createdAt: purchases.createdAt,
      canceledAt: purchases.canceledAt,
      learnerId: purchases.learnerId,
      learnerNickname: learners.nickname,
      scheduleId: classWorkSchedules.id,
      startedAt: classWorkSchedules.startedAt,
      endedAt: classWorkSchedules.endedAt,
      isCanceled: classWorkSchedules.isCanceled,
      revision: classWorkSchedules.revision,
      movedAt: classWorkSchedules.movedAt,
      meetingUrl: classWorkSchedules.meetingUrl,
      reviewId: reviews.id,
      reviewRating: reviews.rating,
      classWorkId: classWorks.id,
      title: classWorks.title,
      imageUrl: classWorks.imageUrl,
      lessonCount: classWorks.lessonCount,
      classHiddenAt: classWorks.hiddenAt,
      teacherId: users.id,
      teacherNickname: users.nickname,
      teacherAvatarUrl: users.avatarUrl,
      memberNickname: sql<string>`(select ${users.nickname} from ${users} where ${users.id} = ${purchases.userId})`,
    })
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .innerJoin(users, eq(users.id, classWorks.teacherId))
    .leftJoin(learners, eq(learners.id, purchases.learnerId))
    .leftJoin(reviews, eq(reviews.purchaseId, purchases.id))
    .where(
      and(eq(purchases.userId, userId), filter, withExpired ? undefined : ne(purchases.status, 'expired')),
    )
    .orderBy(
      order === 'asc' ? asc(classWorkSchedules.startedAt) : desc(classWorkSchedules.startedAt),
      asc(purchases.id),
    )
    .limit(LIST_LIMIT)
  const [courseLessons, paid] = await Promise.all([
    courseLessonsOf(
      db,
      rows.filter((r) => r.lessonCount > 1).map((r) => r.scheduleId),
    ),
    paymentsOfPurchases(
      db,
      rows.filter((r) => r.price > 0).map((r) => r.id),
    ),
  ])
  return rows.map((r) => {
    const payment = paid.get(r.id)
    const live = r.status === 'reserved' && !r.isCanceled
    const lessons = lessonsOr({ id: r.scheduleId, startedAt: r.startedAt, endedAt: r.endedAt }, courseLessons)
    return {
      id: r.id,
      // An ended hold is answered as given up: the member sees it as cancelled by them, never charged.
      status: (r.status === 'expired' ? 'canceled_by_user' : r.status) as Purchase['status'],
      price: r.price,
      created_at: iso(r.createdAt),
      canceled_at: r.canceledAt ? iso(r.canceledAt) : null,
      class_work: { id: r.classWorkId, title: r.title, image_url: r.imageUrl },
      teacher: { id: r.teacherId, nickname: r.teacherNickname, avatar_url: r.teacherAvatarUrl },
      schedule: {
        id: r.scheduleId,
        started_at: iso(r.startedAt),
        ended_at: iso(r.endedAt),
        is_canceled: r.isCanceled,
        lessons: lessons.map(lessonJson),
        revision: r.revision,
        moved_at: r.movedAt ? iso(r.movedAt) : null,
      },
      attendee:
        r.learnerId !== null
          ? { kind: 'learner' as const, learner_id: r.learnerId, nickname: r.learnerNickname ?? '' }
          : { kind: 'member' as const, learner_id: null, nickname: r.memberNickname },
      // A course run's room opens for each of its lessons, not for the weeks between them.
      meeting_url:
        live && lessons.some((l) => isMeetingOpen(l.startedAt, l.endedAt, now)) ? r.meetingUrl : null,
      can_cancel:
        (live && canCancel(r.status, r.startedAt, now)) || (r.status === 'pending' && !r.isCanceled),
      cancel_deadline: iso(cancelDeadline(r.startedAt)),
      payment: payment
        ? {
            id: payment.id,
            status: payment.status as 'requires_payment' | 'succeeded' | 'canceled',
            amount: payment.amount,
            refund_status: (payment.refundStatus as 'pending' | 'succeeded' | null) ?? null,
          }
        : null,
      hold_expires_at: r.status === 'pending' && r.holdExpiresAt ? iso(r.holdExpiresAt) : null,
      review:
        r.reviewId !== null && r.reviewRating !== null ? { id: r.reviewId, rating: r.reviewRating } : null,
      // Attended (a live reservation) and ended, not reviewed yet (issue 16), of a class not taken down.
      can_review: live && r.endedAt <= now && r.reviewId === null && r.classHiddenAt === null,
    }
  })
}
