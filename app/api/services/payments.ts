import { and, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm'
import type { SelectedFields } from 'drizzle-orm/pg-core'
import type {
  Checkout,
  ConfirmPaymentBody,
  HistoryItem,
  PaymentHistory,
  PaymentReceipt,
  PaymentSummary,
} from '../../contract/v1/payments'
import type { Db, DbOrTx, Tx } from '../../db/client'
import {
  classWorkSchedules,
  classWorks,
  jobs,
  payments,
  purchases,
  refunds,
  users,
  waitlistEntries,
  webhookEvents,
} from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { includedTax, PAYMENT_HOLD_MS, receiptNumber } from '../../lib/money'
import { tokyoMonth, tokyoMonthRange } from '../../lib/month'
import { embeddedPaymentProvider } from '../../payments/embedded.server'
import {
  PaymentDeclinedError,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderEvent,
} from '../../payments/provider.server'
import { ApiError, notFound } from '../errors'
import { iso } from './class-cards'
import { offerFreedSeats } from './waitlist'

/**
 * Checkout, settlement and refunds (issue 17; docs/decisions/0025).
 *
 * A paid reservation is made in two steps. First the seat is held: the purchase is `pending` (counted in the
 * schedule's purchased_count, so nobody else takes it) with a payment `requires_payment` and a job that ends the
 * hold after PAYMENT_HOLD_MS. Then the member pays; `settlePayment` turns the purchase `reserved`. Whatever the
 * order in which the provider's answer, the hold's end, a webhook and a crash arrive, the rules are:
 * - a seat is never taken without a payment: an unpaid hold ends (`expired`) and the seat goes back;
 * - a payment never stays without a seat: money that arrives after the hold ended takes a seat if one is free,
 *   else it is refunded in full (reason `no_seat`);
 * - every refund is one `refunds` row per payment (unique), paid out by a job with an idempotency key derived from
 *   that row, so a crash between the provider's refund and our record cannot refund twice.
 * Locks follow docs/decisions/0015: class → schedule → purchase → payment.
 */

export interface PaymentDeps {
  /** When the work happens. A job's deps read the clock at each use (app/payments/jobs.server.ts). */
  now: Date
  /** The configured provider, for new payments; older payments are served by the provider that took them. */
  provider: PaymentProvider
  /** Who issues receipts now: recorded on each payment as it succeeds. */
  issuer: ReceiptIssuer
}

/** The platform as a receipt names it: its name and 適格請求書発行事業者登録番号 (null: not registered). */
export interface ReceiptIssuer {
  name: string
  registrationNumber: string | null
}

/** What settling a payment needs: the time it is recorded and the receipt's issuer. */
export type SettleDeps = Pick<PaymentDeps, 'now' | 'issuer'>
/** What a call to the provider that never settles a payment needs. */
export type ProviderDeps = Pick<PaymentDeps, 'now' | 'provider'>

const holdEnded = () =>
  new ApiError(
    409,
    'hold_expired',
    'お支払いの期限（10分）が過ぎたため、席の確保を取り消しました。もう一度予約してください',
  )
/** The provider could not be reached (or is not the one this instance is configured with): 503, try again. */
export const paymentUnavailable = () =>
  new ApiError(
    503,
    'payment_unavailable',
    '決済サービスに接続できませんでした。時間をおいてもう一度お試しください',
  )

/** The provider that took a payment: the configured one, or the embedded one for payments it made. */
export function providerFor(db: Db, current: PaymentProvider, name: string): PaymentProvider {
  if (name === current.name) return current
  if (name === 'embedded') return embeddedPaymentProvider(async () => db)
  throw new PaymentProviderError(`payments of ${name} cannot be reached with ${current.name} configured`)
}

async function lockSeatRows(tx: Tx, classWorkId: number, scheduleId: number, purchaseId: number) {
  await tx
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(eq(classWorks.id, classWorkId))
    .for('no key update')
  await tx
    .select({ id: classWorkSchedules.id })
    .from(classWorkSchedules)
    .where(eq(classWorkSchedules.id, scheduleId))
    .for('no key update')
  const [purchase] = await tx.select().from(purchases).where(eq(purchases.id, purchaseId)).for('update')
  return purchase!
}

/** Where a purchase's seat is: its schedule and class (a plain read; they never change). */
async function seatOf(db: DbOrTx, purchaseId: number) {
  const [row] = await db
    .select({
      scheduleId: purchases.scheduleId,
      classWorkId: classWorkSchedules.classWorkId,
      userId: purchases.userId,
    })
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .where(eq(purchases.id, purchaseId))
  return row
}

// ── holding a seat ───────────────────────────────────────────────────────────────────────────────

/** In the purchase's transaction: its payment row, and the job that ends the hold. */
export async function openPayment(
  tx: Tx,
  input: {
    purchaseId: number
    userId: number
    amount: number
    provider: PaymentProvider['name']
    holdExpiresAt: Date
  },
): Promise<number> {
  const [row] = await tx
    .insert(payments)
    .values({
      purchaseId: input.purchaseId,
      userId: input.userId,
      provider: input.provider,
      amount: input.amount,
      taxAmount: includedTax(input.amount),
    })
    .returning({ id: payments.id })
  await enqueue(
    tx,
    'payments.expire_hold',
    { purchaseId: input.purchaseId },
    { runAt: input.holdExpiresAt, dedupeKey: `hold:${input.purchaseId}`, maxAttempts: 20 },
  )
  return row!.id
}

/**
 * After the hold committed: the payment at the provider (idempotent by our payment id, so a retry after a lost
 * answer finds the same one). When the provider cannot be reached, the hold ends at once and the member is told.
 */
export async function createAtProvider(
  db: Db,
  paymentId: number,
  description: string,
  deps: ProviderDeps,
): Promise<string | null> {
  const [p] = await db
    .select({ amount: payments.amount, purchaseId: payments.purchaseId, providerRef: payments.providerRef })
    .from(payments)
    .where(eq(payments.id, paymentId))
  if (!p) throw notFound('お支払い')
  try {
    const created = await deps.provider.createPayment({
      amount: p.amount,
      description,
      metadata: { payment_id: String(paymentId), purchase_id: String(p.purchaseId) },
      idempotencyKey: `payment-${paymentId}`,
    })
    if (!p.providerRef)
      await db
        .update(payments)
        .set({ providerRef: created.ref })
        .where(and(eq(payments.id, paymentId), isNull(payments.providerRef)))
    return created.clientSecret
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err
    await endHold(db, p.purchaseId, deps.now)
    throw paymentUnavailable()
  }
}

/**
 * Gives a held seat back (the caller may hold the class and schedule locks already): the purchase becomes
 * `expired`, the counter drops, the payment is given up (at the provider too, by a job after commit) and the seat
 * goes to the waitlist. False when the purchase was no longer pending.
 *
 * `backToOffer`: a hold that ended unpaid without the member choosing it (the provider away, the hold's time up
 * after a declined card) returns its seat to the waitlist offer it was booked with, while that offer still runs:
 * the member keeps their place instead of the seat passing to the next in line.
 */
export async function releaseHold(
  tx: Tx,
  purchaseId: number,
  now: Date,
  { backToOffer = false } = {},
): Promise<boolean> {
  const seat = await seatOf(tx, purchaseId)
  if (!seat) return false
  const purchase = await lockSeatRows(tx, seat.classWorkId, seat.scheduleId, purchaseId)
  if (purchase.status !== 'pending') return false
  await tx
    .update(purchases)
    .set({ status: 'expired', holdExpiresAt: null })
    .where(eq(purchases.id, purchaseId))
  // The class was unpublished meanwhile (read under its lock): the offer is withdrawn as withdrawOffersOf does,
  // and the member keeps their place in the line (docs/decisions/0023), rather than holding a seat nobody can book.
  const published = backToOffer
    ? ((
        await tx
          .select({ isPublished: classWorks.isPublished })
          .from(classWorks)
          .where(eq(classWorks.id, seat.classWorkId))
      )[0]?.isPublished ?? false)
    : false
  const offer = backToOffer
    ? await tx
        .update(waitlistEntries)
        .set(published ? { status: 'offered' } : { status: 'waiting', offeredAt: null, offerExpiresAt: null })
        .where(
          and(
            eq(waitlistEntries.bookedPurchaseId, purchaseId),
            eq(waitlistEntries.status, 'booked'),
            gt(waitlistEntries.offerExpiresAt, now),
            // Not while the member waits in the line again (one live entry per member and schedule).
            sql`not exists (select 1 from ${waitlistEntries} w where w.schedule_id = ${seat.scheduleId} and w.user_id = ${purchase.userId} and w.status in ('waiting', 'offered'))`,
          ),
        )
        .returning({ id: waitlistEntries.id })
    : []
  const heldAgain = published ? offer.length : 0
  await tx
    .update(classWorkSchedules)
    .set({
      purchasedCount: sql`${classWorkSchedules.purchasedCount} - 1`,
      heldCount: sql`${classWorkSchedules.heldCount} + ${heldAgain}`,
    })
    .where(eq(classWorkSchedules.id, seat.scheduleId))
  await givePaymentUp(tx, purchaseId, now)
  await offerFreedSeats(tx, seat.scheduleId, now)
  return true
}

/**
 * The payment of a purchase that will not be paid: canceled here, and at the provider by a job after commit. The
 * member may still be paying at the provider meanwhile (a card check in the browser), so the reconciliation sweep
 * looks at it once more a minute later: money that arrived is settled (a seat if one is free, else a refund).
 */
export async function givePaymentUp(tx: Tx, purchaseId: number, now: Date) {
  const given = await tx
    .update(payments)
    .set({ status: 'canceled', lastAttemptAt: now })
    .where(and(eq(payments.purchaseId, purchaseId), eq(payments.status, 'requires_payment')))
    .returning({ id: payments.id, providerRef: payments.providerRef })
  for (const p of given)
    if (p.providerRef)
      await enqueue(tx, 'payments.cancel', { paymentId: p.id }, { dedupeKey: `payment-cancel:${p.id}` })
}

/** The end of a hold, now (the member gave up, or the provider is away). */
async function endHold(db: Db, purchaseId: number, now: Date) {
  return transaction(db, (tx) => releaseHold(tx, purchaseId, now, { backToOffer: true }))
}

/**
 * Job `payments.expire_hold`, when the hold's time is up: a payment the provider took (its answer was lost) is
 * settled; one it is still confirming extends the hold a minute at a time (at most PROCESSING_GRACE_MS past its
 * first end); anything else gives the seat back.
 *
 * 'changed' when it moved a seat (given back, or settled after all). The hold's (new) end when it has not come yet
 * by `deps.now`: the job was claimed by the database's clock, and this instance's may be behind it, or the hold was
 * extended (try again then).
 */
export async function expireHold(
  db: Db,
  purchaseId: number,
  deps: PaymentDeps,
): Promise<'changed' | 'unchanged' | Date> {
  const [row] = await db
    .select({
      status: purchases.status,
      holdExpiresAt: purchases.holdExpiresAt,
      createdAt: purchases.createdAt,
      startedAt: classWorkSchedules.startedAt,
      paymentId: payments.id,
      provider: payments.provider,
      providerRef: payments.providerRef,
    })
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .leftJoin(payments, eq(payments.purchaseId, purchases.id))
    .where(eq(purchases.id, purchaseId))
  if (row?.status !== 'pending' || !row.holdExpiresAt) return 'unchanged'
  if (row.holdExpiresAt > deps.now) return row.holdExpiresAt
  if (row.paymentId && row.providerRef && row.provider) {
    const { provider, providerRef } = row
    // A provider that cannot be asked (down, or no longer configured) must not keep the seat held for ever.
    const state = await Promise.resolve()
      .then(() => providerFor(db, deps.provider, provider).retrieve(providerRef))
      .catch(() => undefined)
    if (state?.status === 'succeeded') {
      await settlePayment(db, row.paymentId, deps)
      return 'changed'
    }
    // Paid within the hold and still being confirmed (the card's bank has not answered): the hold is extended a
    // minute at a time, so that the seat waits for the answer instead of going to the next in line while the money
    // is on its way, and the checkout page and a confirm see a live hold. Not past PROCESSING_GRACE_MS after its
    // first end nor the lesson's start: then the seat goes, and money that arrives is settled by the sweep (a seat
    // if one is free, else a refund).
    if (state?.status === 'processing') {
      const until = Math.min(
        row.createdAt.getTime() + PAYMENT_HOLD_MS + PROCESSING_GRACE_MS,
        row.startedAt.getTime(),
      )
      if (deps.now.getTime() < until) {
        const extended = new Date(Math.min(deps.now.getTime() + 60_000, until))
        await db
          .update(purchases)
          .set({ holdExpiresAt: extended })
          .where(and(eq(purchases.id, purchaseId), eq(purchases.status, 'pending')))
        return extended
      }
    }
  }
  return (await endHold(db, purchaseId, deps.now)) ? 'changed' : 'unchanged'
}

/** How long past its end a hold waits for a payment the provider is still confirming. */
export const PROCESSING_GRACE_MS = 30 * 60 * 1000

/**
 * Before a member gives up a held seat (支払いをやめる): what the provider says of its payment. Money Stripe.js
 * took while our confirm answer was lost is settled now ('reserved': the give-up is refused, the seat booked), and a
 * payment the provider is still confirming keeps the seat ('processing'). Money settled with no seat left (the
 * hold ended meanwhile) is 'refunded'. Giving the seat up first would free a seat the member paid for, and the money would come back as a refund or a booking they were told they had let
 * go. A provider that cannot be asked answers 'open': the seat is given up, and late money is settled by the
 * sweep (a seat if one is free, else a refund).
 */
export async function paymentBeforeGivingUp(
  db: Db,
  userId: number,
  purchaseId: number,
  deps: PaymentDeps,
): Promise<'reserved' | 'refunded' | 'processing' | 'open'> {
  const [p] = await db
    .select({ id: payments.id, provider: payments.provider, providerRef: payments.providerRef })
    .from(payments)
    .innerJoin(purchases, eq(purchases.id, payments.purchaseId))
    .where(
      and(
        eq(payments.purchaseId, purchaseId),
        eq(payments.userId, userId),
        eq(payments.status, 'requires_payment'),
        eq(purchases.status, 'pending'),
      ),
    )
  if (!p?.providerRef) return 'open'
  const { provider, providerRef } = p
  const state = await Promise.resolve()
    .then(() => providerFor(db, deps.provider, provider).retrieve(providerRef))
    .catch(() => undefined)
  if (state?.status === 'succeeded') {
    // Settled meanwhile by the webhook or the hold's job ('already'): booked, unless that found no seat.
    const settled = await settlePayment(db, p.id, deps)
    if (settled !== 'already') return settled
    const [now] = await db
      .select({ status: purchases.status })
      .from(purchases)
      .where(eq(purchases.id, purchaseId))
    return now?.status === 'reserved' ? 'reserved' : 'refunded'
  }
  return state?.status === 'processing' ? 'processing' : 'open'
}

/** Job `payments.cancel`: the provider forgets a payment that will not be paid (a paid one it keeps). */
export async function cancelAtProvider(db: Db, paymentId: number, deps: ProviderDeps): Promise<void> {
  const [p] = await db
    .select({ provider: payments.provider, ref: payments.providerRef, status: payments.status })
    .from(payments)
    .where(eq(payments.id, paymentId))
  if (!p?.ref || p.status !== 'canceled') return
  await providerFor(db, deps.provider, p.provider).cancel(p.ref)
}

// ── paying ───────────────────────────────────────────────────────────────────────────────────────

async function ownPayment(db: DbOrTx, userId: number, paymentId: number) {
  const [row] = await db
    .select({
      id: payments.id,
      status: payments.status,
      provider: payments.provider,
      providerRef: payments.providerRef,
      lastAttemptAt: payments.lastAttemptAt,
      purchaseId: payments.purchaseId,
      purchaseStatus: purchases.status,
      purchaseCreatedAt: purchases.createdAt,
      holdExpiresAt: purchases.holdExpiresAt,
      scheduleCanceled: classWorkSchedules.isCanceled,
      title: classWorks.title,
    })
    .from(payments)
    .innerJoin(purchases, eq(purchases.id, payments.purchaseId))
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)))
  if (!row) throw notFound('お支払い')
  return row
}

