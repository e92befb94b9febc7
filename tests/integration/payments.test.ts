/**
 * Checkout, receipts, refunds and payouts (issue 17; docs/decisions/0025), through /v1 on a real database: every
 * test card, a hold that ends unpaid, a double submit, crashes between the provider and our records, the Stripe
 * adapter against a local stub of its API with webhooks signed by the SDK's own helper.
 */
import { and, desc, eq, inArray, like, sql } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiApp } from '../../app/api/app'
import {
  expireHold,
  reconcilePayments,
  requeueStuckRefunds,
  runRefund,
  settlePayment,
} from '../../app/api/services/payments'
import { sealAccount } from '../../app/api/services/payouts'
import { TeacherClassWork, TeacherSchedule } from '../../app/contract/v1/class-management'
import { Checkout, PaymentHistory, PaymentReceipt, PayoutStatement } from '../../app/contract/v1/payments'
import { Purchase } from '../../app/contract/v1/purchases'
import { stampReceiptIssuers } from '../../app/db/receipt-issuers'
import {
  auditLog,
  classWorkSchedules,
  classWorks,
  embeddedPayments,
  embeddedRefunds,
  jobs,
  learners,
  mails,
  payments,
  purchases,
  rateLimits,
  refunds,
  teacherBankAccounts,
  users,
  webhookEvents,
} from '../../app/db/schema'
import { startJobRunner } from '../../app/jobs/runner.server'
import { shiftMonth } from '../../app/lib/month'
import { embeddedPaymentProvider, TEST_CARDS } from '../../app/payments/embedded.server'
import { paymentHandlers } from '../../app/payments/jobs.server'
import type { PaymentProvider, RefundState } from '../../app/payments/provider.server'
import { stripePaymentProvider } from '../../app/payments/stripe.server'
import { type CallResult, setupApi, TEST_CARD, TEST_RECEIPT_ISSUER, type TestApi } from './support/api'
import { appJobHandlers } from './support/jobs'
import { whileHeld } from './support/locks'
import { testMailSettings } from './support/mail'
import { insertMembers, insertTeacher } from './support/people'
import { type StripeStub, startStripeStub } from './support/stripe-stub'
import { SUBS, testAuth, tokenFor } from './support/tokens'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

let api: TestApi
let masters: { category: number; style: number; grades: number[] }
/** Who the app issues receipts as (the platform may register for the invoice system between two payments). */
let issuerNow = TEST_RECEIPT_ISSUER

beforeAll(async () => {
  api = await setupApi({ receiptIssuer: () => issuerNow })
  const [cats, styles, grades] = await Promise.all(
    ['categories', 'class_styles', 'target_grades'].map(
      async (k) => (await api.call('GET', `/v1/master/${k}`)).body,
    ),
  )
  masters = { category: cats[0].id, style: styles[0].id, grades: [grades[0].id] }
})
afterAll(async () => {
  await api?.close()
})

const ok = (r: Pick<CallResult, 'status' | 'body'>, status = 200) => {
  expect(r.status, JSON.stringify(r.body)).toBe(status)
  return r.body
}

/** A published class of the demo teacher at ¥3,300 (tax included) with one schedule of `capacity` seats. */
async function paidSchedule(capacity = 3, price = 3300, startsIn = 3 * DAY) {
  // A teacher of its own: the demo teacher teaches the seeded lessons, and one lesson at a time (0056).
  const teacher = await insertTeacher(api.db, 'pay-teacher')
  const cls = TeacherClassWork.parse(
    ok(
      await api.as(teacher, 'POST', '/v1/teachers/class_works', {
        title: `決済テスト ${Math.random().toString(36).slice(2, 8)}`,
        description: 'お支払いのテストです',
        category_id: masters.category,
        class_style_id: masters.style,
        target_grade_ids: masters.grades,
        price,
        capacity,
        duration_minutes: 60,
        is_published: true,
      }),
      201,
    ),
  )
  const start = new Date(api.now.getTime() + startsIn)
  const s = TeacherSchedule.parse(
    ok(
      await api.as(teacher, 'POST', `/v1/teachers/class_works/${cls.id}/schedules`, {
        started_at: start.toISOString(),
        ended_at: new Date(start.getTime() + HOUR).toISOString(),
      }),
      201,
    ),
  )
  return { cls, schedule: s, teacher }
}

const hold = async (sub: string, scheduleId: number) =>
  Purchase.parse(ok(await api.as(sub, 'POST', '/v1/purchases', { schedule_id: scheduleId }), 201))

const card = (number: string) => ({ number, exp_month: 12, exp_year: 2099, cvc: '123' })
const confirm = (sub: string, paymentId: number, body: unknown) =>
  api.as(sub, 'POST', `/v1/payments/${paymentId}/confirm`, body)

const seatsOf = async (scheduleId: number) =>
  (
    await api.db
      .select({ n: classWorkSchedules.purchasedCount })
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.id, scheduleId))
  )[0]!.n

const embedded = () => embeddedPaymentProvider(async () => api.db)

async function drainJobs(provider?: PaymentProvider) {
  const handlers = appJobHandlers({ mail: testMailSettings(), publish: async () => {} })
  if (provider)
    Object.assign(handlers, {
      'payments.refund': async (job: { payload: Record<string, unknown> }) =>
        runRefund(api.db, Number(job.payload.refundId), { now: new Date(), provider }),
    })
  await startJobRunner({ db: api.db, autoStart: false, handlers }).drain()
}

describe('checkout with the embedded test provider', () => {
  it('a held seat, each test card: 4242 pays; 0002 and 9995 are refused in Japanese and keep the seat for a retry', async () => {
    const { schedule } = await paidSchedule(2)
    const [sub] = await insertMembers(api.db, 'pay-cards', 1)
    const p = await hold(sub!, schedule.id)
    expect(p.status).toBe('pending')
    expect(await seatsOf(schedule.id)).toBe(1)
    const checkout = Checkout.parse(ok(await api.as(sub!, 'GET', `/v1/payments/${p.payment!.id}`)))
    expect(checkout.payment).toMatchObject({ status: 'requires_payment', amount: 3300, tax_amount: 300 })
    expect(checkout.hold_expires_at).toBe(new Date(api.now.getTime() + 10 * MINUTE).toISOString())
    // The server's clock beside it: the page counts the 10 minutes from this, not from the device's clock.
    expect(checkout.now).toBe(api.now.toISOString())
    expect(checkout.client_secret).toBeNull()

    const declined = await confirm(sub!, p.payment!.id, { card: card(TEST_CARDS.declined) })
    expect(declined.status).toBe(402)
    expect(declined.body).toMatchObject({
      code: 'card_declined',
      message: 'カードが承認されませんでした。別のカードをお試しください',
    })
    const broke = await confirm(sub!, p.payment!.id, { card: card(TEST_CARDS.insufficientFunds) })
    expect(broke.status).toBe(402)
    expect(broke.body).toMatchObject({
      code: 'insufficient_funds',
      message: 'カードの残高が不足しています。別のカードをお試しください',
    })
    const expired = await confirm(sub!, p.payment!.id, {
      card: { ...card(TEST_CARDS.success), exp_month: 1, exp_year: 2020 },
    })
    expect([expired.status, expired.body.code]).toEqual([402, 'expired_card'])
    // Still held, the refusal shown on the checkout page.
    const after = Checkout.parse(ok(await api.as(sub!, 'GET', `/v1/payments/${p.payment!.id}`)))
    expect(after.purchase.status).toBe('pending')
    expect(after.payment.failure?.code).toBe('expired_card')
    expect(await seatsOf(schedule.id)).toBe(1)

    const paid = Checkout.parse(ok(await confirm(sub!, p.payment!.id, { card: TEST_CARD })))
    expect(paid.payment).toMatchObject({ status: 'succeeded', failure: null })
    expect(paid.purchase).toMatchObject({ status: 'reserved', hold_expires_at: null })
    expect(paid.hold_expires_at).toBeNull()
    expect(await seatsOf(schedule.id)).toBe(1)
    const [ledger] = await api.db
      .select()
      .from(embeddedPayments)
      .innerJoin(payments, eq(payments.providerRef, embeddedPayments.ref))
      .where(eq(payments.id, p.payment!.id))
    expect(ledger!.embedded_payments).toMatchObject({ status: 'succeeded', amount: 3300, cardLast4: '4242' })
    // Paying again charges nothing.
    ok(await confirm(sub!, p.payment!.id, { card: TEST_CARD }))
    const [{ attempts }] = (await api.db
      .select({ attempts: payments.attempts })
      .from(payments)
      .where(eq(payments.id, p.payment!.id))) as [{ attempts: number }]
    expect(attempts).toBe(4)
  })

  it('refuses bad cards and missing ones before anything is charged, and another member’s payment is 404', async () => {
    const { schedule } = await paidSchedule()
    const [sub, other] = await insertMembers(api.db, 'pay-bad', 2)
    const p = await hold(sub!, schedule.id)
    for (const body of [
      { card: card('4242424242424241') },
      { card: { ...card(TEST_CARDS.success), exp_month: 13 } },
      { card: { ...card(TEST_CARDS.success), cvc: '12' } },
      { card: card('abcd') },
      { card: TEST_CARD, extra: 1 },
    ]) {
      const res = await confirm(sub!, p.payment!.id, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).toBe('invalid_request')
    }
    const missing = await confirm(sub!, p.payment!.id, {})
    expect([missing.status, missing.body.code]).toEqual([422, 'card_required'])
    expect((await confirm(other!, p.payment!.id, { card: TEST_CARD })).status).toBe(404)
    expect((await api.as(other!, 'GET', `/v1/payments/${p.payment!.id}`)).status).toBe(404)
    expect((await api.call('GET', `/v1/payments/${p.payment!.id}`)).status).toBe(401)
    const [row] = await api.db.select().from(payments).where(eq(payments.id, p.payment!.id))
    expect(row!.status).toBe('requires_payment')
  })

  it('stops a card tester after 5 refusals in 10 minutes, whatever the payment', async () => {
    const limited = createApiApp({
      getDb: async () => api.db,
      auth: testAuth,
      now: () => api.now,
      limits: { paymentDeclines: { points: 5, durationS: 600 } },
    })
    const call = async (sub: string, path: string, body?: unknown) => {
      const res = await limited.fetch(
        new Request(`http://api.test${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${await tokenFor(sub)}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      )
      return { status: res.status, body: await res.json() }
    }
    const { schedule } = await paidSchedule(5)
    const [sub] = await insertMembers(api.db, 'pay-tester', 1)
    const p = (await call(sub!, '/v1/purchases', { schedule_id: schedule.id })).body
    const statuses: number[] = []
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await call(sub!, `/v1/payments/${p.payment.id}/confirm`, { card: card(TEST_CARDS.declined) }))
          .status,
      )
    expect(statuses).toEqual([402, 402, 402, 402, 402, 429])
    // Even the good card waits: no card is tried while limited, and the checkout says so.
    expect((await call(sub!, `/v1/payments/${p.payment.id}/confirm`, { card: TEST_CARD })).status).toBe(429)
    expect(Checkout.parse((await call(sub!, `/v1/payments/${p.payment.id}`)).body).cards_paused).toBe(true)

    // Ten cards sent at once cannot all pass the limit together: at most five are tried.
    const [crowd] = await insertMembers(api.db, 'pay-tester-crowd', 1)
    const q = (await call(crowd!, '/v1/purchases', { schedule_id: schedule.id })).body
    const burst = await Promise.all(
      Array.from({ length: 10 }, () =>
        call(crowd!, `/v1/payments/${q.payment.id}/confirm`, { card: card(TEST_CARDS.declined) }),
      ),
    )
    const counted = burst.map((r) => r.status)
    expect(counted.filter((st) => st === 402).length).toBeLessThanOrEqual(5)
    expect(counted.filter((st) => st !== 402 && st !== 429)).toEqual([])
  })

  it('a paid card gives its count back: paying many lessons never reaches the decline limit', async () => {
    const limited = createApiApp({
      getDb: async () => api.db,
      auth: testAuth,
      now: () => api.now,
      limits: { paymentDeclines: { points: 2, durationS: 600 } },
    })
    const confirmAs = async (sub: string, path: string, body: unknown) =>
      (
        await limited.fetch(
          new Request(`http://api.test${path}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${await tokenFor(sub)}`, 'content-type': 'application/json' },
            body: JSON.stringify(body),
          }),
        )
      ).status
    const { schedule } = await paidSchedule(5)
    const [sub] = await insertMembers(api.db, 'pay-many', 1)
    const learners = await Promise.all(
      [1, 2, 3].map(
        async (n) =>
          (
            await api.as(sub!, 'POST', '/v1/users/me/learners', {
              nickname: `子${n}`,
              school_type_id: 1,
              target_grade_id: 1,
            })
          ).body.id as number,
      ),
    )
    for (const learner_id of learners) {
      const p = (await api.as(sub!, 'POST', '/v1/purchases', { schedule_id: schedule.id, learner_id })).body
      expect(await confirmAs(sub!, `/v1/payments/${p.payment.id}/confirm`, { card: TEST_CARD })).toBe(200)
    }
  })

  it('a free class skips payment', async () => {
    const { schedule } = await paidSchedule(3, 0)
    const [sub] = await insertMembers(api.db, 'pay-free', 1)
    const p = await hold(sub!, schedule.id)
    expect(p).toMatchObject({ status: 'reserved', payment: null, hold_expires_at: null })
  })
})

