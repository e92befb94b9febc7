/**
 * A child's profile (お子さまのプロフィール) under concurrent writes: the limit of ten holds when several are added at
 * once, an edit racing the profile's deletion is a 404 (never a 500), and a hold that ended unpaid keeps the
 * profile while its money may still arrive. The races are meaningful on PostgreSQL (TEST_DATABASE_URL); on PGlite,
 * with one connection, the requests simply run one after another and the same answers must hold.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expireHold, reconcilePayments, settlePayment } from '../../app/api/services/payments'
import { TeacherClassWork, TeacherSchedule } from '../../app/contract/v1/class-management'
import { Purchase } from '../../app/contract/v1/purchases'
import { MAX_LEARNERS } from '../../app/contract/v1/users'
import {
  classWorkSchedules,
  embeddedPayments,
  learners,
  payments,
  purchases,
  users,
} from '../../app/db/schema'
import { embeddedPaymentProvider } from '../../app/payments/embedded.server'
import { type CallResult, setupApi, TEST_RECEIPT_ISSUER, type TestApi } from './support/api'
import { loadMasters, type Masters, postClass, postSchedule } from './support/classes'
import { whileHeld } from './support/locks'
import { insertMembers, insertTeacher } from './support/people'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
let api: TestApi
let masters: Masters

beforeAll(async () => {
  api = await setupApi()
  masters = await loadMasters(api)
})
afterAll(async () => {
  await api?.close()
})

const child = (nickname: string) => ({
  nickname,
  school_type_id: masters.schoolType,
  target_grade_id: masters.grades[0],
})

const addChild = (sub: string, nickname: string) =>
  api.as(sub, 'POST', '/v1/users/me/learners', child(nickname))

async function newChild(sub: string, nickname: string): Promise<number> {
  const res = await addChild(sub, nickname)
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body.id
}

const childrenOf = async (sub: string) =>
  (
    await api.db
      .select({ id: learners.id })
      .from(learners)
      .innerJoin(users, eq(users.id, learners.userId))
      .where(eq(users.sub, sub))
  ).length

describe('adding children at the same moment', () => {
  it(`with ${MAX_LEARNERS - 1} children, five additions at once: exactly one is added, the rest 409 too_many_learners`, async () => {
    for (let round = 0; round < 3; round++) {
      const [parent] = await insertMembers(api.db, `learners-race-${round}`, 1)
      const parentId = await api.userId(parent!)
      await api.db.insert(learners).values(
        Array.from({ length: MAX_LEARNERS - 1 }, (_, i) => ({
          userId: parentId,
          nickname: `こども${i}`,
          schoolTypeId: masters.schoolType,
          targetGradeId: masters.grades[0]!,
        })),
      )
      const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => addChild(parent!, `あらた${i}`)))
      const codes = answers.map((r: CallResult) => (r.status === 201 ? 201 : `${r.status} ${r.body.code}`))
      expect(
        codes.filter((c) => c === 201),
        JSON.stringify(codes),
      ).toHaveLength(1)
      expect(
        codes.filter((c) => c === '409 too_many_learners'),
        JSON.stringify(codes),
      ).toHaveLength(4)
      expect(await childrenOf(parent!)).toBe(MAX_LEARNERS)
    }
  })

  it('a member suspended while adding a child adds nobody (403 account_suspended)', async () => {
    const [parent] = await insertMembers(api.db, 'learners-suspend', 1)
    const res = await whileHeld(
      api,
      async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.sub, parent!)).for('update')
        await tx.update(users).set({ suspendedAt: api.now }).where(eq(users.sub, parent!))
      },
      () => addChild(parent!, 'まにあわない'),
    )
    expect([res.status, res.body.code]).toEqual([403, 'account_suspended'])
    expect(await childrenOf(parent!)).toBe(0)
  })
})

describe('editing a child’s profile while it is deleted', () => {
  it('a profile that no longer exists is 404 to PATCH', async () => {
    const [parent] = await insertMembers(api.db, 'learners-gone', 1)
    const id = await newChild(parent!, 'きえる')
    expect((await api.as(parent!, 'DELETE', `/v1/users/me/learners/${id}`)).status).toBe(204)
    const res = await api.as(parent!, 'PATCH', `/v1/users/me/learners/${id}`, { nickname: 'のこる' })
    expect([res.status, res.body.code]).toEqual([404, 'not_found'])
  })

  it('a PATCH that waits for a deletion is 404, not 500, and brings nothing back', async () => {
    const [parent] = await insertMembers(api.db, 'learners-patch-held', 1)
    const id = await newChild(parent!, 'まつ')
    const res = await whileHeld(
      api,
      async (tx) => {
        await tx.select({ id: learners.id }).from(learners).where(eq(learners.id, id)).for('update')
        await tx.delete(learners).where(eq(learners.id, id))
      },
      () => api.as(parent!, 'PATCH', `/v1/users/me/learners/${id}`, { nickname: 'もどる' }),
    )
    expect([res.status, res.body.code]).toEqual([404, 'not_found'])
    expect(await api.db.select().from(learners).where(eq(learners.id, id))).toEqual([])
  })

  it('PATCH and DELETE sent together: each is 200/204 or 404, never 500', async () => {
    const [parent] = await insertMembers(api.db, 'learners-patch-race', 1)
    for (let round = 0; round < 10; round++) {
      const id = await newChild(parent!, `いそぐ${round}`)
      const [patched, removed] = await Promise.all([
        api.as(parent!, 'PATCH', `/v1/users/me/learners/${id}`, { nickname: `かわる${round}` }),
        api.as(parent!, 'DELETE', `/v1/users/me/learners/${id}`),
      ])
      expect(removed.status, JSON.stringify(removed.body)).toBe(204)
      expect([200, 404], JSON.stringify(patched.body)).toContain(patched.status)
      expect(await api.db.select().from(learners).where(eq(learners.id, id))).toEqual([])
    }
  })
})

describe('a hold that ended unpaid', () => {
  const provider = embeddedPaymentProvider(async () => api.db)
  const ended = () => new Date(api.now.getTime() + 11 * MINUTE)

  /** A published ¥3,300 class of a new teacher (one lesson at a time, 0056) with one schedule three days ahead. */
  async function paidSchedule() {
    const teacher = await insertTeacher(api.db, 'learner-lock-teacher')
    const cls = TeacherClassWork.parse(
      (await postClass(api, masters, teacher, { price: 3300, is_published: true })).body,
    )
    const s = TeacherSchedule.parse(
      (await postSchedule(api, teacher, cls.id, new Date(api.now.getTime() + 3 * DAY))).body,
    )
    return s.id
  }

  /** A seat held for the child, then given back unpaid: the purchase `expired`, its payment given up. */
  async function expiredHold(parent: string, scheduleId: number, learnerId: number) {
    const held = await api.as(parent, 'POST', '/v1/purchases', {
      schedule_id: scheduleId,
      learner_id: learnerId,
    })
    expect(held.status, JSON.stringify(held.body)).toBe(201)
    const p = Purchase.parse(held.body)
    expect(await expireHold(api.db, p.id, { now: ended(), provider, issuer: TEST_RECEIPT_ISSUER })).toBe(
      'changed',
    )
    const [pay] = await api.db.select().from(payments).where(eq(payments.id, p.payment!.id))
    expect(pay).toMatchObject({ status: 'canceled', lastAttemptAt: ended() })
    expect(pay!.providerRef).not.toBeNull()
    return { purchaseId: p.id, paymentId: pay!.id, ref: pay!.providerRef! }
  }

  it('keeps the child’s profile (409) while its money may still arrive; the late money then seats that child', async () => {
    const scheduleId = await paidSchedule()
    const [parent] = await insertMembers(api.db, 'learners-late-money', 1)
    const id = await newChild(parent!, 'おそい')
    const hold = await expiredHold(parent!, scheduleId, id)
    const refused = await api.as(parent!, 'DELETE', `/v1/users/me/learners/${id}`)
    expect([refused.status, refused.body.code]).toEqual([409, 'has_reservations'])
    expect(refused.body.message).toContain('お支払いの確認')
    // The provider took the money after all (the member's card check finished late).
    await api.db
      .update(embeddedPayments)
      .set({ status: 'succeeded' })
      .where(eq(embeddedPayments.ref, hold.ref))
    expect(await settlePayment(api.db, hold.paymentId, { now: api.now, issuer: TEST_RECEIPT_ISSUER })).toBe(
      'reserved',
    )
    const [seat] = await api.db
      .select({ status: purchases.status, learnerId: purchases.learnerId })
      .from(purchases)
      .where(eq(purchases.id, hold.purchaseId))
    expect(seat).toEqual({ status: 'reserved', learnerId: id })
  })

  it('the late money settling while the parent removes the child: the profile stays (409), the seat names it (PostgreSQL)', async () => {
    const scheduleId = await paidSchedule()
    for (let round = 0; round < 5; round++) {
      const [parent] = await insertMembers(api.db, `learners-settle-race-${round}`, 1)
      const id = await newChild(parent!, 'まにあう')
      const hold = await expiredHold(parent!, scheduleId, id)
      await api.db
        .update(embeddedPayments)
        .set({ status: 'succeeded' })
        .where(eq(embeddedPayments.ref, hold.ref))
      const [settled, removed] = await Promise.all([
        settlePayment(api.db, hold.paymentId, { now: api.now, issuer: TEST_RECEIPT_ISSUER }),
        api.as(parent!, 'DELETE', `/v1/users/me/learners/${id}`),
      ])
      expect(settled, `round ${round}`).toBe('reserved')
      expect([removed.status, removed.body.code], `round ${round}`).toEqual([409, 'has_reservations'])
      const [child] = await api.db
        .select({ deletedAt: learners.deletedAt })
        .from(learners)
        .where(eq(learners.id, id))
      expect(child, `round ${round}`).toEqual({ deletedAt: null })
    }
  })

  it('lets the profile go once the payment is cancelled at the provider, or once the lesson has started', async () => {
    const [parent] = await insertMembers(api.db, 'learners-late-over', 1)
    // Cancelled at the provider: the sweep cancels it there, then sees it cancelled and stops watching it.
    const first = await paidSchedule()
    const a = await newChild(parent!, 'とりけし')
    const holdA = await expiredHold(parent!, first, a)
    expect((await api.as(parent!, 'DELETE', `/v1/users/me/learners/${a}`)).status).toBe(409)
    await reconcilePayments(api.db, {
      now: new Date(ended().getTime() + 2 * MINUTE),
      provider,
      issuer: TEST_RECEIPT_ISSUER,
    })
    await reconcilePayments(api.db, {
      now: new Date(ended().getTime() + 4 * MINUTE),
      provider,
      issuer: TEST_RECEIPT_ISSUER,
    })
    const [out] = await api.db.select().from(payments).where(eq(payments.id, holdA.paymentId))
    expect(out).toMatchObject({ status: 'canceled', lastAttemptAt: null })
    expect((await api.as(parent!, 'DELETE', `/v1/users/me/learners/${a}`)).status).toBe(204)

    // Started: money arriving now would be refunded (settlePayment takes no seat of a started lesson).
    const second = await paidSchedule()
    const b = await newChild(parent!, 'はじまった')
    await expiredHold(parent!, second, b)
    expect((await api.as(parent!, 'DELETE', `/v1/users/me/learners/${b}`)).status).toBe(409)
    await api.db
      .update(classWorkSchedules)
      .set({
        startedAt: new Date(api.now.getTime() - 2 * 3_600_000),
        endedAt: new Date(api.now.getTime() - 3_600_000),
      })
      .where(eq(classWorkSchedules.id, second))
    expect((await api.as(parent!, 'DELETE', `/v1/users/me/learners/${b}`)).status).toBe(204)
    const orphaned = await api.db
      .select({ id: purchases.id })
      .from(purchases)
      .where(and(eq(purchases.scheduleId, second), eq(purchases.status, 'reserved')))
    expect(orphaned).toEqual([])
  })
})