/**
 * POST /v1/payments/{id}/confirm: pays the held seat. A refused card answers 402 with the refusal in Japanese and
 * keeps the seat for another try until the hold ends; a payment already paid answers as paid and charges nothing.
 */
export async function confirmPayment(
  db: Db,
  userId: number,
  paymentId: number,
  body: ConfirmPaymentBody,
  deps: PaymentDeps,
): Promise<void> {
  const p = await ownPayment(db, userId, paymentId)
  if (p.status === 'succeeded') {
    // Paid already: answered as paid while the seat is the member's. Money that came after the seat was gone was
    // refunded; a second press of 支払う then must not say 「お支払いが完了しました」.
    if (p.purchaseStatus === 'reserved') return
    const [refund] = await db
      .select({ reason: refunds.reason })
      .from(refunds)
      .where(eq(refunds.paymentId, p.id))
    if (refund?.reason === 'no_seat') throw refundedNoSeat()
    throw new ApiError(409, 'already_canceled', 'この予約はキャンセルされています')
  }
  if (
    p.status === 'canceled' ||
    p.purchaseStatus !== 'pending' ||
    !p.holdExpiresAt ||
    p.holdExpiresAt <= deps.now
  ) {
    // The browser may have paid at the provider (Stripe.js) just as the hold ended: that money is settled now (the
    // seat if one is still free, else a full refund), not left to the webhook or the sweep.
    const ref = p.providerRef
    const state = ref
      ? await Promise.resolve()
          .then(() => providerFor(db, deps.provider, p.provider).retrieve(ref))
          .catch(() => undefined)
      : undefined
    if (state?.status !== 'succeeded')
      // The teacher cancelled the lesson during the checkout: that, not the 10 minutes, ended the hold.
      throw p.scheduleCanceled ? new ApiError(409, 'canceled', 'この日程は中止になりました') : holdEnded()
    if ((await settlePayment(db, p.id, deps)) === 'refunded') throw refundedNoSeat()
    return
  }
  const provider = providerFor(db, deps.provider, p.provider)
  if (provider.name === 'embedded' && !body.card)
    throw new ApiError(422, 'card_required', 'カード情報を入力してください')
  let ref = p.providerRef
  if (!ref) {
    await createAtProvider(db, p.id, p.title, { ...deps, provider })
    ;[{ ref }] = (await db
      .select({ ref: payments.providerRef })
      .from(payments)
      .where(eq(payments.id, p.id))) as [{ ref: string | null }]
    if (!ref) throw paymentUnavailable()
  }
  // Recorded before the provider is asked: if our answer is lost, the reconciliation sweep asks again.
  await db
    .update(payments)
    .set({ attempts: sql`${payments.attempts} + 1`, lastAttemptAt: deps.now })
    .where(eq(payments.id, p.id))
  let state: Awaited<ReturnType<PaymentProvider['confirm']>>
  try {
    state = await provider.confirm(ref, { card: body.card, now: deps.now })
  } catch (err) {
    if (err instanceof PaymentDeclinedError) {
      await db
        .update(payments)
        .set({ failureCode: err.code, failureMessage: err.message })
        .where(and(eq(payments.id, p.id), eq(payments.status, 'requires_payment')))
      if (err.code === 'payment_canceled') throw holdEnded()
      throw new ApiError(402, err.code, err.message)
    }
    if (err instanceof PaymentProviderError) throw paymentUnavailable()
    throw err
  }
  if (state.status === 'succeeded' && (await settlePayment(db, p.id, deps)) === 'refunded')
    throw refundedNoSeat()
}