describe('a hold that ends unpaid', () => {
  it('gives the seat back after 10 minutes; paying then is refused; nobody is charged', async () => {
    const { schedule } = await paidSchedule(1)
    const [a, b] = await insertMembers(api.db, 'pay-abandon', 2)
    const p = await hold(a!, schedule.id)
    // The seat is taken while held.
    expect((await api.as(b!, 'POST', '/v1/purchases', { schedule_id: schedule.id })).body.code).toBe('full')
    // The job is queued for the end of the hold.
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'payments.expire_hold'), eq(jobs.dedupeKey, `hold:${p.id}`)))
    expect(job!.runAt.toISOString()).toBe(p.hold_expires_at)
    // Too early: nothing happens, and the hold's end is the time to try again.
    expect(
      await expireHold(api.db, p.id, {
        now: new Date(api.now.getTime() + 9 * MINUTE),
        provider: embedded(),
        issuer: TEST_RECEIPT_ISSUER,
      }),
    ).toEqual(new Date(p.hold_expires_at!))
    expect(await seatsOf(schedule.id)).toBe(1)
    await expireHold(api.db, p.id, {
      now: new Date(api.now.getTime() + 11 * MINUTE),
      provider: embedded(),
      issuer: TEST_RECEIPT_ISSUER,
    })
    expect(await seatsOf(schedule.id)).toBe(0)
    const [row] = await api.db.select().from(purchases).where(eq(purchases.id, p.id))
    expect(row).toMatchObject({ status: 'expired', holdExpiresAt: null })
    const [pay] = await api.db.select().from(payments).where(eq(payments.id, p.payment!.id))
    expect(pay!.status).toBe('canceled')
    // The provider forgets it too (a job after commit).
    await drainJobs()
    const [ledger] = await api.db
      .select()
      .from(embeddedPayments)
      .where(eq(embeddedPayments.ref, pay!.providerRef!))
    expect(ledger!.status).toBe('canceled')
    const late = await confirm(a!, p.payment!.id, { card: TEST_CARD })
    expect([late.status, late.body.code]).toEqual([409, 'hold_expired'])
    expect(
      (
        await api.db
          .select()
          .from(embeddedPayments)
          .where(and(eq(embeddedPayments.status, 'succeeded'), eq(embeddedPayments.ref, pay!.providerRef!)))
      ).length,
    ).toBe(0)
    // The seat is free again, and the member's list does not show the abandoned hold.
    ok(await api.as(b!, 'POST', '/v1/purchases', { schedule_id: schedule.id }), 201)
    const mine = ok(await api.as(a!, 'GET', '/v1/purchases?scope=upcoming')) as { id: number }[]
    expect(mine.map((x) => x.id)).not.toContain(p.id)
  })

  it("a hold's job claimed before the hold has ended by this instance's clock runs again then, not never", async () => {
    const { schedule } = await paidSchedule(1)
    const [a] = await insertMembers(api.db, 'pay-skew', 1)
    const p = await hold(a!, schedule.id)
    const byKey = and(eq(jobs.kind, 'payments.expire_hold'), eq(jobs.dedupeKey, `hold:${p.id}`))
    // The database's clock is ahead of this instance's: the job is due there, the hold has a minute left here.
    const ends = new Date(Date.now() + MINUTE)
    await api.db.update(purchases).set({ holdExpiresAt: ends }).where(eq(purchases.id, p.id))
    await api.db.update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(byKey)
    await drainJobs()
    const [waiting] = await api.db.select().from(jobs).where(byKey)
    expect(waiting).toMatchObject({ finishedAt: null, failed: false, attempts: 0 })
    expect(waiting!.runAt.getTime()).toBe(ends.getTime())
    expect(await seatsOf(schedule.id)).toBe(1)
    // The minute passes: the seat is given back.
    await api.db
      .update(purchases)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(purchases.id, p.id))
    await api.db.update(jobs).set({ runAt: sql`now() - interval '1 second'` }).where(byKey)
    await drainJobs()
    expect(await seatsOf(schedule.id)).toBe(0)
    const [done] = await api.db.select().from(jobs).where(byKey)
    expect(done).toMatchObject({ failed: false, attempts: 1 })
    expect(done!.finishedAt).toBeInstanceOf(Date)
  })

  it('the job that ends a hold tells every instance that public pages changed (their caches empty)', async () => {
    const { schedule } = await paidSchedule(1)
    const [a] = await insertMembers(api.db, 'pay-job', 1)
    const p = await hold(a!, schedule.id)
    await api.db
      .update(purchases)
      .set({ holdExpiresAt: new Date(Date.now() - MINUTE) })
      .where(eq(purchases.id, p.id))
    const told: string[] = []
    const handlers = paymentHandlers({
      provider: (db) => embeddedPaymentProvider(async () => db),
      issuer: () => TEST_RECEIPT_ISSUER,
      publicContentChanged: async (why) => void told.push(why),
    })
    const job = { id: 1, kind: 'payments.expire_hold', payload: { purchaseId: p.id }, attempts: 1 }
    await handlers['payments.expire_hold']!(job, { db: api.db })
    expect(told).toEqual(['job:payments.expire_hold'])
    expect(await seatsOf(schedule.id)).toBe(0)
    // Nothing left to do: nothing to tell.
    await handlers['payments.expire_hold']!(job, { db: api.db })
    expect(told).toHaveLength(1)
  })

  it('a member gives the held seat up at once (支払いをやめる)', async () => {
    const { schedule } = await paidSchedule(1)
    const [a] = await insertMembers(api.db, 'pay-giveup', 1)
    const p = await hold(a!, schedule.id)
    const res = Purchase.parse(ok(await api.as(a!, 'POST', `/v1/purchases/${p.id}/cancel`)))
    expect(res.status).toBe('canceled_by_user')
    expect(await seatsOf(schedule.id)).toBe(0)
    expect((await confirm(a!, p.payment!.id, { card: TEST_CARD })).body.code).toBe('hold_expired')
  })

  it('money that arrives after the hold ended takes a free seat, or is refunded in full when none is left', async () => {
    const { schedule } = await paidSchedule(1)
    const [a, b] = await insertMembers(api.db, 'pay-late', 2)
    const provider = embedded()
    // a: released, then the provider's success arrives (a lost answer): the seat is still free → reserved.
    const p1 = await hold(a!, schedule.id)
    await expireHold(api.db, p1.id, {
      now: new Date(api.now.getTime() + 11 * MINUTE),
      provider,
      issuer: TEST_RECEIPT_ISSUER,
    })
    const [pay1] = await api.db.select().from(payments).where(eq(payments.id, p1.payment!.id))
    await api.db
      .update(embeddedPayments)
      .set({ status: 'succeeded' })
      .where(eq(embeddedPayments.ref, pay1!.providerRef!))
    expect(await settlePayment(api.db, p1.payment!.id, { now: api.now, issuer: TEST_RECEIPT_ISSUER })).toBe(
      'reserved',
    )
    expect(await seatsOf(schedule.id)).toBe(1)
    // b: the same, but a took the only seat → refunded (no_seat), nothing oversold.
    ok(await api.as(a!, 'POST', `/v1/purchases/${p1.id}/cancel`)) // frees it for b's hold
    const p2 = await hold(b!, schedule.id)
    await expireHold(api.db, p2.id, {
      now: new Date(api.now.getTime() + 11 * MINUTE),
      provider,
      issuer: TEST_RECEIPT_ISSUER,
    })
    ok(await api.book(a!, { schedule_id: schedule.id }), 201)
    const [pay2] = await api.db.select().from(payments).where(eq(payments.id, p2.payment!.id))
    await api.db
      .update(embeddedPayments)
      .set({ status: 'succeeded' })
      .where(eq(embeddedPayments.ref, pay2!.providerRef!))
    expect(await settlePayment(api.db, p2.payment!.id, { now: api.now, issuer: TEST_RECEIPT_ISSUER })).toBe(
      'refunded',
    )
    expect(await seatsOf(schedule.id)).toBe(1)
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, p2.id))
    expect(refund).toMatchObject({ amount: 3300, reason: 'no_seat', status: 'pending' })
    await drainJobs()
    const [done] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, p2.id))
    expect(done!.status).toBe('succeeded')
    // Settling again changes nothing.
    expect(await settlePayment(api.db, p2.payment!.id, { now: api.now, issuer: TEST_RECEIPT_ISSUER })).toBe(
      'already',
    )
    // Pressing 支払う again is told of the refund, not 「お支払いが完了しました」; a paid seat cancelled since, of that.
    const again = await confirm(b!, p2.payment!.id, { card: TEST_CARD })
    expect([again.status, again.body.code]).toEqual([409, 'refunded_no_seat'])
    const cancelled = await confirm(a!, p1.payment!.id, { card: TEST_CARD })
    expect([cancelled.status, cancelled.body.code, cancelled.body.message]).toEqual([
      409,
      'already_canceled',
      'この予約はキャンセルされています',
    ])
  })

  it('a suspension gives up its hold on a lesson that has begun: money that arrives after is refunded, no seat taken', async () => {
    // Booked two minutes before the start; the operator suspends the buyer a minute after it, while the checkout
    // page is still open and can still pay.
    const { schedule } = await paidSchedule(3, 3300, 2 * MINUTE)
    const [a, reporter] = await insertMembers(api.db, 'pay-susp-begun', 2)
    const p = await hold(a!, schedule.id)
    // Reported as a teacher (a member who also teaches), the way an account is reported.
    const aId = await api.userId(a!)
    await api.db.update(users).set({ isTeacher: true, teacherVerifiedAt: api.now }).where(eq(users.id, aId))
    const before = api.database.now
    api.database.now = new Date(before.getTime() + 3 * MINUTE)
    try {
      const { id: reportId } = ok(
        await api.as(reporter!, 'POST', '/v1/reports', {
          target_type: 'teacher',
          target_id: aId,
          reason: 'inappropriate',
        }),
        201,
      ) as { id: number }
      ok(await api.as(SUBS.operator, 'POST', `/v1/admin/reports/${reportId}/resolve`, { action: 'suspend' }))
      const [given] = await api.db.select().from(purchases).where(eq(purchases.id, p.id))
      expect(given!.status).toBe('expired')
      expect(await seatsOf(schedule.id)).toBe(0)
      const [pay] = await api.db.select().from(payments).where(eq(payments.id, p.payment!.id))
      expect(pay!.status).toBe('canceled')
      await api.db
        .update(embeddedPayments)
        .set({ status: 'succeeded' })
        .where(eq(embeddedPayments.ref, pay!.providerRef!))
      expect(
        await settlePayment(api.db, p.payment!.id, { now: api.database.now, issuer: TEST_RECEIPT_ISSUER }),
      ).toBe('refunded')
      const [after] = await api.db.select().from(purchases).where(eq(purchases.id, p.id))
      expect(after!.status).toBe('expired')
      const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, p.id))
      expect(refund).toMatchObject({ amount: 3300, reason: 'no_seat' })
    } finally {
      api.database.now = before
    }
  })

  it('late money takes no seat for a buyer suspended meanwhile, nor on a class unpublished meanwhile: refunded in full', async () => {
    const { schedule, cls, teacher } = await paidSchedule(3)
    const [a, b] = await insertMembers(api.db, 'pay-late-gone', 2)
    const provider = embedded()
    const late = async (sub: string) => {
      const p = await hold(sub, schedule.id)
      await expireHold(api.db, p.id, {
        now: new Date(api.now.getTime() + 11 * MINUTE),
        provider,
        issuer: TEST_RECEIPT_ISSUER,
      })
      const [pay] = await api.db.select().from(payments).where(eq(payments.id, p.payment!.id))
      await api.db
        .update(embeddedPayments)
        .set({ status: 'succeeded' })
        .where(eq(embeddedPayments.ref, pay!.providerRef!))
      return p
    }
    const pa = await late(a!)
    await api.db.update(users).set({ suspendedAt: api.now }).where(eq(users.sub, a!))
    expect(await settlePayment(api.db, pa.payment!.id, { now: api.now, issuer: TEST_RECEIPT_ISSUER })).toBe(
      'refunded',
    )
    expect(await seatsOf(schedule.id)).toBe(0)

    const pb = await late(b!)
    ok(await api.as(teacher, 'PATCH', `/v1/teachers/class_works/${cls.id}`, { is_published: false }))
    expect(await settlePayment(api.db, pb.payment!.id, { now: api.now, issuer: TEST_RECEIPT_ISSUER })).toBe(
      'refunded',
    )
    expect(await seatsOf(schedule.id)).toBe(0)
    const refunded = await api.db
      .select()
      .from(refunds)
      .where(inArray(refunds.purchaseId, [pa.id, pb.id]))
    expect(refunded.map((r) => [r.amount, r.reason])).toEqual([
      [3300, 'no_seat'],
      [3300, 'no_seat'],
    ])
  })
})

