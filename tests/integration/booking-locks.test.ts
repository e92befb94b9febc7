/**
 * A booking (and a waitlist entry) takes its locks in the order of docs/decisions/0015: the member's row, the
 * child's profile, then the class; and reads price and publication under the class lock. Each case below holds
 * one of those rows in an open transaction, as the concurrent write would (a suspension, a profile deletion, a
 * price change), starts the booking, and commits: the booking must see the committed change. Meaningful on
 * PostgreSQL (TEST_DATABASE_URL); on PGlite, with one connection, the booking simply runs after the commit.
 */
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expireHold, settlePayment } from '../../app/api/services/payments'
import { TeacherClassWork, TeacherSchedule } from '../../app/contract/v1/class-management'
import type { Tx } from '../../app/db/client'
import {
  classWorkSchedules,
  classWorks,
  embeddedPayments,
  learners,
  payments,
  purchases,
  refunds,
  users,
  waitlistEntries,
} from '../../app/db/schema'
import { embeddedPaymentProvider } from '../../app/payments/embedded.server'
import { setupApi, TEST_RECEIPT_ISSUER, type TestApi } from './support/api'
import { loadMasters, type Masters, postClass, postSchedule } from './support/classes'
import { whileHeld, whileSuspending } from './support/locks'
import { insertMembers, insertTeacher } from './support/people'

const DAY = 24 * 3_600_000
let api: TestApi
let masters: Masters

beforeAll(async () => {
  api = await setupApi()
  masters = await loadMasters(api)
})
afterAll(async () => {
  await api?.close()
})

async function schedule(price = 0, capacity = 5) {
  // A teacher of its own: a teacher gives one lesson at a time (docs/decisions/0056).
  const teacher = await insertTeacher(api.db, 'lock-teacher')
  const cls = TeacherClassWork.parse(
    (await postClass(api, masters, teacher, { price, capacity, is_published: true })).body,
  )
  const start = new Date(api.now.getTime() + 3 * DAY)
  const s = TeacherSchedule.parse((await postSchedule(api, teacher, cls.id, start)).body)
  return { classId: cls.id, scheduleId: s.id }
}

/** Holds the class row as a booking, a price change or a settlement does (docs/decisions/0015). */
async function lockClass(tx: Tx, classId: number) {
  await tx
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(eq(classWorks.id, classId))
    .for('no key update')
}

describe('a booking sees what committed while it waited', () => {
  it('a suspension: the booking is refused (403) and no seat is held for the suspended member', async () => {
    const { scheduleId } = await schedule()
    const [member] = await insertMembers(api.db, 'lock-suspend', 1)
    const res = await whileHeld(
      api,
      async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.sub, member!)).for('update')
        await tx.update(users).set({ suspendedAt: api.now }).where(eq(users.sub, member!))
      },
      () => api.book(member!, { schedule_id: scheduleId }),
    )
    expect([res.status, res.body.code]).toEqual([403, 'account_suspended'])
    const [{ purchasedCount }] = (await api.db
      .select({ purchasedCount: classWorkSchedules.purchasedCount })
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.id, scheduleId))) as [{ purchasedCount: number }]
    expect(purchasedCount).toBe(0)
  })

  it('a suspension: joining a waitlist is refused too', async () => {
    const { scheduleId } = await schedule(0, 1)
    const [first, member] = await insertMembers(api.db, 'lock-suspend-wait', 2)
    expect((await api.book(first!, { schedule_id: scheduleId })).status).toBe(201)
    const res = await whileHeld(
      api,
      async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.sub, member!)).for('update')
        await tx.update(users).set({ suspendedAt: api.now }).where(eq(users.sub, member!))
      },
      () => api.as(member!, 'POST', `/v1/class_work_schedules/${scheduleId}/waitlist`, {}),
    )
    expect(res.status).toBe(403)
    const entries = await api.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.scheduleId, scheduleId))
    expect(entries).toEqual([])
  })

  // removeLearner deletes a profile no reservation names, and marks one that reservations name (0041).
  for (const [how, remove] of [
    ['deleted', (tx: Tx, id: number) => tx.delete(learners).where(eq(learners.id, id))],
    [
      'marked removed',
      (tx: Tx, id: number) => tx.update(learners).set({ deletedAt: api.now }).where(eq(learners.id, id)),
    ],
  ] as const)
    it(`the child's profile ${how}: the booking waiting for it is 404, never a seat moved to the parent`, async () => {
      const { scheduleId } = await schedule()
      const [parent] = await insertMembers(api.db, `lock-learner-${how.replace(' ', '-')}`, 1)
      const child = await api.as(parent!, 'POST', '/v1/users/me/learners', {
        nickname: 'たろう',
        school_type_id: masters.schoolType,
        target_grade_id: masters.grades[0],
      })
      expect(child.status, JSON.stringify(child.body)).toBe(201)
      const res = await whileHeld(
        api,
        async (tx) => {
          await tx
            .select({ id: learners.id })
            .from(learners)
            .where(eq(learners.id, child.body.id))
            .for('update')
          await remove(tx, child.body.id)
        },
        () => api.book(parent!, { schedule_id: scheduleId, learner_id: child.body.id }),
      )
      expect(res.status).toBe(404)
      expect(await api.db.select().from(purchases).where(eq(purchases.scheduleId, scheduleId))).toEqual([])
    })

  it('a price change: the booking is taken at the new price (held for payment), not the one it read first', async () => {
    const { classId, scheduleId } = await schedule(0)
    const [member] = await insertMembers(api.db, 'lock-price', 1)
    const res = await whileHeld(
      api,
      async (tx) => {
        await lockClass(tx, classId)
        await tx.update(classWorks).set({ price: 3000 }).where(eq(classWorks.id, classId))
      },
      () => api.as(member!, 'POST', '/v1/purchases', { schedule_id: scheduleId }),
    )
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const [p] = await api.db
      .select({ price: purchases.price, status: purchases.status })
      .from(purchases)
      .where(and(eq(purchases.scheduleId, scheduleId)))
    expect(p).toEqual({ price: 3000, status: 'pending' })
  })

  it('a live waitlist place keeps the child’s profile (409 has_waitlist)', async () => {
    const { scheduleId } = await schedule(0, 1)
    const [first, parent] = await insertMembers(api.db, 'lock-learner-wait', 2)
    expect((await api.book(first!, { schedule_id: scheduleId })).status).toBe(201)
    const child = await api.as(parent!, 'POST', '/v1/users/me/learners', {
      nickname: 'じろう',
      school_type_id: masters.schoolType,
      target_grade_id: masters.grades[0],
    })
    const joined = await api.as(parent!, 'POST', `/v1/class_work_schedules/${scheduleId}/waitlist`, {
      learner_id: child.body.id,
    })
    expect(joined.status, JSON.stringify(joined.body)).toBe(201)
    const removed = await api.as(parent!, 'DELETE', `/v1/users/me/learners/${child.body.id}`)
    expect([removed.status, removed.body.code]).toEqual([409, 'has_waitlist'])
    // Once the lesson has started, the place in its line is over: the profile can go.
    await api.db
      .update(classWorkSchedules)
      .set({
        startedAt: new Date(api.now.getTime() - 2 * 3_600_000),
        endedAt: new Date(api.now.getTime() - 3_600_000),
      })
      .where(eq(classWorkSchedules.id, scheduleId))
    expect((await api.as(parent!, 'DELETE', `/v1/users/me/learners/${child.body.id}`)).status).toBe(204)
  })
})