export const refundedNoSeat = () =>
  new ApiError(
    409,
    'refunded_no_seat',
    'お支払いの間に席がなくなったため、予約できませんでした。お支払いは全額返金します',
  )

/**
 * The provider took the money: the purchase becomes reserved (mails queued). Money that arrives after the hold
 * ended takes a seat if one is still free, else it is refunded in full. Safe to run any number of times.
 */
export async function settlePayment(
  db: Db,
  paymentId: number,
  deps: SettleDeps,
): Promise<'reserved' | 'refunded' | 'already'> {
  const [ref] = await db
    .select({ purchaseId: payments.purchaseId })
    .from(payments)
    .where(eq(payments.id, paymentId))
  if (!ref) throw notFound('お支払い')
  const seat = await seatOf(db, ref.purchaseId)
  if (!seat) throw notFound('予約')
  return transaction(db, async (tx) => {
    // The buyer's row first, as a booking takes it (0015): a suspension being committed is waited for and then
    // seen, so late money never books a seat for an account whose seats the suspension has just refunded.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, seat.userId)).for('key share')
    const purchase = await lockSeatRows(tx, seat.classWorkId, seat.scheduleId, ref.purchaseId)
    const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update')
    if (payment!.status === 'succeeded') return 'already' as const
    const now = deps.now
    await tx
      .update(payments)
      .set({
        status: 'succeeded',
        succeededAt: now,
        failureCode: null,
        failureMessage: null,
        receiptIssuerName: deps.issuer.name,
        receiptRegistrationNumber: deps.issuer.registrationNumber,
      })
      .where(eq(payments.id, paymentId))
    const reserve = async () => {
      await tx
        .update(purchases)
        .set({ status: 'reserved', holdExpiresAt: null })
        .where(eq(purchases.id, purchase.id))
      await enqueue(tx, 'notify.purchase_created', { purchaseId: purchase.id })
      await enqueue(tx, 'notify.payment_receipt', { paymentId }, { dedupeKey: `receipt:${paymentId}` })
      return 'reserved' as const
    }
    if (purchase.status === 'pending') return reserve()
    if (purchase.status === 'expired') {
      // Paid after the hold ended: the seat again if one is free, the person holds no other seat there, and a
      // booking would be taken now (the class still published, the buyer not suspended meanwhile).
      const [still] = await tx
        .select({ id: classWorkSchedules.id })
        .from(classWorkSchedules)
        .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
        .innerJoin(users, eq(users.id, purchase.userId))
        .where(
          and(
            eq(classWorkSchedules.id, purchase.scheduleId),
            eq(classWorks.isPublished, true),
            isNull(users.suspendedAt),
          ),
        )
      const [other] = await tx
        .select({ id: purchases.id })
        .from(purchases)
        .where(
          and(
            eq(purchases.scheduleId, purchase.scheduleId),
            eq(purchases.userId, purchase.userId),
            sql`coalesce(${purchases.learnerId}, 0) = ${purchase.learnerId ?? 0}`,
            inArray(purchases.status, ['pending', 'reserved']),
          ),
        )
      // The waitlist offer this booking was made with, given its seat back when the hold ended: that seat.
      const ownOffer =
        other || !still
          ? []
          : await tx
              .update(waitlistEntries)
              .set({ status: 'booked' })
              .where(
                and(
                  eq(waitlistEntries.bookedPurchaseId, purchase.id),
                  eq(waitlistEntries.status, 'offered'),
                  gt(waitlistEntries.offerExpiresAt, now),
                ),
              )
              .returning({ id: waitlistEntries.id })
      if (ownOffer.length > 0) {
        await tx
          .update(classWorkSchedules)
          .set({
            purchasedCount: sql`${classWorkSchedules.purchasedCount} + 1`,
            heldCount: sql`${classWorkSchedules.heldCount} - 1`,
          })
          .where(eq(classWorkSchedules.id, purchase.scheduleId))
        return reserve()
      }
      const taken =
        other || !still
          ? []
          : await tx
              .update(classWorkSchedules)
              .set({ purchasedCount: sql`${classWorkSchedules.purchasedCount} + 1` })
              .where(
                and(
                  eq(classWorkSchedules.id, purchase.scheduleId),
                  sql`${classWorkSchedules.purchasedCount} + ${classWorkSchedules.heldCount} < ${classWorkSchedules.capacity}`,
                  eq(classWorkSchedules.isCanceled, false),
                  sql`${classWorkSchedules.startedAt} > ${now.toISOString()}::timestamptz`,
                ),
              )
              .returning({ id: classWorkSchedules.id })
      if (taken.length > 0) return reserve()
    }
    await requestRefund(tx, purchase.id, 'no_seat')
    await enqueue(tx, 'notify.payment_receipt', { paymentId }, { dedupeKey: `receipt:${paymentId}` })
    return 'refunded' as const
  })
}