describe('idempotency and crashes', () => {
  it('a double submit with one Idempotency-Key charges once and answers the same', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-double', 1)
    const p = await hold(sub!, schedule.id)
    const token = await tokenFor(sub!)
    const send = () =>
      api.call('POST', `/v1/payments/${p.payment!.id}/confirm`, {
        token,
        body: { card: TEST_CARD },
        headers: { 'idempotency-key': `pay-${p.payment!.id}` },
      })
    const [one, two] = await Promise.all([send(), send()])
    expect([one.status, two.status]).toEqual([200, 200])
    expect(two.body.payment.status).toBe('succeeded')
    const [{ attempts }] = (await api.db
      .select({ attempts: payments.attempts })
      .from(payments)
      .where(eq(payments.id, p.payment!.id))) as [{ attempts: number }]
    expect(attempts).toBe(1)
    // One purchase mail job and one receipt: settled once.
    const queued = await api.db
      .select()
      .from(jobs)
      .where(
        sql`${jobs.kind} = 'notify.payment_receipt' and ${jobs.payload}->>'paymentId' = ${String(p.payment!.id)}`,
      )
    expect(queued).toHaveLength(1)
  })

  it('a crash between the charge and its record is reconciled: the seat is reserved, charged once', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-crash', 1)
    const base = embedded()
    // The provider charges, then the process "dies" before we record it.
    const crashing: PaymentProvider = {
      ...base,
      confirm: async (ref, input) => {
        await base.confirm(ref, input)
        throw new Error('process killed after the charge')
      },
    }
    const app = createApiApp({
      getDb: async () => api.db,
      auth: testAuth,
      now: () => api.now,
      payment: crashing,
    })
    const token = await tokenFor(sub!)
    const held = await (
      await app.fetch(
        new Request('http://api.test/v1/purchases', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ schedule_id: schedule.id }),
        }),
      )
    ).json()
    const quiet = console.error
    console.error = () => {}
    const res = await app.fetch(
      new Request(`http://api.test/v1/payments/${held.payment.id}/confirm`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ card: TEST_CARD }),
      }),
    )
    console.error = quiet
    expect(res.status).toBe(500)
    const [before] = await api.db.select().from(purchases).where(eq(purchases.id, held.id))
    expect(before!.status).toBe('pending')
    // The sweep, a minute later, asks the provider and settles.
    expect(
      await reconcilePayments(api.db, {
        now: new Date(api.now.getTime() + 2 * MINUTE),
        provider: base,
        issuer: TEST_RECEIPT_ISSUER,
      }),
    ).toBeGreaterThanOrEqual(1)
    const [after] = await api.db.select().from(purchases).where(eq(purchases.id, held.id))
    expect(after!.status).toBe('reserved')
    const ledger = await api.db
      .select()
      .from(embeddedPayments)
      .innerJoin(payments, eq(payments.providerRef, embeddedPayments.ref))
      .where(eq(payments.id, held.payment.id))
    expect(ledger.map((l) => l.embedded_payments.status)).toEqual(['succeeded'])
    // Had the hold's end come first, it would have settled too instead of giving the seat away.
    await expireHold(api.db, held.id, {
      now: new Date(api.now.getTime() + HOUR),
      provider: base,
      issuer: TEST_RECEIPT_ISSUER,
    })
    expect((await api.db.select().from(purchases).where(eq(purchases.id, held.id)))[0]!.status).toBe(
      'reserved',
    )
  })

  it('payments whose provider cannot be asked never hold the sweep back from money that arrived', async () => {
    const { schedule } = await paidSchedule()
    const subs = await insertMembers(api.db, 'pay-sweep-stuck', 3)
    const base = embedded()
    const app = createApiApp({ getDb: async () => api.db, auth: testAuth, now: () => api.now, payment: base })
    // Three held seats, each with its payment at the provider.
    const held: { id: number; payment: { id: number } }[] = []
    for (const sub of subs) {
      const res = await app.fetch(
        new Request('http://api.test/v1/purchases', {
          method: 'POST',
          headers: { authorization: `Bearer ${await tokenFor(sub)}`, 'content-type': 'application/json' },
          body: JSON.stringify({ schedule_id: schedule.id }),
        }),
      )
      expect(res.status).toBe(201)
      held.push(await res.json())
    }
    const [gone1, gone2, paid] = held as [(typeof held)[0], (typeof held)[0], (typeof held)[0]]
    const t0 = api.now.getTime()
    // Two of a provider no longer configured (Stripe, where only the embedded one is), the oldest of all open
    // payments so that other tests' ones take no place in the sweep; the third paid at the provider without our
    // record of it (a lost answer).
    for (const [p, at] of [
      [gone1, 1_000],
      [gone2, 2_000],
    ] as const)
      await api.db
        .update(payments)
        .set({ provider: 'stripe', lastAttemptAt: new Date(at) })
        .where(eq(payments.id, p.payment.id))
    const [row] = await api.db.select().from(payments).where(eq(payments.id, paid.payment.id))
    expect(row!.status).toBe('requires_payment')
    await base.confirm(row!.providerRef!, { card: TEST_CARD, now: api.now })
    await api.db
      .update(payments)
      .set({ lastAttemptAt: new Date(3_000) })
      .where(eq(payments.id, paid.payment.id))
    // A sweep of two at a time: the first looks at the two it cannot ask, the next reaches the paid one.
    await reconcilePayments(api.db, { now: new Date(t0), provider: base, issuer: TEST_RECEIPT_ISSUER }, 2)
    expect(
      await reconcilePayments(
        api.db,
        { now: new Date(t0 + 30_000), provider: base, issuer: TEST_RECEIPT_ISSUER },
        2,
      ),
    ).toBe(1)
    const [after] = await api.db.select().from(purchases).where(eq(purchases.id, paid.id))
    expect(after!.status).toBe('reserved')
  })

  it('the sweep dates a payment when it settles it, not when the sweep began (a month can end meanwhile), and records the issuer it is given', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-sweep-clock', 1)
    const base = embedded()
    const p = await hold(sub!, schedule.id)
    const [row] = await api.db.select().from(payments).where(eq(payments.id, p.payment!.id))
    await base.confirm(row!.providerRef!, { card: TEST_CARD, now: api.now })
    // Paid there, not recorded here (a lost answer), and first in the sweep's order.
    await api.db
      .update(payments)
      .set({ lastAttemptAt: new Date(500) })
      .where(eq(payments.id, row!.id))
    // The sweep starts at 23:59:50 on a month's last day (Tokyo); the provider takes a minute to answer.
    const start = new Date('2026-11-30T14:59:50Z')
    const answered = new Date('2026-11-30T15:00:50Z')
    let now = start
    const slow: PaymentProvider = {
      ...base,
      retrieve: async (ref) => {
        now = answered
        return base.retrieve(ref)
      },
    }
    // The job's issuer is not the test default: the receipt must carry the one the job was given.
    const handlers = paymentHandlers({
      provider: () => slow,
      issuer: () => ({ name: 'まなびのたね', registrationNumber: 'T5555555555555' }),
      clock: () => now,
    })
    await handlers['payments.reconcile']!(
      { id: 1, kind: 'payments.reconcile', payload: {}, attempts: 1 },
      { db: api.db },
    )
    const [settled] = await api.db.select().from(payments).where(eq(payments.id, row!.id))
    expect(settled!.status).toBe('succeeded')
    expect(settled!.succeededAt).toEqual(answered)
    expect([settled!.receiptIssuerName, settled!.receiptRegistrationNumber]).toEqual([
      'まなびのたね',
      'T5555555555555',
    ])
  })

  it('a refund whose job gave up is queued again once an hour by the sweep until it is paid back', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-refund-stuck', 1)
    const p = Purchase.parse(ok(await api.book(sub!, { schedule_id: schedule.id }), 201))
    ok(await api.as(sub!, 'POST', `/v1/purchases/${p.id}/cancel`))
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, p.id))
    // Its job tried for hours and gave up (the provider kept refusing).
    await api.db
      .update(jobs)
      .set({ finishedAt: new Date(), failed: true })
      .where(eq(jobs.dedupeKey, `refund:${refund!.id}`))
    const now = new Date()
    expect(await requeueStuckRefunds(api.db, now)).toBe(0) // decided just now: its job's own retries count
    await api.db
      .update(refunds)
      .set({ createdAt: new Date(now.getTime() - 2 * HOUR) })
      .where(eq(refunds.id, refund!.id))
    expect(await requeueStuckRefunds(api.db, now)).toBe(1)
    expect(await requeueStuckRefunds(api.db, now)).toBe(0) // one attempt queued is enough
    await drainJobs()
    const [done] = await api.db.select().from(refunds).where(eq(refunds.id, refund!.id))
    expect(done!.status).toBe('succeeded')
    expect(await requeueStuckRefunds(api.db, new Date(now.getTime() + 2 * HOUR))).toBe(0)
  })

  it('a hold whose provider can no longer be asked (switched off) still ends: the seat is freed', async () => {
    const { schedule } = await paidSchedule(1)
    const [sub] = await insertMembers(api.db, 'pay-provider-gone', 1)
    const p = await hold(sub!, schedule.id)
    await api.db.update(payments).set({ provider: 'stripe' }).where(eq(payments.id, p.payment!.id))
    const outcome = await expireHold(api.db, p.id, {
      now: new Date(api.now.getTime() + 11 * MINUTE),
      provider: embedded(),
      issuer: TEST_RECEIPT_ISSUER,
    })
    expect(outcome).toBe('changed')
    expect(await seatsOf(schedule.id)).toBe(0)
  })

  it('paying a hold whose provider this instance cannot reach answers 503 payment_unavailable in Japanese, not 500', async () => {
    const { schedule } = await paidSchedule(1)
    const [sub] = await insertMembers(api.db, 'pay-provider-other', 1)
    const p = await hold(sub!, schedule.id)
    // Made under Stripe, read by an instance with only the embedded provider (keys removed, a rolling deploy).
    await api.db.update(payments).set({ provider: 'stripe' }).where(eq(payments.id, p.payment!.id))
    const res = await confirm(sub!, p.payment!.id, { card: TEST_CARD })
    expect([res.status, res.body.code]).toEqual([503, 'payment_unavailable'])
    expect(res.body.message).toBe('決済サービスに接続できませんでした。時間をおいてもう一度お試しください')
    // Nothing changed: the seat is still held for the member.
    expect(await seatsOf(schedule.id)).toBe(1)
    const [row] = await api.db.select().from(payments).where(eq(payments.id, p.payment!.id))
    expect(row?.status).toBe('requires_payment')
  })

  it('a crash between the provider’s refund and its record refunds once when the job runs again', async () => {
    const { schedule, teacher } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-refund-crash', 1)
    const p = Purchase.parse(ok(await api.book(sub!, { schedule_id: schedule.id }), 201))
    ok(await api.as(sub!, 'POST', `/v1/purchases/${p.id}/cancel`))
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, p.id))
    expect(refund).toMatchObject({ amount: 3300, reason: 'member_cancel', status: 'pending' })
    const base = embedded()
    const crashing: PaymentProvider = {
      ...base,
      refund: async (input) => {
        await base.refund(input)
        throw new Error('process killed after the refund')
      },
    }
    await expect(runRefund(api.db, refund!.id, { now: api.now, provider: crashing })).rejects.toThrow()
    await runRefund(api.db, refund!.id, { now: api.now, provider: base })
    await runRefund(api.db, refund!.id, { now: api.now, provider: base })
    const [done] = await api.db.select().from(refunds).where(eq(refunds.id, refund!.id))
    expect(done).toMatchObject({ status: 'succeeded', lastError: null })
    const ledger = await api.db
      .select()
      .from(embeddedRefunds)
      .where(eq(embeddedRefunds.idempotencyKey, `refund-${refund!.id}`))
    expect(ledger).toHaveLength(1)
    expect(done!.providerRef).toBe(ledger[0]!.ref)
    // A second cancellation path (the teacher cancelling now) does not refund it again.
    ok(await api.as(teacher, 'POST', `/v1/teachers/class_work_schedules/${schedule.id}/cancel`))
    expect(await api.db.select().from(refunds).where(eq(refunds.purchaseId, p.id))).toHaveLength(1)
  })

  it('paying a seat whose lesson the teacher cancelled during the checkout says so, not that the 10 minutes passed', async () => {
    const { schedule, teacher } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-hold-canceled', 1)
    const p = await hold(sub!, schedule.id)
    ok(await api.as(teacher, 'POST', `/v1/teachers/class_work_schedules/${schedule.id}/cancel`))
    const late = await confirm(sub!, p.payment!.id, { card: TEST_CARD })
    expect([late.status, late.body.code, late.body.message]).toEqual([
      409,
      'canceled',
      'この日程は中止になりました',
    ])
    const [pay] = await api.db.select().from(payments).where(eq(payments.id, p.payment!.id))
    expect(pay!.status).toBe('canceled')
  })

  it('a refund the provider has not paid back yet (pending) stays owed: no mail, asked again until it is paid', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-refund-pending', 1)
    const p = Purchase.parse(ok(await api.book(sub!, { schedule_id: schedule.id }), 201))
    ok(await api.as(sub!, 'POST', `/v1/purchases/${p.id}/cancel`))
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, p.id))
    const base = embedded()
    // Stripe answers a refund it cannot pay yet (a balance too low) as pending, not as an error.
    const pending: PaymentProvider = {
      ...base,
      refund: async () => ({ ref: 're_pending_1', status: 'pending' }),
    }
    await expect(runRefund(api.db, refund!.id, { now: api.now, provider: pending })).rejects.toThrow(
      /pending/,
    )
    const [owed] = await api.db.select().from(refunds).where(eq(refunds.id, refund!.id))
    expect(owed).toMatchObject({ status: 'pending', providerRef: 're_pending_1' })
    const mailJobs = () =>
      api.db
        .select()
        .from(jobs)
        .where(
          sql`${jobs.kind} = 'notify.refund_completed' and ${jobs.payload}->>'refundId' = ${String(refund!.id)}`,
        )
    expect(await mailJobs()).toEqual([])
    // The next attempt asks after that refund rather than making another; paid back, it is recorded and told.
    let made = 0
    const later: PaymentProvider = {
      ...base,
      refund: async (input) => {
        made++
        return base.refund(input)
      },
      retrieveRefund: async (ref) => ({ ref, status: 'succeeded' }),
    }
    await runRefund(api.db, refund!.id, { now: api.now, provider: later })
    expect(made).toBe(0)
    expect((await api.db.select().from(refunds).where(eq(refunds.id, refund!.id)))[0]!.providerRef).toBe(
      're_pending_1',
    )
    expect((await api.db.select().from(refunds).where(eq(refunds.id, refund!.id)))[0]!.status).toBe(
      'succeeded',
    )
    expect(await mailJobs()).toHaveLength(1)
  })

  it('a refund the provider refused is asked for again under a new key; the same key would answer with the refusal', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-refund-failed', 1)
    const p = Purchase.parse(ok(await api.book(sub!, { schedule_id: schedule.id }), 201))
    ok(await api.as(sub!, 'POST', `/v1/purchases/${p.id}/cancel`))
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, p.id))
    const base = embedded()
    // Stripe's idempotency: a key answers with what its first request got, for a day. The first refund is
    // refused; the second is accepted as pending and refused later; the third is paid back.
    const answers = new Map<string, RefundState>()
    const refusals: RefundState[] = [
      { ref: 're_refused_1', status: 'failed' },
      { ref: 're_refused_2', status: 'pending' },
    ]
    const keys: string[] = []
    const stripeLike: PaymentProvider = {
      ...base,
      refund: async (input) => {
        keys.push(input.idempotencyKey)
        const known = answers.get(input.idempotencyKey)
        if (known) return known
        const answer = refusals.shift() ?? (await base.refund(input))
        answers.set(input.idempotencyKey, answer)
        return answer
      },
      retrieveRefund: async (ref) =>
        ref === 're_refused_2' ? { ref, status: 'failed' } : base.retrieveRefund(ref),
    }
    const run = () => runRefund(api.db, refund!.id, { now: api.now, provider: stripeLike })
    await expect(run()).rejects.toThrow(/failed/)
    await expect(run()).rejects.toThrow(/pending/)
    await expect(run()).rejects.toThrow(/failed/)
    await run()
    expect(keys).toEqual([`refund-${refund!.id}`, `refund-${refund!.id}-1`, `refund-${refund!.id}-2`])
    const [done] = await api.db.select().from(refunds).where(eq(refunds.id, refund!.id))
    expect(done).toMatchObject({ status: 'succeeded', providerAttempt: 2, lastError: null })
    expect(done!.providerRef).toMatch(/^emb_re/)
    // Paid back once, and a later run asks nothing more.
    await run()
    expect(keys).toHaveLength(3)
    const paidBack = await api.db
      .select()
      .from(embeddedRefunds)
      .where(like(embeddedRefunds.idempotencyKey, `refund-${refund!.id}%`))
    expect(paidBack).toHaveLength(1)
  })

  it('a refund is never recorded without its mail: when queuing the mail fails, the record waits for the retry', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-refund-mail', 1)
    const p = Purchase.parse(ok(await api.book(sub!, { schedule_id: schedule.id }), 201))
    ok(await api.as(sub!, 'POST', `/v1/purchases/${p.id}/cancel`))
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, p.id))
    const mailsOf = () =>
      api.db
        .select()
        .from(jobs)
        .where(
          sql`${jobs.kind} = 'notify.refund_completed' and ${jobs.payload}->>'refundId' = ${String(refund!.id)}`,
        )
    // The database refuses the mail's job (it went away between the two writes).
    await api.db.execute(sql`create function refuse_refund_mail() returns trigger language plpgsql as $$
      begin if new.kind = 'notify.refund_completed' then raise exception 'the database went away'; end if;
      return new; end $$`)
    await api.db.execute(
      sql`create trigger refuse_refund_mail before insert on jobs for each row execute function refuse_refund_mail()`,
    )
    try {
      await expect(runRefund(api.db, refund!.id, { now: api.now, provider: embedded() })).rejects.toThrow()
      const [waiting] = await api.db.select().from(refunds).where(eq(refunds.id, refund!.id))
      expect(waiting!.status).toBe('pending')
      expect(await mailsOf()).toEqual([])
    } finally {
      await api.db.execute(sql`drop trigger refuse_refund_mail on jobs`)
      await api.db.execute(sql`drop function refuse_refund_mail()`)
    }
    // The job's retry records it and queues the mail; the provider refunded once.
    await runRefund(api.db, refund!.id, { now: api.now, provider: embedded() })
    const [done] = await api.db.select().from(refunds).where(eq(refunds.id, refund!.id))
    expect(done!.status).toBe('succeeded')
    expect(await mailsOf()).toHaveLength(1)
    expect(
      await api.db
        .select()
        .from(embeddedRefunds)
        .where(eq(embeddedRefunds.idempotencyKey, `refund-${refund!.id}`)),
    ).toHaveLength(1)
  })

  it('refunds sum to what was paid, one per payment, across member, teacher and course cancellations', async () => {
    const { schedule, teacher } = await paidSchedule(6)
    const subs = await insertMembers(api.db, 'pay-sum', 5)
    const bought: number[] = []
    for (const sub of subs)
      bought.push(Purchase.parse(ok(await api.book(sub, { schedule_id: schedule.id }), 201)).id)
    ok(await api.as(subs[0]!, 'POST', `/v1/purchases/${bought[0]}/cancel`))
    ok(await api.as(subs[1]!, 'POST', `/v1/purchases/${bought[1]}/cancel`))
    const teacherCancel = ok(
      await api.as(teacher, 'POST', `/v1/teachers/class_work_schedules/${schedule.id}/cancel`),
    )
    expect(teacherCancel.refunded_amount).toBe(3 * 3300)
    await drainJobs()
    const rows = await api.db
      .select({ purchaseId: refunds.purchaseId, amount: refunds.amount, status: refunds.status })
      .from(refunds)
      .where(sql`${refunds.purchaseId} in ${bought}`)
    expect(rows.map((r) => r.purchaseId).sort()).toEqual([...bought].sort())
    expect(rows.every((r) => r.status === 'succeeded')).toBe(true)
    expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(5 * 3300)
    const paid = await api.db
      .select({ total: sql<number>`sum(${payments.amount})::int` })
      .from(payments)
      .where(and(sql`${payments.purchaseId} in ${bought}`, eq(payments.status, 'succeeded')))
    expect(Number(paid[0]!.total)).toBe(5 * 3300)
  })
})