describe('late money while its buyer is being suspended', () => {
  // On PGlite the settlement simply runs after the suspension (one connection): meaningful on PostgreSQL only.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'waits for the suspension and then refunds it in full: no seat booked for the suspended account',
    async () => {
      const { scheduleId } = await schedule(1500)
      const [member] = await insertMembers(api.db, 'lock-late-money', 1)
      const held = await api.as(member!, 'POST', '/v1/purchases', { schedule_id: scheduleId })
      expect([held.status, held.body.status]).toEqual([201, 'pending'])
      const provider = embeddedPaymentProvider(async () => api.db)
      const later = new Date(api.now.getTime() + 11 * 60_000)
      await expireHold(api.db, held.body.id, { now: later, provider, issuer: TEST_RECEIPT_ISSUER })
      const [pay] = await api.db.select().from(payments).where(eq(payments.purchaseId, held.body.id))
      // The card was charged just as the hold ended: the money arrives now.
      await api.db
        .update(embeddedPayments)
        .set({ status: 'succeeded' })
        .where(eq(embeddedPayments.ref, pay!.providerRef!))
      const [{ id: memberId }] = (await api.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.sub, member!))) as [{ id: number }]
      const settled = await whileSuspending(api, memberId, () =>
        settlePayment(api.db, pay!.id, { now: later, issuer: TEST_RECEIPT_ISSUER }),
      )
      expect(settled).toBe('refunded')
      const [row] = await api.db.select().from(purchases).where(eq(purchases.id, held.body.id))
      expect(row?.status).not.toBe('reserved')
      const [s] = await api.db
        .select({ purchased: classWorkSchedules.purchasedCount })
        .from(classWorkSchedules)
        .where(eq(classWorkSchedules.id, scheduleId))
      expect(s?.purchased).toBe(0)
      const [refund] = await api.db.select().from(refunds).where(eq(refunds.purchaseId, held.body.id))
      expect(refund).toMatchObject({ amount: 1500, reason: 'no_seat' })
    },
  )
})

describe('giving a payment up while it settles', () => {
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'the money that arrived first wins: 409 already_paid, the seat stays booked (never 「とりやめました」 with the charge kept)',
    async () => {
      const { classId, scheduleId } = await schedule(1500)
      const [member] = await insertMembers(api.db, 'lock-give-up', 1)
      const held = await api.as(member!, 'POST', '/v1/purchases', { schedule_id: scheduleId })
      expect([held.status, held.body.status]).toEqual([201, 'pending'])
      // The settlement holds the class (as settlePayment does) and marks the seat paid; the give-up read 'pending'.
      const res = await whileHeld(
        api,
        async (tx) => {
          await lockClass(tx, classId)
          await tx
            .update(purchases)
            .set({ status: 'reserved', holdExpiresAt: null })
            .where(eq(purchases.id, held.body.id))
        },
        () => api.as(member!, 'POST', `/v1/purchases/${held.body.id}/cancel`),
      )
      expect([res.status, res.body.code]).toEqual([409, 'already_paid'])
      expect(res.body.message).toContain('お支払いが完了したため')
      const [row] = await api.db.select().from(purchases).where(eq(purchases.id, held.body.id))
      expect(row?.status).toBe('reserved')
    },
  )
})