// ── refunds ──────────────────────────────────────────────────────────────────────────────────────

export type RefundReason = 'member_cancel' | 'teacher_cancel' | 'operator' | 'no_seat'

/**
 * In a cancellation's transaction: the refund of the purchase's payment, if it was paid — one row per payment
 * (a second request is a no-op), paid out by a job after commit. Returns the amount newly refunded.
 */
export async function requestRefund(tx: Tx, purchaseId: number, reason: RefundReason): Promise<number> {
  const [paid] = await tx
    .select({ id: payments.id, amount: payments.amount })
    .from(payments)
    .where(and(eq(payments.purchaseId, purchaseId), eq(payments.status, 'succeeded')))
  if (!paid) return 0
  const [refund] = await tx
    .insert(refunds)
    .values({ paymentId: paid.id, purchaseId, amount: paid.amount, reason })
    .onConflictDoNothing({ target: refunds.paymentId })
    .returning({ id: refunds.id })
  if (!refund) return 0
  await enqueue(
    tx,
    'payments.refund',
    { refundId: refund.id },
    { dedupeKey: `refund:${refund.id}`, maxAttempts: 20 },
  )
  return paid.amount
}

/**
 * The idempotency key of a refund's request to the provider: the refund's id, and after each refusal the count of
 * refusals, so that a repeat after a crash is the same request and a refused refund is asked for anew.
 */