describe('receipts and history', () => {
  it('the member’s receipt: the platform, the registration number, tax, 宛名 set once; history per month', async () => {
    const { cls, schedule } = await paidSchedule()
    const [sub, other] = await insertMembers(api.db, 'pay-receipt', 2)
    const p = Purchase.parse(ok(await api.book(sub!, { schedule_id: schedule.id }), 201))
    const receipt = PaymentReceipt.parse(
      ok(await api.as(sub!, 'GET', `/v1/payments/${p.payment!.id}/receipt`)),
    )
    expect(receipt).toMatchObject({
      number: `R-${String(p.payment!.id).padStart(6, '0')}`,
      name: null,
      platform_name: 'まなびのたね',
      amount: 3300,
      tax_amount: 300,
      tax_rate_percent: 10,
      refunded_amount: 0,
      item: { class_title: cls.title, lesson_count: 1 },
    })
    expect((await api.as(other!, 'GET', `/v1/payments/${p.payment!.id}/receipt`)).status).toBe(404)
    const named = PaymentReceipt.parse(
      ok(await api.as(sub!, 'PUT', `/v1/payments/${p.payment!.id}/receipt/name`, { name: '山田 花子' })),
    )
    expect(named.name).toBe('山田 花子')
    const again = await api.as(sub!, 'PUT', `/v1/payments/${p.payment!.id}/receipt/name`, {
      name: '別の名前',
    })
    expect([again.status, again.body.code]).toEqual([409, 'receipt_name_set'])
    expect(
      (await api.as(sub!, 'PUT', `/v1/payments/${p.payment!.id}/receipt/name`, { name: '' })).status,
    ).toBe(400)
    // An unpaid hold has no receipt.
    const { schedule: other2 } = await paidSchedule()
    const pending = await hold(sub!, other2.id)
    expect((await api.as(sub!, 'GET', `/v1/payments/${pending.payment!.id}/receipt`)).status).toBe(404)

    ok(await api.as(sub!, 'POST', `/v1/purchases/${p.id}/cancel`))
    await drainJobs()
    const month = new Date(api.now.getTime() + 9 * HOUR).toISOString().slice(0, 7)
    const history = PaymentHistory.parse(ok(await api.as(sub!, 'GET', `/v1/payments?month=${month}`)))
    expect(history.items.map((i) => [i.kind, i.amount, i.status])).toEqual(
      [
        ['refund', 3300, 'succeeded'],
        ['payment', 3300, 'succeeded'],
      ].sort((a, b) => (a[0]! < b[0]! ? 1 : -1)),
    )
    expect(history.totals).toEqual({ paid: 3300, refunded: 3300 })
    expect(history.months).toContain(month)
    expect(
      PaymentReceipt.parse(ok(await api.as(sub!, 'GET', `/v1/payments/${p.payment!.id}/receipt`)))
        .refunded_amount,
    ).toBe(3300)
    expect((await api.as(sub!, 'GET', '/v1/payments?month=2026-13')).status).toBe(400)
    expect(PaymentHistory.parse(ok(await api.as(sub!, 'GET', '/v1/payments?month=2020-01'))).items).toEqual(
      [],
    )
  })
})