export const refundKey = (refundId: number, attempt: number) =>
  attempt === 0 ? `refund-${refundId}` : `refund-${refundId}-${attempt}`

/**
 * Job `payments.refund`: the provider refunds, keyed by our refund's id — a run repeated after a crash (the
 * provider refunded, our record was lost) gets the same refund back instead of a second one.
 */
export async function runRefund(db: Db, refundId: number, deps: ProviderDeps): Promise<void> {
  const [r] = await db
    .select({
      status: refunds.status,
      amount: refunds.amount,
      refundRef: refunds.providerRef,
      attempt: refunds.providerAttempt,
      provider: payments.provider,
      ref: payments.providerRef,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(refunds.id, refundId))
  if (!r || r.status === 'succeeded') return
  if (!r.ref) throw new PaymentProviderError(`refund ${refundId}: its payment has no provider reference`)
  try {
    const provider = providerFor(db, deps.provider, r.provider)
    // One made before and still pending there is asked after (the provider forgets idempotency keys after a day:
    // making it again then would be refused, the charge being refunded already).
    const done = r.refundRef
      ? await provider.retrieveRefund(r.refundRef)
      : await provider.refund({
          ref: r.ref,
          amount: r.amount,
          idempotencyKey: refundKey(refundId, r.attempt),
        })
    // Not paid back yet (or refused there): still owed, no mail. The job asks again later, and the sweep keeps
    // queueing it while it stays pending (requeueStuckRefunds). A failed one is made again at a later attempt,
    // under the next key: the refused one's key would answer with the refused refund.
    if (done.status !== 'succeeded') {
      await db
        .update(refunds)
        .set(
          done.status === 'pending'
            ? { providerRef: done.ref }
            : { providerRef: null, providerAttempt: sql`${refunds.providerAttempt} + 1` },
        )
        .where(eq(refunds.id, refundId))
      throw new PaymentProviderError(`refund ${refundId} is ${done.status} at the provider`)
    }
    // The record and its mail commit together: a retry finds the refund succeeded and returns, so a mail queued
    // apart from it could be lost for good (and this mail cannot be switched off, 0017).
    await transaction(db, async (tx) => {
      const [recorded] = await tx
        .update(refunds)
        .set({ status: 'succeeded', providerRef: done.ref, succeededAt: deps.now, lastError: null })
        .where(and(eq(refunds.id, refundId), eq(refunds.status, 'pending')))
        .returning({ id: refunds.id })
      if (recorded)
        await enqueue(tx, 'notify.refund_completed', { refundId }, { dedupeKey: `refund-mail:${refundId}` })
    })
  } catch (err) {
    await db
      .update(refunds)
      .set({ lastError: err instanceof Error ? err.message.slice(0, 500) : String(err) })
      .where(eq(refunds.id, refundId))
    throw err
  }
}

// ── reconciliation and webhooks ──────────────────────────────────────────────────────────────────

/** How long after an attempt the sweep asks the provider what became of it. */
export const RECONCILE_AFTER_MS = 60_000

/**
 * Job `payments.reconcile` (every minute, one instance): payments whose outcome at the provider is not known here —
 * an attempt whose answer was lost (a crash between the charge and its record), or money taken after we gave the
 * payment up — are settled from what the provider says.
 */
export async function reconcilePayments(db: Db, deps: PaymentDeps, batch = 100): Promise<number> {
  const open = await db
    .select({
      id: payments.id,
      status: payments.status,
      provider: payments.provider,
      ref: payments.providerRef,
    })
    .from(payments)
    .where(
      and(
        ne(payments.status, 'succeeded'),
        isNotNull(payments.providerRef),
        lt(payments.lastAttemptAt, new Date(deps.now.getTime() - RECONCILE_AFTER_MS)),
      ),
    )
    .orderBy(payments.lastAttemptAt)
    .limit(batch)
  // Looked at and still open: behind the others for the next sweeps, so that a full batch of payments whose
  // provider cannot be asked (one no longer configured) or that stay processing never holds back the rest.
  const lookAgainLater = (id: number) =>
    db.update(payments).set({ lastAttemptAt: deps.now }).where(eq(payments.id, id))
  let settled = 0
  for (const p of open) {
    // One payment whose provider cannot be asked does not stop the sweep of the others.
    const state = await Promise.resolve()
      .then(() => providerFor(db, deps.provider, p.provider).retrieve(p.ref!))
      .catch(() => undefined)
    if (!state) {
      await lookAgainLater(p.id)
      continue
    }
    if (state.status === 'succeeded') {
      await settlePayment(db, p.id, deps)
      settled++
    } else if (state.status === 'canceled') {
      // Nothing more can happen to it: out of the sweep.
      await db.update(payments).set({ lastAttemptAt: null }).where(eq(payments.id, p.id))
    } else if (p.status === 'canceled' && state.status === 'requires_payment') {
      // Given up here but still payable there (its cancel job has not run, or failed): cancel it now and look again
      // at the next sweep. One still processing is only looked at again: it may yet succeed.
      await Promise.resolve()
        .then(() => providerFor(db, deps.provider, p.provider).cancel(p.ref!))
        .catch(() => {})
      await lookAgainLater(p.id)
    } else {
      await lookAgainLater(p.id)
    }
  }
  await requeueStuckRefunds(db, deps.now)
  return settled
}

/** A refund still owed this long after it was decided, with no job left trying, is tried again (hourly). */
export const REFUND_RETRY_AFTER_MS = 3600_000

/**
 * A refund's job gives up after its attempts (about ten hours: the provider refusing, a balance too low): the
 * money is still owed. The sweep queues one more attempt per hour for every such refund, for as long as it stays
 * pending; the provider's idempotency key (`refundKey`) makes any repeat the same refund.
 */
export async function requeueStuckRefunds(db: Db, now: Date): Promise<number> {
  const stuck = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(
      and(
        eq(refunds.status, 'pending'),
        lt(refunds.createdAt, new Date(now.getTime() - REFUND_RETRY_AFTER_MS)),
        sql`not exists (select 1 from ${jobs} where ${jobs.kind} = 'payments.refund' and ${jobs.finishedAt} is null
          and ${jobs.payload}->>'refundId' = ${refunds.id}::text)`,
      ),
    )
    .orderBy(refunds.id)
    .limit(100)
  const hour = Math.floor(now.getTime() / REFUND_RETRY_AFTER_MS)
  for (const r of stuck)
    await enqueue(
      db,
      'payments.refund',
      { refundId: r.id },
      { dedupeKey: `refund:${r.id}:retry:${hour}`, maxAttempts: 1 },
    )
  return stuck.length
}

/** A verified webhook event, handled once by its id (a replay has no effect). */
export async function handleProviderEvent(
  db: Db,
  provider: PaymentProvider,
  event: ProviderEvent,
  deps: SettleDeps,
  /** A card refused in the browser (Stripe.js tries cards at Stripe, never through our confirm): counted here. */
  onDeclined: (userId: number) => Promise<void> = async () => {},
): Promise<'handled' | 'duplicate' | 'ignored'> {
  const [seen] = await db
    .select({ id: webhookEvents.eventId })
    .from(webhookEvents)
    .where(and(eq(webhookEvents.provider, provider.name), eq(webhookEvents.eventId, event.id)))
  if (seen) return 'duplicate'
  let outcome: 'handled' | 'ignored' = 'ignored'
  if (event.type !== 'other') {
    const [p] = await db
      .select({ id: payments.id, userId: payments.userId })
      .from(payments)
      .where(and(eq(payments.provider, provider.name), eq(payments.providerRef, event.ref)))
    if (p && event.type === 'payment_succeeded') {
      await settlePayment(db, p.id, deps)
      outcome = 'handled'
    } else if (p && event.type === 'payment_failed') {
      const state = await provider.retrieve(event.ref)
      if (state.failure) {
        await db
          .update(payments)
          .set({ failureCode: state.failure.code, failureMessage: state.failure.message })
          .where(and(eq(payments.id, p.id), eq(payments.status, 'requires_payment')))
        await onDeclined(p.userId)
      }
      outcome = 'handled'
    }
  }
  // Recorded after the work: a failure above lets the provider send it again; the work itself is idempotent.
  await db
    .insert(webhookEvents)
    .values({
      provider: provider.name,
      eventId: event.id,
      type: event.type === 'other' ? event.name : event.type,
    })
    .onConflictDoNothing()
  return outcome
}

// ── what members see ─────────────────────────────────────────────────────────────────────────────

/** The summaries of the given payments, with their refunds. */
export async function paymentSummaries(
  db: DbOrTx,
  paymentIds: number[],
): Promise<Map<number, PaymentSummary>> {
  const map = new Map<number, PaymentSummary>()
  if (paymentIds.length === 0) return map
  const rows = await db
    .select({
      id: payments.id,
      status: payments.status,
      provider: payments.provider,
      amount: payments.amount,
      taxAmount: payments.taxAmount,
      failureCode: payments.failureCode,
      failureMessage: payments.failureMessage,
      succeededAt: payments.succeededAt,
      refundAmount: refunds.amount,
      refundStatus: refunds.status,
      refundAt: sql<Date | null>`coalesce(${refunds.succeededAt}, ${refunds.createdAt})`,
    })
    .from(payments)
    .leftJoin(refunds, eq(refunds.paymentId, payments.id))
    .where(inArray(payments.id, paymentIds))
  for (const r of rows)
    map.set(r.id, {
      id: r.id,
      status: r.status as PaymentSummary['status'],
      provider: r.provider as PaymentSummary['provider'],
      amount: r.amount,
      tax_amount: r.taxAmount,
      failure: r.failureCode ? { code: r.failureCode, message: r.failureMessage ?? '' } : null,
      succeeded_at: r.succeededAt ? iso(r.succeededAt) : null,
      refund:
        r.refundAmount !== null && r.refundStatus !== null && r.refundAt
          ? {
              amount: r.refundAmount,
              status: r.refundStatus as 'pending' | 'succeeded',
              at: iso(new Date(r.refundAt)),
            }
          : null,
    })
  return map
}

/** GET /v1/payments/{id}: the checkout page's payment, its purchase and what the browser needs to pay. */
export async function checkoutOf(
  db: Db,
  userId: number,
  paymentId: number,
  deps: PaymentDeps,
  purchaseOf: (purchaseId: number) => Promise<Checkout['purchase'] | undefined>,
  /** The member is past the card-testing limit: no client secret, so no card is tried at Stripe. */
  cardsPaused = false,
): Promise<Checkout> {
  let p = await ownPayment(db, userId, paymentId)
  let clientSecret: string | null = null
  const payable = p.status === 'requires_payment' && p.purchaseStatus === 'pending'
  // Given up here (the hold ended) while Stripe may not know yet: the sweep still looks at it (last_attempt_at
  // set). Paid in its last seconds, the page must not say 「請求はありません」 until the sweep comes.
  // Only within the grace of a hold (an hour after the booking): past it the sweep alone decides, and a page
  // reloaded again and again makes no more provider calls.
  const givenUpHere =
    p.status === 'canceled' &&
    p.lastAttemptAt !== null &&
    deps.now.getTime() - p.purchaseCreatedAt.getTime() < 60 * 60_000
  if ((payable || givenUpHere) && p.providerRef && p.provider === 'stripe') {
    const state = await deps.provider.retrieve(p.providerRef).catch(() => undefined)
    if (state?.status === 'succeeded') {
      // Paid in the browser (Stripe.js) while our confirm call failed, and the webhook is not here yet: the page
      // reloaded as its message asks must show the booking (or, with no seat left, the refund), not a card form
      // and 支払いをやめる.
      await settlePayment(db, p.id, deps)
      p = await ownPayment(db, userId, paymentId)
    } else if (payable && !cardsPaused) clientSecret = state?.clientSecret ?? null
  }
  const [summary, purchase] = await Promise.all([
    paymentSummaries(db, [p.id]).then((m) => m.get(p.id)!),
    purchaseOf(p.purchaseId),
  ])
  if (!purchase) throw notFound('お支払い')
  return {
    payment: summary,
    purchase,
    hold_expires_at: p.purchaseStatus === 'pending' && p.holdExpiresAt ? iso(p.holdExpiresAt) : null,
    now: iso(deps.now),
    client_secret: clientSecret,
    cards_paused: cardsPaused,
  }
}

/**
 * What a history line or a receipt names is the payment's receipt item: the class, lesson and nicknames as they
 * stood when the payment went through (docs/decisions/0057), not as they stand now. Only the link to the class is
 * live. Every succeeded payment has its item (payments_receipt_item_check), and only those are listed.
 */
const historyColumns = {
  paymentId: payments.id,
  purchaseId: purchases.id,
  classWorkId: classWorkSchedules.classWorkId,
  title: payments.receiptTitle,
  lessonCount: payments.receiptLessonCount,
  startedAt: payments.receiptStartedAt,
  learner: payments.receiptLearner,
  member: payments.receiptMember,
}

/** Payments joined to what a history line or a receipt shows, with `extra` columns. */
function selectHistory<E extends SelectedFields>(db: DbOrTx, extra: E) {
  return db
    .select({ ...historyColumns, ...extra })
    .from(payments)
    .innerJoin(purchases, eq(purchases.id, payments.purchaseId))
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
}

const attendeeOf = (r: { learner: string | null; member: string | null }) =>
  r.learner ?? `${r.member}（ご本人）`

/** GET /v1/payments?month=: the member's payments and refunds of a Tokyo month, newest first. */
export async function paymentHistory(
  db: Db,
  userId: number,
  month: string | undefined,
  now: Date,
): Promise<PaymentHistory> {
  const shown = month ?? tokyoMonth(now)
  const { start, end } = tokyoMonthRange(shown)
  const refundAt = sql<Date>`coalesce(${refunds.succeededAt}, ${refunds.createdAt})`
  const [paid, refunded, paidMonths, refundMonths] = await Promise.all([
    selectHistory(db, { at: payments.succeededAt, amount: payments.amount })
      .where(
        and(
          eq(payments.userId, userId),
          eq(payments.status, 'succeeded'),
          gte(payments.succeededAt, start),
          lt(payments.succeededAt, end),
        ),
      )
      .orderBy(desc(payments.succeededAt)),
    selectHistory(db, { at: refundAt, amount: refunds.amount, refundStatus: refunds.status })
      .innerJoin(refunds, eq(refunds.paymentId, payments.id))
      .where(
        and(
          eq(payments.userId, userId),
          sql`${refundAt} >= ${start.toISOString()}::timestamptz`,
          sql`${refundAt} < ${end.toISOString()}::timestamptz`,
        ),
      ),
    db
      .selectDistinct({
        month: sql<string>`to_char(${payments.succeededAt} at time zone 'Asia/Tokyo', 'YYYY-MM')`,
      })
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.status, 'succeeded'))),
    db
      .selectDistinct({ month: sql<string>`to_char(${refundAt} at time zone 'Asia/Tokyo', 'YYYY-MM')` })
      .from(refunds)
      .innerJoin(payments, eq(payments.id, refunds.paymentId))
      .where(eq(payments.userId, userId)),
  ])
  const line = (
    kind: HistoryItem['kind'],
    r: (typeof paid)[number] & { at: Date | null; refundStatus?: string },
  ): HistoryItem => ({
    kind,
    payment_id: r.paymentId,
    purchase_id: r.purchaseId,
    at: iso(new Date(r.at ?? 0)),
    amount: r.amount,
    status: kind === 'refund' && r.refundStatus === 'pending' ? 'pending' : 'succeeded',
    class_work: { id: r.classWorkId, title: r.title! },
    schedule_started_at: iso(r.startedAt!),
    lesson_count: r.lessonCount!,
    attendee: attendeeOf(r),
  })
  const items = [...paid.map((r) => line('payment', r)), ...refunded.map((r) => line('refund', r))].sort(
    (a, b) => b.at.localeCompare(a.at) || b.payment_id - a.payment_id,
  )
  return {
    month: shown,
    items,
    totals: {
      paid: items.filter((i) => i.kind === 'payment').reduce((sum, i) => sum + i.amount, 0),
      refunded: items.filter((i) => i.kind === 'refund').reduce((sum, i) => sum + i.amount, 0),
    },
    months: [...new Set([...paidMonths, ...refundMonths].map((m) => m.month).concat(shown))].sort().reverse(),
  }
}

/**
 * GET /v1/payments/{id}/receipt: the 領収書 of a payment that succeeded, issued as the platform stood then (a
 * receipt printed again after the platform registered for the invoice system must not gain a number it did not
 * carry). `current` names the issuer only for a payment with none recorded yet (made to succeed by hand since the
 * app last started, app/db/receipt-issuers.ts).
 */
export async function receiptOf(
  db: Db,
  userId: number,
  paymentId: number,
  current: ReceiptIssuer,
): Promise<PaymentReceipt> {
  const [row] = await selectHistory(db, {
    status: payments.status,
    at: payments.succeededAt,
    amount: payments.amount,
    tax: payments.taxAmount,
    name: payments.receiptName,
    issuerName: payments.receiptIssuerName,
    registrationNumber: payments.receiptRegistrationNumber,
    refunded: sql<number>`coalesce((select ${refunds.amount} from ${refunds} where ${refunds.paymentId} = ${payments.id} and ${refunds.status} = 'succeeded'), 0)::int`,
  }).where(and(eq(payments.id, paymentId), eq(payments.userId, userId)))
  if (row?.status !== 'succeeded' || !row.at) throw notFound('領収書')
  const issuer =
    row.issuerName === null ? current : { name: row.issuerName, registrationNumber: row.registrationNumber }
  return {
    payment_id: paymentId,
    number: receiptNumber(paymentId),
    issued_at: iso(row.at),
    name: row.name,
    platform_name: issuer.name,
    registration_number: issuer.registrationNumber,
    item: {
      class_title: row.title!,
      schedule_started_at: iso(row.startedAt!),
      lesson_count: row.lessonCount!,
      attendee: attendeeOf(row),
    },
    amount: row.amount,
    tax_amount: row.tax,
    tax_rate_percent: 10,
    refunded_amount: Number(row.refunded),
  }
}