describe('a receipt names what was bought (0057)', () => {
  it('a later rename, lesson move or nickname change leaves the receipt and the history line as they were', async () => {
    const { cls, schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-kept', 1)
    const child = ok(
      await api.as(sub!, 'POST', '/v1/users/me/learners', {
        nickname: 'はなこ',
        school_type_id: 1,
        target_grade_id: 1,
      }),
      201,
    ).id as number
    const p = Purchase.parse(ok(await api.book(sub!, { schedule_id: schedule.id, learner_id: child }), 201))
    const path = `/v1/payments/${p.payment!.id}/receipt`
    const before = PaymentReceipt.parse(ok(await api.as(sub!, 'GET', path)))
    expect(before.item).toEqual({
      class_title: cls.title,
      schedule_started_at: schedule.started_at,
      lesson_count: 1,
      attendee: 'はなこ',
    })
    const month = new Date(api.now.getTime() + 9 * HOUR).toISOString().slice(0, 7)
    const lineOf = async () =>
      PaymentHistory.parse(ok(await api.as(sub!, 'GET', `/v1/payments?month=${month}`))).items.find(
        (i) => i.payment_id === p.payment!.id,
      )
    const lineBefore = await lineOf()
    expect(lineBefore).toMatchObject({ class_work: { id: cls.id, title: cls.title }, attendee: 'はなこ' })

    // The teacher renames the class and moves the lesson; the parent renames the child, then themselves.
    const moved = new Date(new Date(schedule.started_at).getTime() + DAY)
    await api.db
      .update(classWorks)
      .set({ title: '別の名前のクラス', lessonCount: 2 })
      .where(eq(classWorks.id, cls.id))
    await api.db
      .update(classWorkSchedules)
      .set({ startedAt: moved, endedAt: new Date(moved.getTime() + HOUR) })
      .where(eq(classWorkSchedules.id, schedule.id))
    await api.db.update(learners).set({ nickname: 'はなちゃん' }).where(eq(learners.id, child))
    await api.db.update(users).set({ nickname: '改名' }).where(eq(users.sub, sub!))

    expect(PaymentReceipt.parse(ok(await api.as(sub!, 'GET', path)))).toEqual(before)
    expect(await lineOf()).toEqual(lineBefore)
  })

  it('every succeeded payment has its item, however it was written; a payment still unpaid has none', async () => {
    const { cls, schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-item', 1)
    const pending = await hold(sub!, schedule.id)
    const itemOf = async () =>
      (
        await api.db
          .select({
            title: payments.receiptTitle,
            learner: payments.receiptLearner,
            member: payments.receiptMember,
            lessons: payments.receiptLessonCount,
          })
          .from(payments)
          .where(eq(payments.id, pending.payment!.id))
      )[0]!
    expect(await itemOf()).toEqual({ title: null, learner: null, member: null, lessons: null })
    // Succeeded by hand (a repair, the seed): the database writes the item in the same statement.
    await api.db
      .update(payments)
      .set({ status: 'succeeded', succeededAt: api.now })
      .where(eq(payments.id, pending.payment!.id))
    expect(await itemOf()).toMatchObject({ title: cls.title, learner: null, lessons: 1 })
    // …and never lets a succeeded payment lose it.
    await expect(
      api.db.update(payments).set({ receiptTitle: null }).where(eq(payments.id, pending.payment!.id)),
    ).rejects.toThrow()
    expect((await itemOf()).title).toBe(cls.title)
  })

  it('a receipt names its issuer as it stood then: registering for the invoice system later adds no number to it', async () => {
    const [sub] = await insertMembers(api.db, 'pay-issuer', 1)
    const { schedule: first } = await paidSchedule()
    const { schedule: second } = await paidSchedule()
    const receiptOf = async (paymentId: number) =>
      PaymentReceipt.parse(ok(await api.as(sub!, 'GET', `/v1/payments/${paymentId}/receipt`)))
    const unregistered = { name: 'まなびのたね', registrationNumber: null }
    const registered = { name: 'まなびのたね', registrationNumber: 'T1234567890123' }
    try {
      issuerNow = unregistered
      const before = Purchase.parse(ok(await api.book(sub!, { schedule_id: first.id }), 201))
      expect((await receiptOf(before.payment!.id)).registration_number).toBeNull()

      issuerNow = registered
      expect(await receiptOf(before.payment!.id)).toMatchObject({
        platform_name: 'まなびのたね',
        registration_number: null,
      })
      const after = Purchase.parse(ok(await api.book(sub!, { schedule_id: second.id }), 201))
      expect((await receiptOf(after.payment!.id)).registration_number).toBe('T1234567890123')
      const [row] = await api.db
        .select({ name: payments.receiptIssuerName, number: payments.receiptRegistrationNumber })
        .from(payments)
        .where(eq(payments.id, after.payment!.id))
      expect(row).toEqual({ name: 'まなびのたね', number: 'T1234567890123' })

      // A payment recorded before its issuer was (migration 0043, or by hand) shows the issuer configured now.
      await api.db
        .update(payments)
        .set({ receiptIssuerName: null })
        .where(eq(payments.id, before.payment!.id))
      expect((await receiptOf(before.payment!.id)).registration_number).toBe('T1234567890123')
      // The database keeps only a well-formed number, and only with the issuer's name.
      await expect(
        api.db
          .update(payments)
          .set({ receiptRegistrationNumber: '1234567890123' })
          .where(eq(payments.id, after.payment!.id)),
      ).rejects.toThrow()
      await expect(
        api.db.update(payments).set({ receiptIssuerName: null }).where(eq(payments.id, after.payment!.id)),
      ).rejects.toThrow()
      expect((await receiptOf(after.payment!.id)).registration_number).toBe('T1234567890123')
    } finally {
      issuerNow = TEST_RECEIPT_ISSUER
    }
  })

  it('payments recorded without an issuer are stamped with the configured one as the app opens its database, once', async () => {
    const { schedule } = await paidSchedule()
    const { schedule: later } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-issuer-stamp', 1)
    const paid = Purchase.parse(ok(await api.book(sub!, { schedule_id: schedule.id }), 201))
    const pending = await hold(sub!, later.id)
    // Paid before migration 0043: no issuer recorded.
    await api.db
      .update(payments)
      .set({ receiptIssuerName: null, receiptRegistrationNumber: null })
      .where(eq(payments.id, paid.payment!.id))
    const issuerOf = async (id: number) =>
      (
        await api.db
          .select({ name: payments.receiptIssuerName, number: payments.receiptRegistrationNumber })
          .from(payments)
          .where(eq(payments.id, id))
      )[0]
    const unregistered = { name: 'まなびのたね', registrationNumber: null }
    expect(await stampReceiptIssuers(api.db, unregistered)).toBeGreaterThanOrEqual(1)
    expect(await issuerOf(paid.payment!.id)).toEqual({ name: 'まなびのたね', number: null })
    expect(await issuerOf(pending.payment!.id)).toEqual({ name: null, number: null })
    // Stamped, the receipt no longer follows the configuration; a second start changes nothing.
    try {
      issuerNow = { name: 'まなびのたね', registrationNumber: 'T1234567890123' }
      expect(
        PaymentReceipt.parse(ok(await api.as(sub!, 'GET', `/v1/payments/${paid.payment!.id}/receipt`)))
          .registration_number,
      ).toBeNull()
    } finally {
      issuerNow = TEST_RECEIPT_ISSUER
    }
    expect(
      await stampReceiptIssuers(api.db, { name: 'まなびのたね', registrationNumber: 'T1234567890123' }),
    ).toBe(0)
    expect(await issuerOf(paid.payment!.id)).toEqual({ name: 'まなびのたね', number: null })
  })

  it('two stamps at once (start-up’s advisory lock aside) stamp a payment once: the later waits, then finds nothing left', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-issuer-twice', 1)
    const paid = Purchase.parse(ok(await api.book(sub!, { schedule_id: schedule.id }), 201))
    await api.db
      .update(payments)
      .set({ receiptIssuerName: null, receiptRegistrationNumber: null })
      .where(eq(payments.id, paid.payment!.id))
    const first = { name: 'まなびのたね', registrationNumber: null }
    const second = { name: 'まなびのたね', registrationNumber: 'T1234567890123' }
    let stampedFirst = 0
    // The first instance's stamp is still uncommitted when the second's arrives (on PostgreSQL it waits for it).
    const stampedSecond = await whileHeld(
      api,
      async (tx) => {
        stampedFirst = await stampReceiptIssuers(tx, first)
      },
      () => stampReceiptIssuers(api.db, second),
    )
    expect(stampedFirst).toBeGreaterThanOrEqual(1)
    expect(stampedSecond).toBe(0)
    const [row] = await api.db
      .select({ number: payments.receiptRegistrationNumber })
      .from(payments)
      .where(eq(payments.id, paid.payment!.id))
    expect(row!.number).toBeNull()
  })

  it('a payment settled outside a request (a job, the provider’s webhook) records the issuer it is given', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'pay-issuer-job', 1)
    const held = await hold(sub!, schedule.id)
    const registered = { name: 'まなびのたね', registrationNumber: 'T9876543210987' }
    expect(await settlePayment(api.db, held.payment!.id, { now: api.now, issuer: registered })).toBe(
      'reserved',
    )
    const receipt = PaymentReceipt.parse(
      ok(await api.as(sub!, 'GET', `/v1/payments/${held.payment!.id}/receipt`)),
    )
    expect(receipt.registration_number).toBe('T9876543210987')
    // Settling again (a webhook replayed after the job) keeps what was recorded first.
    expect(await settlePayment(api.db, held.payment!.id, { now: api.now, issuer: TEST_RECEIPT_ISSUER })).toBe(
      'already',
    )
    expect(
      PaymentReceipt.parse(ok(await api.as(sub!, 'GET', `/v1/payments/${held.payment!.id}/receipt`)))
        .registration_number,
    ).toBe('T9876543210987')
  })
})