/** PUT /v1/payments/{id}/receipt/name: the 宛名, once (a receipt is not rewritten). */
export async function setReceiptName(db: Db, userId: number, paymentId: number, name: string): Promise<void> {
  const [set] = await db
    .update(payments)
    .set({ receiptName: name })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.userId, userId),
        eq(payments.status, 'succeeded'),
        isNull(payments.receiptName),
      ),
    )
    .returning({ id: payments.id })
  if (set) return
  const [exists] = await db
    .select({ status: payments.status })
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.userId, userId)))
  if (exists?.status !== 'succeeded') throw notFound('領収書')
  throw new ApiError(409, 'receipt_name_set', '領収書の宛名はすでに設定されています（変更できません）')
}

/** Members who paid or were refunded: ids for the purchase list's payment column. */
export async function paymentsOfPurchases(db: DbOrTx, purchaseIds: number[]) {
  if (purchaseIds.length === 0)
    return new Map<number, { id: number; status: string; amount: number; refundStatus: string | null }>()
  const rows = await db
    .select({
      purchaseId: payments.purchaseId,
      id: payments.id,
      status: payments.status,
      amount: payments.amount,
      refundStatus: refunds.status,
    })
    .from(payments)
    .leftJoin(refunds, eq(refunds.paymentId, payments.id))
    .where(inArray(payments.purchaseId, purchaseIds))
  return new Map(rows.map((r) => [r.purchaseId, r]))
}