describe('payouts for teachers', () => {
  /** A new verified teacher with a published ¥5,000 class of 5 seats and one schedule 4 days ahead. */
  async function verifiedTeacherWithSchedule(prefix: string, title: string) {
    const [teacherSub] = await insertMembers(api.db, prefix, 1)
    await api.db
      .update(users)
      .set({ isTeacher: true, role: 'teacher', teacherVerifiedAt: api.now })
      .where(eq(users.sub, teacherSub!))
    const cls = ok(
      await api.as(teacherSub!, 'POST', '/v1/teachers/class_works', {
        title,
        description: '説明',
        category_id: masters.category,
        class_style_id: masters.style,
        target_grade_ids: masters.grades,
        price: 5000,
        capacity: 5,
        duration_minutes: 60,
        is_published: true,
      }),
      201,
    )
    const start = new Date(api.now.getTime() + 4 * DAY)
    const s = ok(
      await api.as(teacherSub!, 'POST', `/v1/teachers/class_works/${cls.id}/schedules`, {
        started_at: start.toISOString(),
        ended_at: new Date(start.getTime() + HOUR).toISOString(),
      }),
      201,
    )
    return { teacherSub, s }
  }

  it('the month’s statement: gross, commission, refunds (commission returned), net, paid at the end of the next month', async () => {
    const { teacherSub, s } = await verifiedTeacherWithSchedule('pay-teacher', '振込テスト')
    const buyers = await insertMembers(api.db, 'pay-buyer', 3)
    const bought: Purchase[] = []
    for (const b of buyers) bought.push(Purchase.parse(ok(await api.book(b, { schedule_id: s.id }), 201)))
    ok(await api.as(buyers[0]!, 'POST', `/v1/purchases/${bought[0]!.id}/cancel`))
    await drainJobs()
    const month = new Date(api.now.getTime() + 9 * HOUR).toISOString().slice(0, 7)
    const statement = PayoutStatement.parse(
      ok(await api.as(teacherSub!, 'GET', `/v1/teachers/payouts?month=${month}`)),
    )
    expect(statement).toMatchObject({
      gross: 15000,
      commission: 3000,
      refunds: 5000,
      refunded_commission: 1000,
      net: 15000 - 3000 - (5000 - 1000),
      payment_count: 3,
      refund_count: 1,
    })
    const [y, m] = month.split('-').map(Number)
    expect(statement.transfer_date).toBe(new Date(Date.UTC(y!, m! + 1, 0)).toISOString().slice(0, 10))
    expect(statement.lines).toHaveLength(4)
    // Another teacher sees none of it; a member who does not teach is refused.
    const own = PayoutStatement.parse(
      ok(await api.as(SUBS.teacher, 'GET', `/v1/teachers/payouts?month=${month}`)),
    )
    expect(own.lines.some((l) => bought.some((b) => b.id === l.purchase_id))).toBe(false)
    expect((await api.as(buyers[1]!, 'GET', '/v1/teachers/payouts')).status).toBe(403)
  })

  it('a month whose refunds outweigh its takings transfers nothing, and the next months pay the debt back first', async () => {
    const { teacherSub, s } = await verifiedTeacherWithSchedule('carry-teacher', '繰越テスト')
    // Three seats paid two months ago (net 4,000 each), all refunded since: two last month, one this month.
    const buyers = await insertMembers(api.db, 'carry-buyer', 3)
    const bought: Purchase[] = []
    for (const b of buyers) bought.push(Purchase.parse(ok(await api.book(b, { schedule_id: s.id }), 201)))
    for (const [i, b] of buyers.entries())
      ok(await api.as(b, 'POST', `/v1/purchases/${bought[i]!.id}/cancel`))
    await drainJobs()
    const month = new Date(api.now.getTime() + 9 * HOUR).toISOString().slice(0, 7)
    const [twoAgo, lastMonth, next] = [shiftMonth(month, -2), shiftMonth(month, -1), shiftMonth(month, 1)]
    const mid = (m: string) => new Date(`${m}-15T12:00:00+09:00`)
    const paid = await api.db
      .select({ id: payments.id })
      .from(payments)
      .where(
        inArray(
          payments.purchaseId,
          bought.map((b) => b.id),
        ),
      )
    expect(paid).toHaveLength(3)
    await api.db
      .update(payments)
      .set({ succeededAt: mid(twoAgo) })
      .where(
        inArray(
          payments.id,
          paid.map((p) => p.id),
        ),
      )
    const made = await api.db
      .select({ id: refunds.id, status: refunds.status })
      .from(refunds)
      .where(
        inArray(
          refunds.paymentId,
          paid.map((p) => p.id),
        ),
      )
      .orderBy(refunds.id)
    expect(made.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
    await api.db
      .update(refunds)
      .set({ succeededAt: mid(lastMonth) })
      .where(inArray(refunds.id, [made[0]!.id, made[1]!.id]))

    const statementOf = async (m: string) =>
      PayoutStatement.parse(ok(await api.as(teacherSub!, 'GET', `/v1/teachers/payouts?month=${m}`)))
    expect(await statementOf(twoAgo)).toMatchObject({ net: 12000, carried_over: 0, transfer_amount: 12000 })
    // Last month paid back 8,000 of what was transferred: nothing is sent, the debt goes on.
    expect(await statementOf(lastMonth)).toMatchObject({ net: -8000, carried_over: 0, transfer_amount: 0 })
    expect(await statementOf(month)).toMatchObject({ net: -4000, carried_over: -8000, transfer_amount: 0 })
    // Next month starts 12,000 behind: four seats paid then (16,000) pay it back, and 4,000 is transferred.
    const later = await insertMembers(api.db, 'carry-later', 4)
    const rebought: number[] = []
    for (const b of later) rebought.push(Purchase.parse(ok(await api.book(b, { schedule_id: s.id }), 201)).id)
    await api.db
      .update(payments)
      .set({ succeededAt: mid(next) })
      .where(inArray(payments.purchaseId, rebought))
    expect(await statementOf(next)).toMatchObject({ net: 16000, carried_over: -12000, transfer_amount: 4000 })
    expect(await statementOf(shiftMonth(month, 2))).toMatchObject({
      net: 0,
      carried_over: 0,
      transfer_amount: 0,
    })
    // This month, which still owed, is unchanged by what came later.
    expect(await statementOf(month)).toMatchObject({ net: -4000, carried_over: -8000, transfer_amount: 0 })
  })

  it('the bank account: stored encrypted, shown masked, validated in Japanese, only for teachers', async () => {
    const account = {
      bank_name: 'みらい銀行',
      branch_name: '本店',
      account_type: 'futsu',
      account_number: '1234567',
      holder_kana: 'スズキ ミサキ',
    }
    expect(ok(await api.as(SUBS.owner, 'GET', '/v1/teachers/bank_account'))).toBeNull()
    const saved = ok(await api.as(SUBS.owner, 'PUT', '/v1/teachers/bank_account', account))
    expect(saved).toMatchObject({
      bank_name: 'みらい銀行',
      account_type: 'futsu',
      number_masked: '＊＊＊4567',
      holder_masked: 'ス＊＊ ミ＊＊',
    })
    const [row] = await api.db.select().from(teacherBankAccounts)
    expect(row!.encrypted).not.toContain('1234567')
    expect(JSON.stringify(row)).not.toContain('スズキ')
    expect(saved.needs_reentry).toBe(false)
    // Sealed under a secret that has since changed: the page still opens, asking for the account again.
    await api.db
      .update(teacherBankAccounts)
      .set({
        encrypted: sealAccount('a-secret-since-replaced', { number: '1234567', holder: 'スズキ ミサキ' }),
      })
      .where(eq(teacherBankAccounts.userId, row!.userId))
    expect(ok(await api.as(SUBS.owner, 'GET', '/v1/teachers/bank_account'))).toMatchObject({
      number_masked: '＊＊＊4567',
      holder_masked: null,
      needs_reentry: true,
    })
    const bad = await api.as(SUBS.owner, 'PUT', '/v1/teachers/bank_account', {
      bank_name: 'みらい銀行',
      branch_name: '本店',
      account_type: 'savings',
      account_number: '12345',
      holder_kana: 'suzuki',
    })
    expect(bad.status).toBe(400)
    const messages = bad.body.issues.map((i: { message: string }) => i.message)
    expect(messages).toEqual(
      expect.arrayContaining([
        '口座の種類を選んでください',
        '口座番号は7桁の数字で入力してください',
        '口座名義はカタカナで入力してください',
      ]),
    )
    expect((await api.as(SUBS.parent, 'GET', '/v1/teachers/bank_account')).status).toBe(403)
    expect((await api.call('GET', '/v1/teachers/bank_account')).status).toBe(401)
    // Entered again, it reads as before.
    const again = ok(await api.as(SUBS.owner, 'PUT', '/v1/teachers/bank_account', account))
    expect(again).toMatchObject({ holder_masked: 'ス＊＊ ミ＊＊', needs_reentry: false })
  })

  it('a change of bank account is audited and mailed to the teacher (a stolen session cannot redirect payouts unnoticed)', async () => {
    const ownerId = await api.userId(SUBS.owner)
    await drainJobs()
    const account = {
      bank_name: 'あおば銀行',
      branch_name: '駅前',
      account_type: 'futsu',
      account_number: '7654321',
      holder_kana: 'スズキ ミサキ',
    }
    ok(
      await api.call('PUT', '/v1/teachers/bank_account', {
        token: await tokenFor(SUBS.owner),
        body: account,
        headers: { 'x-real-ip': '203.0.113.9' },
      }),
    )
    const entries = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'bank_account_change'), eq(auditLog.targetId, String(ownerId))))
      .orderBy(desc(auditLog.id))
    expect(entries[0]).toMatchObject({
      actorId: ownerId,
      address: '203.0.113.9',
      before: { bank_name: 'みらい銀行', number_last4: '4567' },
      after: { bank_name: 'あおば銀行', number_last4: '4321' },
    })
    expect(JSON.stringify(entries)).not.toContain('7654321')
    await drainJobs()
    const [mail] = await api.db
      .select()
      .from(mails)
      .where(eq(mails.subject, '振込先口座が登録・変更されました'))
      .orderBy(desc(mails.id))
      .limit(1)
    expect(mail!.text).toContain('口座番号：＊＊＊4321')
    // Refused input changes nothing and tells nobody.
    const count = entries.length
    expect(
      (await api.as(SUBS.owner, 'PUT', '/v1/teachers/bank_account', { ...account, account_number: '1' }))
        .status,
    ).toBe(400)
    expect(
      await api.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'bank_account_change'), eq(auditLog.targetId, String(ownerId)))),
    ).toHaveLength(count)
  })
})

describe('the Stripe adapter (a local stub of its API, webhooks signed by the SDK)', () => {
  let stub: StripeStub
  let stripeApp: ReturnType<typeof createApiApp>
  let provider: PaymentProvider
  const webhookSecret = 'whsec_testsecret123'
  const signer = new Stripe('sk_test_signer')

  beforeAll(async () => {
    stub = await startStripeStub()
    provider = stripePaymentProvider({
      secretKey: 'sk_test_123',
      webhookSecret,
      api: { host: '127.0.0.1', port: stub.port, protocol: 'http' },
    })
    stripeApp = createApiApp({
      getDb: async () => api.db,
      auth: testAuth,
      now: () => api.now,
      payment: provider,
      receiptIssuer: () => ({ name: 'まなびのたね', registrationNumber: 'T5555555555555' }),
    })
  })
  afterAll(async () => {
    await stub?.close()
  })

  const call = async (sub: string | null, method: string, path: string, body?: unknown, headers = {}) => {
    const h = new Headers(headers)
    if (sub) h.set('authorization', `Bearer ${await tokenFor(sub)}`)
    if (body !== undefined && typeof body !== 'string') h.set('content-type', 'application/json')
    const res = await stripeApp.fetch(
      new Request(`http://api.test${path}`, {
        method,
        headers: h,
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      }),
    )
    return { status: res.status, body: await res.json().catch(() => undefined) }
  }

  const event = (type: string, object: unknown, id = `evt_${Math.random().toString(36).slice(2)}`) =>
    JSON.stringify({ id, object: 'event', type, data: { object }, api_version: '2026-10-28.endive' })
  const sign = (payload: string) =>
    signer.webhooks.generateTestHeaderString({ payload, secret: webhookSecret })

  it('a PaymentIntent per held seat; Stripe.js pays; the signed webhook settles it once; a replay or a bad signature changes nothing', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'stripe-pay', 1)
    const held = await call(sub!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    expect(held.status, JSON.stringify(held.body)).toBe(201)
    const [pay] = await api.db.select().from(payments).where(eq(payments.id, held.body.payment.id))
    expect(pay).toMatchObject({ provider: 'stripe', amount: 3300 })
    const intent = stub.intents.get(pay!.providerRef!)!
    expect(intent).toMatchObject({ amount: 3300, currency: 'jpy' })
    expect(intent.metadata).toMatchObject({ payment_id: String(pay!.id), purchase_id: String(held.body.id) })
    expect(stub.requests.find((r) => r.path === '/v1/payment_intents')?.idempotencyKey).toBe(
      `payment-${pay!.id}`,
    )
    const checkout = Checkout.parse((await call(sub!, 'GET', `/v1/payments/${pay!.id}`)).body)
    expect(checkout.client_secret).toBe(intent.client_secret)

    // A refusal in the browser: confirm reads it and answers 402 in Japanese; the seat stays held.
    stub.pay(intent.id, { decline_code: 'insufficient_funds' })
    const refused = await call(sub!, 'POST', `/v1/payments/${pay!.id}/confirm`, {})
    expect([refused.status, refused.body.code]).toEqual([402, 'insufficient_funds'])

    // Stripe.js pays; the webhook arrives first.
    stub.pay(intent.id)
    const payload = event('payment_intent.succeeded', { ...intent, status: 'succeeded' })
    const bad = await call(null, 'POST', '/v1/webhooks/stripe', payload, {
      'stripe-signature': sign(payload).replace(/v1=[0-9a-f]+/, `v1=${'0'.repeat(64)}`),
    })
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_signature'])
    expect((await call(null, 'POST', '/v1/webhooks/stripe', payload, {})).status).toBe(400)
    expect((await api.db.select().from(purchases).where(eq(purchases.id, held.body.id)))[0]!.status).toBe(
      'pending',
    )
    expect(await api.db.select().from(webhookEvents)).toEqual([])

    const first = await call(null, 'POST', '/v1/webhooks/stripe', payload, {
      'stripe-signature': sign(payload),
    })
    expect(first.body).toEqual({ received: true, outcome: 'handled' })
    expect((await api.db.select().from(purchases).where(eq(purchases.id, held.body.id)))[0]!.status).toBe(
      'reserved',
    )
    // Settled by the webhook with the issuer its app has now (0057).
    const [settled] = await api.db.select().from(payments).where(eq(payments.id, pay!.id))
    expect([settled!.receiptIssuerName, settled!.receiptRegistrationNumber]).toEqual([
      'まなびのたね',
      'T5555555555555',
    ])
    const replay = await call(null, 'POST', '/v1/webhooks/stripe', payload, {
      'stripe-signature': sign(payload),
    })
    expect(replay.body).toEqual({ received: true, outcome: 'duplicate' })
    const receipts = await api.db
      .select()
      .from(jobs)
      .where(
        sql`${jobs.kind} = 'notify.payment_receipt' and ${jobs.payload}->>'paymentId' = ${String(pay!.id)}`,
      )
    expect(receipts).toHaveLength(1)
    // The browser's own confirm after the webhook: already paid, nothing more.
    expect((await call(sub!, 'POST', `/v1/payments/${pay!.id}/confirm`, {})).status).toBe(200)
    // Events it does not use are acknowledged.
    const other = event('customer.created', { id: 'cus_1', object: 'customer' })
    expect(
      (await call(null, 'POST', '/v1/webhooks/stripe', other, { 'stripe-signature': sign(other) })).body,
    ).toEqual({
      received: true,
      outcome: 'ignored',
    })

    // A cancellation refunds through Stripe once, keyed by our refund.
    ok(await call(sub!, 'POST', `/v1/purchases/${held.body.id}/cancel`))
    stub.failNext(3) // the provider is having trouble: the job fails and is tried again
    await drainJobs(provider).catch(() => {})
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, held.body.id))
    await runRefund(api.db, refund!.id, { now: api.now, provider })
    await runRefund(api.db, refund!.id, { now: api.now, provider })
    const made = stub.refunds.filter((r) => r.payment_intent === intent.id)
    expect(made).toHaveLength(1)
    expect(made[0]).toMatchObject({ amount: 3300, idempotencyKey: `refund-${refund!.id}` })
    const [done] = await api.db.select().from(refunds).where(eq(refunds.id, refund!.id))
    expect(done).toMatchObject({ status: 'succeeded', providerRef: made[0]!.id })
  })

  it('paid in the browser while our confirm failed and before the webhook: reloading the checkout shows it paid', async () => {
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'stripe-reload', 1)
    const held = await call(sub!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    expect(held.status, JSON.stringify(held.body)).toBe(201)
    const [pay] = await api.db.select().from(payments).where(eq(payments.id, held.body.payment.id))
    stub.pay(pay!.providerRef!) // Stripe.js took the card; no confirm call and no webhook reached us
    const checkout = Checkout.parse((await call(sub!, 'GET', `/v1/payments/${pay!.id}`)).body)
    expect(checkout.payment.status).toBe('succeeded')
    expect(checkout.purchase.status).toBe('reserved')
    // No hold any more, so the page offers neither a card form nor 支払いをやめる.
    expect([checkout.hold_expires_at, checkout.client_secret]).toEqual([null, null])
  })

  it('支払いをやめる after Stripe.js took the money (our confirm lost): refused as paid, the seat kept; while Stripe confirms: refused, kept', async () => {
    const { schedule } = await paidSchedule(2)
    const [a, b] = await insertMembers(api.db, 'stripe-giveup-paid', 2)
    const held = await call(a!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    expect(held.status, JSON.stringify(held.body)).toBe(201)
    const [pay] = await api.db.select().from(payments).where(eq(payments.id, held.body.payment.id))
    stub.pay(pay!.providerRef!) // no confirm call and no webhook reached us
    const gaveUp = await call(a!, 'POST', `/v1/purchases/${held.body.id}/cancel`)
    expect([gaveUp.status, gaveUp.body.code]).toEqual([409, 'already_paid'])
    const [booked] = await api.db.select().from(purchases).where(eq(purchases.id, held.body.id))
    expect(booked!.status).toBe('reserved')
    expect(await seatsOf(schedule.id)).toBe(1)
    expect(await api.db.select().from(refunds).where(eq(refunds.purchaseId, held.body.id))).toEqual([])

    // Stripe is still confirming the card (its bank has not answered): the seat stays held.
    const other = await call(b!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    expect(other.status, JSON.stringify(other.body)).toBe(201)
    const [pay2] = await api.db.select().from(payments).where(eq(payments.id, other.body.payment.id))
    stub.intents.get(pay2!.providerRef!)!.status = 'processing'
    const waiting = await call(b!, 'POST', `/v1/purchases/${other.body.id}/cancel`)
    expect([waiting.status, waiting.body.code]).toEqual([409, 'payment_processing'])
    const [still] = await api.db.select().from(purchases).where(eq(purchases.id, other.body.id))
    expect(still!.status).toBe('pending')
    expect(await seatsOf(schedule.id)).toBe(2)
    // Refused at Stripe after all: giving up works again.
    stub.intents.get(pay2!.providerRef!)!.status = 'requires_payment_method'
    expect((await call(b!, 'POST', `/v1/purchases/${other.body.id}/cancel`)).status).toBe(200)
    expect(await seatsOf(schedule.id)).toBe(1)
  })

  it('cards only; a payment Stripe still confirms when the hold ends keeps its seat until it settles (at most 30 minutes more)', async () => {
    const { schedule } = await paidSchedule(2)
    const [a, b] = await insertMembers(api.db, 'stripe-processing', 2)
    const held = await call(a!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    expect(held.status, JSON.stringify(held.body)).toBe(201)
    const [pay] = await api.db.select().from(payments).where(eq(payments.id, held.body.payment.id))
    const intent = stub.intents.get(pay!.providerRef!)!
    expect(intent.allowed_payment_method_types).toEqual(['card'])
    intent.status = 'processing'
    const at = (minutes: number) => ({
      now: new Date(api.now.getTime() + minutes * MINUTE),
      provider,
      issuer: TEST_RECEIPT_ISSUER,
    })
    // The hold's end: extended by a minute and asked again then, the seat kept; the checkout shows a live hold.
    expect(await expireHold(api.db, held.body.id, at(11))).toEqual(at(12).now)
    expect(await seatsOf(schedule.id)).toBe(1)
    const [extended] = await api.db.select().from(purchases).where(eq(purchases.id, held.body.id))
    expect(extended).toMatchObject({ status: 'pending', holdExpiresAt: at(12).now })
    stub.pay(intent.id)
    expect(await expireHold(api.db, held.body.id, at(12))).toBe('changed')
    const [booked] = await api.db.select().from(purchases).where(eq(purchases.id, held.body.id))
    expect(booked!.status).toBe('reserved')
    expect(await seatsOf(schedule.id)).toBe(1)

    // Never settling: the seat goes 30 minutes after the hold's end.
    const other = await call(b!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    const [pay2] = await api.db.select().from(payments).where(eq(payments.id, other.body.payment.id))
    stub.intents.get(pay2!.providerRef!)!.status = 'processing'
    expect(await expireHold(api.db, other.body.id, at(39.5))).toEqual(at(40).now)
    expect(await expireHold(api.db, other.body.id, at(40))).toBe('changed')
    const [given] = await api.db.select().from(purchases).where(eq(purchases.id, other.body.id))
    expect(given!.status).toBe('expired')
    expect(await seatsOf(schedule.id)).toBe(1)
  })

  it('paid in the hold’s last seconds, its answer lost: the checkout read after the hold ended shows the booking, not 請求はありません', async () => {
    const { schedule } = await paidSchedule(1)
    const [sub] = await insertMembers(api.db, 'stripe-last-second', 1)
    const held = await call(sub!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    expect(held.status, JSON.stringify(held.body)).toBe(201)
    const [pay] = await api.db.select().from(payments).where(eq(payments.id, held.body.payment.id))
    await expireHold(api.db, held.body.id, {
      now: new Date(api.now.getTime() + 11 * MINUTE),
      provider,
      issuer: TEST_RECEIPT_ISSUER,
    })
    stub.pay(pay!.providerRef!) // Stripe took it before the cancel job reached it
    const checkout = Checkout.parse((await call(sub!, 'GET', `/v1/payments/${pay!.id}`)).body)
    expect(checkout.payment.status).toBe('succeeded')
    expect(checkout.purchase.status).toBe('reserved')
    expect(checkout.client_secret).toBeNull()
    expect(await seatsOf(schedule.id)).toBe(1)
  })

  it('cards refused in the browser count toward the card-testing limit (by their webhooks): past it, no client secret', async () => {
    await api.db.delete(rateLimits) // what earlier tests counted
    const { schedule } = await paidSchedule()
    const [sub] = await insertMembers(api.db, 'stripe-tester', 1)
    const held = await call(sub!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    const [pay] = await api.db.select().from(payments).where(eq(payments.id, held.body.payment.id))
    const intent = stub.intents.get(pay!.providerRef!)!
    for (let i = 0; i < 5; i++) {
      const open = Checkout.parse((await call(sub!, 'GET', `/v1/payments/${pay!.id}`)).body)
      expect([open.client_secret, open.cards_paused]).toEqual([intent.client_secret, false])
      // Stripe.js tries a card at Stripe; it is refused; only the signed webhook tells us.
      stub.pay(intent.id, { decline_code: 'card_declined' })
      const payload = event('payment_intent.payment_failed', { ...intent, status: 'requires_payment_method' })
      const told = await call(null, 'POST', '/v1/webhooks/stripe', payload, {
        'stripe-signature': sign(payload),
      })
      expect(told.body).toEqual({ received: true, outcome: 'handled' })
      // The page (or an API client) reading the refusal through confirm does not count it a second time (at the
      // fifth, the limit is reached and confirm is refused).
      const read = await call(sub!, 'POST', `/v1/payments/${pay!.id}/confirm`, {})
      expect([read.status, read.body.code]).toEqual(i < 4 ? [402, 'card_declined'] : [429, 'rate_limited'])
    }
    const limited = Checkout.parse((await call(sub!, 'GET', `/v1/payments/${pay!.id}`)).body)
    expect([limited.client_secret, limited.cards_paused]).toEqual([null, true])
    // Another member is not affected.
    const [other] = await insertMembers(api.db, 'stripe-buyer', 1)
    const theirs = await call(other!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    const open = Checkout.parse((await call(other!, 'GET', `/v1/payments/${theirs.body.payment.id}`)).body)
    expect(open.cards_paused).toBe(false)
    expect(open.client_secret).not.toBeNull()
  })

  it('money Stripe.js took just as the hold ended is settled: by the late confirm, or by the sweep when that answer is lost', async () => {
    const { schedule } = await paidSchedule(2)
    const [a, b, c] = await insertMembers(api.db, 'stripe-late', 3)
    const holdOf = async (sub: string) => {
      const held = await call(sub, 'POST', '/v1/purchases', { schedule_id: schedule.id })
      expect(held.status, JSON.stringify(held.body)).toBe(201)
      const [pay] = await api.db.select().from(payments).where(eq(payments.id, held.body.payment.id))
      return { purchaseId: Number(held.body.id), paymentId: pay!.id, intent: pay!.providerRef! }
    }
    const statusOf = async (purchaseId: number) =>
      (await api.db.select().from(purchases).where(eq(purchases.id, purchaseId)))[0]!.status
    const ended = new Date(api.now.getTime() + 11 * MINUTE)
    const sweep = (at: Date) => reconcilePayments(api.db, { now: at, provider, issuer: TEST_RECEIPT_ISSUER })

    // a: the hold ends while the card check is open in the browser, and Stripe.js pays before our cancel reaches
    // Stripe. The browser's confirm settles it: the seat is still free, so a has it.
    const pa = await holdOf(a!)
    expect(
      await expireHold(api.db, pa.purchaseId, { now: ended, provider, issuer: TEST_RECEIPT_ISSUER }),
    ).toBe('changed')
    stub.pay(pa.intent)
    expect((await call(a!, 'POST', `/v1/payments/${pa.paymentId}/confirm`, {})).status).toBe(200)
    expect(await statusOf(pa.purchaseId)).toBe('reserved')

    // b: the same, but the browser's confirm never arrives and neither does the webhook: the sweep settles it.
    const pb = await holdOf(b!)
    await expireHold(api.db, pb.purchaseId, { now: ended, provider, issuer: TEST_RECEIPT_ISSUER })
    stub.pay(pb.intent)
    await sweep(new Date(ended.getTime() + 2 * MINUTE))
    expect(await statusOf(pb.purchaseId)).toBe('reserved')
    expect(await seatsOf(schedule.id)).toBe(2)

    // c: no seat is left when its money arrives late. a gives a seat up, c holds it and its hold ends, a takes the
    // seat again meanwhile: c's confirm says so, and c's payment is refunded in full.
    ok(await call(a!, 'POST', `/v1/purchases/${pa.purchaseId}/cancel`))
    const pc = await holdOf(c!)
    await expireHold(api.db, pc.purchaseId, { now: ended, provider, issuer: TEST_RECEIPT_ISSUER })
    await holdOf(a!)
    stub.pay(pc.intent)
    const refused = await call(c!, 'POST', `/v1/payments/${pc.paymentId}/confirm`, {})
    expect([refused.status, refused.body.code]).toEqual([409, 'refunded_no_seat'])
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, pc.purchaseId))
    expect(refund).toMatchObject({ amount: 3300, reason: 'no_seat' })
    expect(await seatsOf(schedule.id)).toBe(2)
  })

  it('a payment given up here but still payable at Stripe is cancelled by the sweep, then left alone', async () => {
    const { schedule } = await paidSchedule(1)
    const [a] = await insertMembers(api.db, 'stripe-giveup', 1)
    const held = await call(a!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    expect(held.status, JSON.stringify(held.body)).toBe(201)
    const paymentId = Number(held.body.payment.id)
    const ended = new Date(api.now.getTime() + 11 * MINUTE)
    await expireHold(api.db, Number(held.body.id), { now: ended, provider, issuer: TEST_RECEIPT_ISSUER })
    const [given] = await api.db.select().from(payments).where(eq(payments.id, paymentId))
    expect(given).toMatchObject({ status: 'canceled', lastAttemptAt: ended })
    // Its cancel job has not reached Stripe: the sweep a minute later cancels it there.
    expect(stub.intents.get(given!.providerRef!)!.status).toBe('requires_payment_method')
    await reconcilePayments(api.db, {
      now: new Date(ended.getTime() + 2 * MINUTE),
      provider,
      issuer: TEST_RECEIPT_ISSUER,
    })
    expect(stub.intents.get(given!.providerRef!)!.status).toBe('canceled')
    // The next sweep sees it cancelled at Stripe too: out of the sweep for good.
    await reconcilePayments(api.db, {
      now: new Date(ended.getTime() + 4 * MINUTE),
      provider,
      issuer: TEST_RECEIPT_ISSUER,
    })
    const [out] = await api.db.select().from(payments).where(eq(payments.id, paymentId))
    expect(out).toMatchObject({ status: 'canceled', lastAttemptAt: null })
  })

  it('when Stripe cannot be reached, the seat is not kept: 503 in Japanese and the hold ends at once', async () => {
    const { schedule } = await paidSchedule(1)
    const [sub] = await insertMembers(api.db, 'stripe-down', 1)
    stub.failNext(10)
    const res = await call(sub!, 'POST', '/v1/purchases', { schedule_id: schedule.id })
    stub.failNext(0)
    expect([res.status, res.body.code]).toEqual([503, 'payment_unavailable'])
    expect(await seatsOf(schedule.id)).toBe(0)
  })

  it('the embedded provider has no webhook endpoint', async () => {
    expect((await api.call('POST', '/v1/webhooks/stripe', { rawBody: '{}' })).status).toBe(404)
  })
})
