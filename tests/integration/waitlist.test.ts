/**
 * キャンセル待ち (issue 16): a member waits for a seat of a full schedule; when a seat frees (a cancellation, a
 * larger capacity, an offer that expired or was left) the first in line is offered it for 12 hours (or until the
 * lesson starts): the seat is held (held_count), nobody else can take it, the member is mailed and books it with
 * POST /v1/purchases. A teacher cancelling the schedule ends its waitlist. Last, on PostgreSQL only, a crowd
 * cancelling, booking and answering offers at once. The API's clock is this file's own, so offers can expire.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiApp } from '../../app/api/app'
import type { ApiApp } from '../../app/api/openapi'
import { expireHold, settlePayment } from '../../app/api/services/payments'
import { expireOffers, OFFER_MS } from '../../app/api/services/waitlist'
import { TeacherSchedule } from '../../app/contract/v1/class-management'
import { ClassWorkDetail } from '../../app/contract/v1/class-works'
import { WaitlistEntryList, WaitlistReceipt } from '../../app/contract/v1/waitlist'
import {
  classWorkSchedules,
  jobs,
  learners,
  mails,
  payments,
  purchases,
  schoolTypes,
  users,
  waitlistEntries,
} from '../../app/db/schema'
import { retriedConflicts } from '../../app/db/transaction'
import { type JobHandler, startJobRunner } from '../../app/jobs/runner.server'
import { formatRunJa } from '../../app/lib/format'
import { setNotificationPreference } from '../../app/notifications/preferences.server'
import { embeddedPaymentProvider } from '../../app/payments/embedded.server'
import { type CallResult, setupApi, TEST_RECEIPT_ISSUER, type TestApi } from './support/api'
import { TEST_ISSUER } from './support/constants'
import { appJobHandlers } from './support/jobs'
import { testMailSettings } from './support/mail'
import { testAuth, tokenFor } from './support/tokens'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

let api: TestApi
/** The /v1 app on this file's database, its clock read from `clock` (set by every call). */
let app: ApiApp
let clock: Date
let masters: { category: number; style: number; grades: number[]; schoolType: number }

beforeAll(async () => {
  api = await setupApi()
  clock = api.now
  app = createApiApp({ getDb: async () => api.db, auth: testAuth, now: () => clock })
  const [cats, styles, grades] = await Promise.all(
    ['categories', 'class_styles', 'target_grades'].map(
      async (k) => (await call(null, 'GET', `/v1/master/${k}`)).body,
    ),
  )
  const [schoolType] = await api.db.select({ id: schoolTypes.id }).from(schoolTypes).limit(1)
  masters = { category: cats[0].id, style: styles[0].id, grades: [grades[0].id], schoolType: schoolType!.id }
})
afterAll(async () => {
  await api?.close()
})

const at = (ms: number) => new Date(api.now.getTime() + ms)

type Who = Person | { token: string } | null

/** A call as `who` (a person, a ready token, or null for a visitor), with the API's clock at `when`. */
async function call(
  who: Who | string,
  method: string,
  path: string,
  body?: unknown,
  when: Date = api.now,
): Promise<CallResult> {
  const h = new Headers()
  if (who) {
    const token =
      typeof who === 'string' ? await tokenFor(who) : 'token' in who ? who.token : await tokenFor(who.sub)
    h.set('authorization', `Bearer ${token}`)
  }
  if (body !== undefined) h.set('content-type', 'application/json')
  clock = when
  const res = await app.fetch(
    new Request(`http://api.test${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    }),
  )
  const text = await res.text()
  let json: unknown
  try {
    json = text ? JSON.parse(text) : undefined
  } catch {
    json = text
  }
  return { status: res.status, headers: res.headers, body: json }
}

const expectOk = (res: CallResult, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  return res.body
}
const expectError = (res: CallResult, status: number, code: string) =>
  expect([res.status, res.body?.code], JSON.stringify(res.body)).toEqual([status, code])

interface Person {
  id: number
  sub: string
  email: string
  nickname: string
}
let people = 0
/** A registered member of this file (a verified teacher, when asked). */
async function newPerson(o: { teacher?: boolean; prefix?: string } = {}): Promise<Person> {
  const n = ++people
  const prefix = o.prefix ?? 'waitlist'
  const sub = `${prefix}|person-${n}`
  const email = `${prefix}${n}@manabi.example`
  const nickname = `${o.teacher ? '待ち先生' : '待ち会員'}${n}`
  const [row] = await api.db
    .insert(users)
    .values({
      issuer: TEST_ISSUER,
      sub,
      email,
      emailVerified: true,
      nickname,
      name: `本名 ${n}`,
      nameKana: 'ホンミョウ',
      role: o.teacher ? 'teacher' : 'parent',
      isTeacher: o.teacher ?? false,
      teacherVerifiedAt: o.teacher ? new Date(api.now.getTime() - DAY) : null,
      agreedToTermsAt: new Date(api.now.getTime() - 10 * DAY),
    })
    .returning({ id: users.id })
  return { id: row!.id, sub, email, nickname }
}

const newPeople = (n: number, prefix?: string) =>
  Promise.all(Array.from({ length: n }, () => newPerson({ prefix })))

async function addLearner(parent: Person, nickname: string) {
  const [row] = await api.db
    .insert(learners)
    .values({
      userId: parent.id,
      nickname,
      schoolTypeId: masters.schoolType,
      targetGradeId: masters.grades[0]!,
    })
    .returning({ id: learners.id })
  return row!.id
}

/** A published class of `teacher` (free unless a price is given). */
async function createClass(teacher: Person, o: { price?: number; published?: boolean } = {}) {
  const res = await call(teacher, 'POST', '/v1/teachers/class_works', {
    title: `キャンセル待ち教室 ${Math.random().toString(36).slice(2, 8)}`,
    description: '説明です。',
    category_id: masters.category,
    class_style_id: masters.style,
    target_grade_ids: masters.grades,
    price: o.price ?? 0,
    capacity: 30,
    duration_minutes: 60,
    is_published: o.published ?? true,
  })
  return expectOk(res, 201) as { id: number; title: string }
}

async function addSchedule(teacher: Person, classId: number, capacity: number, startsIn = 5 * DAY) {
  const start = at(startsIn)
  const res = await call(teacher, 'POST', `/v1/teachers/class_works/${classId}/schedules`, {
    started_at: start.toISOString(),
    ended_at: new Date(start.getTime() + HOUR).toISOString(),
    capacity,
  })
  return { id: expectOk(res, 201).id as number, start }
}

const reserve = async (who: Person, scheduleId: number, when?: Date) =>
  expectOk(await call(who, 'POST', '/v1/purchases', { schedule_id: scheduleId }, when), 201).id as number

const join = (who: Who, scheduleId: number, body: unknown = {}, when?: Date) =>
  call(who, 'POST', `/v1/class_work_schedules/${scheduleId}/waitlist`, body, when)

const joined = async (who: Person, scheduleId: number, when?: Date) =>
  WaitlistReceipt.parse(expectOk(await join(who, scheduleId, {}, when), 201))

const myList = async (who: Person, when?: Date) =>
  WaitlistEntryList.parse(expectOk(await call(who, 'GET', '/v1/waitlist', undefined, when)))

interface Full {
  teacher: Person
  classId: number
  title: string
  scheduleId: number
  start: Date
  /** The members holding the seats, with their reservations. */
  seats: { member: Person; purchaseId: number }[]
}

/** A published class with one schedule (in 5 days unless told) whose `capacity` seats new members reserved. */
async function fullSchedule(capacity: number, o: { startsIn?: number; price?: number } = {}): Promise<Full> {
  const teacher = await newPerson({ teacher: true })
  const cls = await createClass(teacher, { price: o.price })
  const { id, start } = await addSchedule(teacher, cls.id, capacity, o.startsIn)
  const seats: Full['seats'] = []
  for (let i = 0; i < capacity; i++) {
    const member = await newPerson()
    seats.push({ member, purchaseId: await reserve(member, id) })
  }
  return { teacher, classId: cls.id, title: cls.title, scheduleId: id, start, seats }
}

/** The schedule's counters as stored, with its live reservations and 'offered' entries counted. */
async function seats(scheduleId: number) {
  const [s] = await api.db
    .select({
      capacity: classWorkSchedules.capacity,
      purchased: classWorkSchedules.purchasedCount,
      held: classWorkSchedules.heldCount,
      live: sql<number>`(select count(*)::int from purchases p where p.schedule_id = class_work_schedules.id and p.status in ('reserved', 'pending'))`,
      offered: sql<number>`(select count(*)::int from waitlist_entries w where w.schedule_id = class_work_schedules.id and w.status = 'offered')`,
    })
    .from(classWorkSchedules)
    .where(eq(classWorkSchedules.id, scheduleId))
  return { ...s!, live: Number(s!.live), offered: Number(s!.offered) }
}

/** Each entry's status and offer expiry, by member. */
async function entryOf(entryId: number) {
  const [e] = await api.db.select().from(waitlistEntries).where(eq(waitlistEntries.id, entryId))
  return e!
}

/**
 * expireOffers sweeps the whole database: ends the offers earlier tests left open (at a moment after every
 * lesson, so nothing is offered again), so that the counts a test then reads are its own.
 */
const settleEarlierOffers = () => expireOffers(api.db, at(365 * DAY))

const cancelReservation = (who: Person, purchaseId: number, when?: Date) =>
  call(who, 'POST', `/v1/purchases/${purchaseId}/cancel`, undefined, when)

const offerJobs = async (entryIds: number[]) =>
  (await api.db.select().from(jobs).where(eq(jobs.kind, 'notify.waitlist_offer')))
    .map((j) => Number((j.payload as { entryId: number }).entryId))
    .filter((id) => entryIds.includes(id))
    .sort((a, b) => a - b)

/** Runs every due job (the offer notices and what they queue). */
async function runJobs() {
  const runner = startJobRunner({
    db: api.db,
    autoStart: false,
    handlers: appJobHandlers({ mail: testMailSettings(), publish: async () => {} }),
  })
  await runner.drain()
  const failed = await api.db.select().from(jobs).where(eq(jobs.failed, true))
  expect(failed.map((j) => [j.kind, j.lastError])).toEqual([])
}

const mailsTo = (who: Person) => api.db.select().from(mails).where(eq(mails.toAddress, who.email))

// ── joining ───────────────────────────────────────────────────────────────────────────────────

describe('joining the waitlist', () => {
  it('a full schedule takes members in line with positions 1, 2, 3; GET /v1/waitlist lists each as waiting', async () => {
    const full = await fullSchedule(1)
    const [a, b, c] = await newPeople(3)
    expect(await joined(a!, full.scheduleId)).toMatchObject({ position: 1 })
    expect(await joined(b!, full.scheduleId, at(MINUTE))).toMatchObject({ position: 2 })
    const third = await joined(c!, full.scheduleId, at(2 * MINUTE))
    expect(third.position).toBe(3)

    const list = await myList(c!)
    expect(list).toEqual([
      {
        id: third.id,
        status: 'waiting',
        position: 3,
        offer_expires_at: null,
        created_at: at(2 * MINUTE).toISOString(),
        attendee: `${c!.nickname}（ご本人）`,
        class_work: { id: full.classId, title: full.title, lesson_count: 1 },
        schedule: {
          id: full.scheduleId,
          started_at: full.start.toISOString(),
          ended_at: new Date(full.start.getTime() + HOUR).toISOString(),
        },
      },
    ])
    expect((await myList(a!)).map((e) => [e.status, e.position])).toEqual([['waiting', 1]])
    // Waiting holds no seat.
    expect(await seats(full.scheduleId)).toMatchObject({ capacity: 1, purchased: 1, held: 0 })
    // Nobody else sees another member's entries.
    expect(await myList(full.seats[0]!.member)).toEqual([])
  })

  it('one who joins after another never passes them, even with an earlier clock (read before waiting, or behind)', async () => {
    const full = await fullSchedule(1)
    const [a, b] = await newPeople(2)
    const ea = await joined(a!, full.scheduleId, at(2 * MINUTE))
    // b's request read its clock a minute earlier, then waited for the schedule behind a's join.
    const eb = await joined(b!, full.scheduleId, at(MINUTE))
    expect([ea.position, eb.position]).toEqual([1, 2])
    expect((await myList(a!, at(3 * MINUTE))).map((e) => e.position)).toEqual([1])
    expect((await myList(b!, at(3 * MINUTE))).map((e) => e.position)).toEqual([2])
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
    expect((await entryOf(ea.id)).status).toBe('offered')
    expect((await entryOf(eb.id)).status).toBe('waiting')
  })

  it('a member may wait for their child: the entry shows the learner as the attendee', async () => {
    const full = await fullSchedule(1)
    const parent = await newPerson()
    const kid = await addLearner(parent, 'はなこ')
    const receipt = WaitlistReceipt.parse(
      expectOk(await join(parent, full.scheduleId, { learner_id: kid }), 201),
    )
    expect(receipt.position).toBe(1)
    expect((await myList(parent)).map((e) => e.attendee)).toEqual(['はなこ'])
    const [row] = await api.db.select().from(waitlistEntries).where(eq(waitlistEntries.id, receipt.id))
    expect(row).toMatchObject({ learnerId: kid, userId: parent.id, status: 'waiting' })
  })

  it('a parent holding a seat for one attendee may wait for another (a sibling); the offer books that child', async () => {
    const full = await fullSchedule(2)
    const parent = full.seats[0]!.member
    const kid = await addLearner(parent, 'じろう')
    // The attendee who has the seat already (the parent themself) cannot wait for a second one.
    expectError(await join(parent, full.scheduleId), 409, 'already_reserved')
    const entry = WaitlistReceipt.parse(
      expectOk(await join(parent, full.scheduleId, { learner_id: kid }), 201),
    )
    expectOk(await cancelReservation(full.seats[1]!.member, full.seats[1]!.purchaseId, at(HOUR)))
    expect((await entryOf(entry.id)).status).toBe('offered')
    const booked = expectOk(
      await call(
        parent,
        'POST',
        '/v1/purchases',
        { schedule_id: full.scheduleId, learner_id: kid },
        at(2 * HOUR),
      ),
      201,
    )
    expect(booked.status).toBe('reserved')
    expect((await entryOf(entry.id)).status).toBe('booked')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 2, held: 0, live: 2, offered: 0 })
  })

  it('the expiry job tells the member whose offer ended: a live update, so their open pages stop offering the seat', async () => {
    await settleEarlierOffers()
    const full = await fullSchedule(1)
    const [a] = await newPeople(1)
    const ea = await joined(a!, full.scheduleId)
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
    expect((await entryOf(ea.id)).status).toBe('offered')
    // Its time is up by the job's own clock.
    await api.db
      .update(waitlistEntries)
      .set({ offerExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(waitlistEntries.id, ea.id))
    const told: [number[], string][] = []
    const handlers = appJobHandlers({
      mail: testMailSettings(),
      publish: async (ids, type) => void told.push([ids, type]),
    })
    const expire = (handlers as Record<string, JobHandler>)['waitlist.expire']!
    await expire({ id: 1, kind: 'waitlist.expire', payload: {}, attempts: 1 }, { db: api.db })
    expect((await entryOf(ea.id)).status).toBe('expired')
    expect(told).toContainEqual([[a!.id], 'reservation'])
  })

  it("a seat offered for one child is not booked for another (nor for the parent): that child's offer stays", async () => {
    const full = await fullSchedule(1)
    const parent = await newPerson()
    const kid = await addLearner(parent, 'さぶろう')
    const other = await addLearner(parent, 'しろう')
    const entry = WaitlistReceipt.parse(
      expectOk(await join(parent, full.scheduleId, { learner_id: kid }), 201),
    )
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
    expect((await entryOf(entry.id)).status).toBe('offered')
    for (const body of [
      { schedule_id: full.scheduleId },
      { schedule_id: full.scheduleId, learner_id: other },
    ]) {
      const refused = await call(parent, 'POST', '/v1/purchases', body, at(2 * HOUR))
      expectError(refused, 409, 'offer_for_another_attendee')
      // Names whom the seat is held for, so that the parent can pick them.
      expect(refused.body.message).toContain('（さぶろう）')
    }
    expect((await entryOf(entry.id)).status).toBe('offered')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 1, live: 0, offered: 1 })
    expectOk(
      await call(
        parent,
        'POST',
        '/v1/purchases',
        { schedule_id: full.scheduleId, learner_id: kid },
        at(2 * HOUR),
      ),
      201,
    )
    expect((await entryOf(entry.id)).status).toBe('booked')
  })

  it('refuses: not_full, already_waiting, already_reserved, own_class, 404s, a visitor and bad bodies', async () => {
    const full = await fullSchedule(2)
    const a = await newPerson()

    // A seat is free: book it instead.
    const teacher = await newPerson({ teacher: true })
    const cls = await createClass(teacher)
    const open = await addSchedule(teacher, cls.id, 2)
    await reserve(await newPerson(), open.id)
    expectError(await join(a, open.id), 409, 'not_full')

    await joined(a, full.scheduleId)
    expectError(await join(a, full.scheduleId), 409, 'already_waiting')
    // One live entry per member and schedule, whoever attends.
    expectError(
      await join(a, full.scheduleId, { learner_id: await addLearner(a, 'たろう') }),
      409,
      'already_waiting',
    )
    expectError(await join(full.seats[0]!.member, full.scheduleId), 409, 'already_reserved')
    expectError(await join(full.teacher, full.scheduleId), 422, 'own_class')

    // Unknown schedule, a draft class's schedule, another member's child.
    expectError(await join(a, 99_999_999), 404, 'not_found')
    const draft = await createClass(teacher, { published: false })
    const draftSchedule = await addSchedule(teacher, draft.id, 1, 6 * DAY)
    expectError(await join(a, draftSchedule.id), 404, 'not_found')
    const stranger = await newPerson()
    const strangersKid = await addLearner(stranger, 'よそのこ')
    const b = await newPerson()
    expectError(await join(b, full.scheduleId, { learner_id: strangersKid }), 404, 'not_found')

    expectError(await join(null, full.scheduleId), 401, 'unauthorized')
    for (const body of [
      { learner_id: 'one' },
      { learner_id: 0 },
      { learner_id: -1 },
      { user_id: a.id },
      'not json',
    ])
      expectError(await join(b, full.scheduleId, body), 400, 'invalid_request')
    expectError(await call(b, 'POST', '/v1/class_work_schedules/abc/waitlist', {}), 400, 'invalid_request')
    // None of the refusals left an entry behind.
    expect(await api.db.select().from(waitlistEntries).where(eq(waitlistEntries.userId, b.id))).toEqual([])
    // learner_id null is the member themself, as in POST /v1/purchases (it was a 400).
    expectOk(await join(b, full.scheduleId, { learner_id: null }), 201)
  })

  it('refuses a started schedule (409 started) and a cancelled one (409 canceled)', async () => {
    const full = await fullSchedule(1, { startsIn: 2 * DAY })
    const a = await newPerson()
    expectError(await join(a, full.scheduleId, {}, at(2 * DAY + MINUTE)), 409, 'started')
    expectError(await join(a, full.scheduleId, {}, at(2 * DAY)), 409, 'started')

    const other = await fullSchedule(1)
    expectOk(
      await call(other.teacher, 'POST', `/v1/teachers/class_work_schedules/${other.scheduleId}/cancel`),
    )
    expectError(await join(a, other.scheduleId), 409, 'canceled')
  })
})

// ── offers ────────────────────────────────────────────────────────────────────────────────────

describe('offers', () => {
  it('first come first served: each cancellation holds the seat for the oldest waiting member, who books it', async () => {
    const full = await fullSchedule(2)
    const [a, b, c] = await newPeople(3)
    const outsider = await newPerson()
    // Joined in the order c, a, b (their created_at), to show the line follows time, not the member's id.
    const ec = await joined(c!, full.scheduleId, at(MINUTE))
    const ea = await joined(a!, full.scheduleId, at(2 * MINUTE))
    const eb = await joined(b!, full.scheduleId, at(3 * MINUTE))
    expect([ec.position, ea.position, eb.position]).toEqual([1, 2, 3])

    const t1 = at(HOUR)
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, t1))
    expect(await entryOf(ec.id)).toMatchObject({
      status: 'offered',
      offeredAt: t1,
      offerExpiresAt: new Date(t1.getTime() + 12 * HOUR),
    })
    expect((await entryOf(ea.id)).status).toBe('waiting')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 1, held: 1, live: 1, offered: 1 })
    expect(await offerJobs([ec.id, ea.id, eb.id])).toEqual([ec.id])

    // The public page shows the held seat; nobody else can take it.
    const detail = ClassWorkDetail.parse(expectOk(await call(null, 'GET', `/v1/class_works/${full.classId}`)))
    expect(detail.schedules.find((s) => s.id === full.scheduleId)).toMatchObject({
      capacity: 2,
      purchased_count: 1,
      held_count: 1,
    })
    expectError(
      await call(outsider, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, t1),
      409,
      'full',
    )
    expectError(await call(a!, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, t1), 409, 'full')
    // The line moved up for those still waiting.
    expect((await myList(a!, t1)).map((e) => [e.status, e.position])).toEqual([['waiting', 1]])
    expect((await myList(b!, t1)).map((e) => [e.status, e.position])).toEqual([['waiting', 2]])

    // The offered member books the held seat.
    const booked = expectOk(
      await call(c!, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, at(2 * HOUR)),
      201,
    )
    expect(booked.status).toBe('reserved')
    expect((await entryOf(ec.id)).status).toBe('booked')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 2, held: 0, live: 2, offered: 0 })
    expect(await myList(c!, at(2 * HOUR))).toEqual([])
    // A booked entry is no longer live: the waitlist does not refuse them as already waiting, but as reserved.
    expectError(await join(c!, full.scheduleId, {}, at(2 * HOUR)), 409, 'already_reserved')

    // The next cancellation goes to a, then to b.
    expectOk(await cancelReservation(full.seats[1]!.member, full.seats[1]!.purchaseId, at(3 * HOUR)))
    expect((await entryOf(ea.id)).status).toBe('offered')
    expect((await entryOf(eb.id)).status).toBe('waiting')
    expectOk(await call(a!, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, at(3 * HOUR)), 201)
    expectOk(await cancelReservation(c!, booked.id, at(4 * HOUR)))
    expect((await entryOf(eb.id)).status).toBe('offered')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 1, held: 1, live: 1, offered: 1 })
    expect(await offerJobs([ec.id, ea.id, eb.id])).toEqual([ec.id, ea.id, eb.id].sort((x, y) => x - y))
  })

  it('an unpublished class offers nothing (a live offer goes back to waiting); published again, its line is served', async () => {
    const full = await fullSchedule(2)
    const [a, b] = await newPeople(2)
    const ea = await joined(a!, full.scheduleId, at(MINUTE))
    const eb = await joined(b!, full.scheduleId, at(2 * MINUTE))
    const offerMailsOf = async (entryId: number) =>
      (await api.db.select().from(jobs).where(eq(jobs.kind, 'notify.waitlist_offer'))).filter(
        (j) => Number((j.payload as { entryId: number }).entryId) === entryId,
      ).length
    // A seat frees and a is offered it; then the teacher unpublishes the class, which nobody can book now.
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
    expect((await entryOf(ea.id)).status).toBe('offered')
    await runJobs()
    expectOk(await setPublished(full, false, at(2 * HOUR)))
    expect(await entryOf(ea.id)).toMatchObject({ status: 'waiting', offerExpiresAt: null })
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 1, held: 0, offered: 0 })
    // Another seat frees meanwhile: nobody is offered a seat they could not book.
    expectOk(await cancelReservation(full.seats[1]!.member, full.seats[1]!.purchaseId, at(3 * HOUR)))
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 0, offered: 0 })
    expect([(await entryOf(ea.id)).status, (await entryOf(eb.id)).status]).toEqual(['waiting', 'waiting'])
    // Published again: both free seats go to the line in its order, and a is told again.
    expectOk(await setPublished(full, true, at(4 * HOUR)))
    expect([(await entryOf(ea.id)).status, (await entryOf(eb.id)).status]).toEqual(['offered', 'offered'])
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 2, offered: 2 })
    expect([await offerMailsOf(ea.id), await offerMailsOf(eb.id)]).toEqual([2, 1])
    // Each offer is mailed: the second one to a as well as the first (mailed before it was taken back).
    await runJobs()
    expect(
      (await mailsTo(a!)).filter((m) => m.subject.startsWith('キャンセル待ちの席が空きました')).length,
    ).toBe(2)
    expectOk(await call(a!, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, at(5 * HOUR)), 201)
    expect((await entryOf(ea.id)).status).toBe('booked')
  })

  it('members who joined at the same moment are served in the order they joined', async () => {
    const full = await fullSchedule(1)
    const [a, b] = await newPeople(2)
    const ea = await joined(a!, full.scheduleId)
    const eb = await joined(b!, full.scheduleId)
    expect([ea.position, eb.position]).toEqual([1, 2])
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId))
    expect([(await entryOf(ea.id)).status, (await entryOf(eb.id)).status]).toEqual(['offered', 'waiting'])
  })

  it('a cancellation with nobody waiting leaves the seat free for anyone', async () => {
    const full = await fullSchedule(1)
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId))
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 0 })
    await reserve(await newPerson(), full.scheduleId)
  })

  it('an offer expires after 12 hours and passes to the next; the expired member can no longer book', async () => {
    await settleEarlierOffers()
    const full = await fullSchedule(1)
    const [a, b] = await newPeople(2)
    const ea = await joined(a!, full.scheduleId)
    const eb = await joined(b!, full.scheduleId, at(MINUTE))
    const t1 = at(HOUR)
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, t1))
    const offer = (await myList(a!, t1))[0]!
    expect(offer).toMatchObject({ status: 'offered', position: null })
    expect(offer.offer_expires_at).toBe(new Date(t1.getTime() + OFFER_MS).toISOString())
    expect(OFFER_MS).toBe(12 * HOUR)

    // Not yet.
    expect(await expireOffers(api.db, new Date(t1.getTime() + 12 * HOUR - MINUTE))).toBe(0)
    expect((await entryOf(ea.id)).status).toBe('offered')

    const t2 = new Date(t1.getTime() + 12 * HOUR)
    const ended: number[] = []
    expect(await expireOffers(api.db, t2, ended)).toBe(1)
    expect(ended).toEqual([a!.id]) // told live: their open pages stop offering the seat
    expect(await entryOf(ea.id)).toMatchObject({ status: 'expired' })
    expect(await entryOf(eb.id)).toMatchObject({
      status: 'offered',
      offeredAt: t2,
      offerExpiresAt: new Date(t2.getTime() + 12 * HOUR),
    })
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 1, offered: 1 })
    expect(await offerJobs([ea.id, eb.id])).toEqual([ea.id, eb.id].sort((x, y) => x - y))
    // Running it again changes nothing.
    expect(await expireOffers(api.db, t2)).toBe(0)

    // a's offer is gone: the seat is b's.
    expect(await myList(a!, t2)).toEqual([])
    expectError(await call(a!, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, t2), 409, 'full')
    expectError(await call(a!, 'DELETE', `/v1/waitlist/${ea.id}`, undefined, t2), 409, 'not_waiting')
    // a may line up again, behind nobody waiting (b holds an offer).
    const again = await joined(a!, full.scheduleId, t2)
    expect(again.position).toBe(1)

    // b lets it expire too: back to a; a lets it expire: nobody waits, the seat is free.
    const t3 = new Date(t2.getTime() + 12 * HOUR)
    expect(await expireOffers(api.db, t3)).toBe(1)
    expect((await entryOf(again.id)).status).toBe('offered')
    const t4 = new Date(t3.getTime() + 12 * HOUR)
    expect(await expireOffers(api.db, t4)).toBe(1)
    expect((await entryOf(again.id)).status).toBe('expired')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 0, offered: 0 })
    await reserve(await newPerson(), full.scheduleId, t4)
  })

  it('an offer made close to the lesson ends at its start, and then nothing more is offered', async () => {
    await settleEarlierOffers()
    const full = await fullSchedule(1, { startsIn: 30 * HOUR })
    const [a, b] = await newPeople(2)
    const ea = await joined(a!, full.scheduleId)
    const eb = await joined(b!, full.scheduleId)
    // 5 hours before the start the teacher adds a seat: the offer runs until the start, not 12 hours.
    const t1 = at(25 * HOUR)
    const patched = TeacherSchedule.parse(
      expectOk(
        await call(
          full.teacher,
          'PATCH',
          `/v1/teachers/class_work_schedules/${full.scheduleId}`,
          { capacity: 2 },
          t1,
        ),
      ),
    )
    expect(patched).toMatchObject({ capacity: 2, purchased_count: 1, held_count: 1 })
    expect(await entryOf(ea.id)).toMatchObject({ status: 'offered', offerExpiresAt: full.start })
    expect((await myList(a!, t1))[0]!.offer_expires_at).toBe(full.start.toISOString())

    // At the start the offer expires; the lesson has begun, so b is offered nothing.
    expect(await expireOffers(api.db, full.start)).toBe(1)
    expect((await entryOf(ea.id)).status).toBe('expired')
    expect((await entryOf(eb.id)).status).toBe('waiting')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 1, held: 0 })
    // The waitlist only lists upcoming lessons.
    expect(await myList(b!, full.start)).toEqual([])
  })

  it('raising the capacity by 2 offers two seats to the first two in line', async () => {
    const full = await fullSchedule(2)
    const [a, b, c] = await newPeople(3)
    const ea = await joined(a!, full.scheduleId)
    const eb = await joined(b!, full.scheduleId, at(MINUTE))
    const ec = await joined(c!, full.scheduleId, at(2 * MINUTE))
    const patch = (capacity: number) =>
      call(
        full.teacher,
        'PATCH',
        `/v1/teachers/class_work_schedules/${full.scheduleId}`,
        { capacity },
        at(HOUR),
      )

    const patched = TeacherSchedule.parse(expectOk(await patch(4)))
    expect(patched).toMatchObject({ capacity: 4, purchased_count: 2, held_count: 2 })
    expect(await Promise.all([ea, eb, ec].map(async (e) => (await entryOf(e.id)).status))).toEqual([
      'offered',
      'offered',
      'waiting',
    ])
    expect((await myList(c!, at(HOUR))).map((e) => e.position)).toEqual([1])
    expect(await seats(full.scheduleId)).toMatchObject({ capacity: 4, purchased: 2, held: 2, offered: 2 })
    expect(await offerJobs([ea.id, eb.id, ec.id])).toEqual([ea.id, eb.id].sort((x, y) => x - y))

    // The capacity cannot go below the seats sold and held; an unchanged one offers nothing more.
    expectError(await patch(3), 409, 'capacity_below_sold')
    expect(TeacherSchedule.parse(expectOk(await patch(4))).held_count).toBe(2)
    expect((await entryOf(ec.id)).status).toBe('waiting')
    // Others still cannot book; c (waiting) neither.
    expectError(
      await call(await newPerson(), 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, at(HOUR)),
      409,
      'full',
    )
    expectError(
      await call(c!, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, at(HOUR)),
      409,
      'full',
    )
    // One more seat than there are waiting members: c is offered one, the other is free.
    expect(TeacherSchedule.parse(expectOk(await patch(6))).held_count).toBe(3)
    expect((await entryOf(ec.id)).status).toBe('offered')
    await reserve(await newPerson(), full.scheduleId, at(HOUR))
    expect(await seats(full.scheduleId)).toMatchObject({
      capacity: 6,
      purchased: 3,
      held: 3,
      live: 3,
      offered: 3,
    })
  })

  it('a member who stopped 予約の確定・キャンセル mails still hears of a seat held for them (its own kind)', async () => {
    const full = await fullSchedule(1)
    const [a] = await newPeople(1)
    await setNotificationPreference(api.db, a!.id, 'reservation', false)
    await joined(a!, full.scheduleId)
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
    await runJobs()
    expect((await mailsTo(a!)).map((m) => [m.subject, m.kind])).toEqual([
      [`キャンセル待ちの席が空きました：${full.title}`, 'waitlist'],
    ])
  })

  it('the offered member gets a mail; GET /v1/waitlist shows the offer and its expiry', async () => {
    const full = await fullSchedule(1)
    const [a, b] = await newPeople(2)
    const ea = await joined(a!, full.scheduleId)
    await joined(b!, full.scheduleId, at(MINUTE))
    await runJobs()
    expect(await mailsTo(a!)).toEqual([])

    const t1 = at(HOUR)
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, t1))
    await runJobs()
    const got = await mailsTo(a!)
    expect(got.map((m) => [m.subject, m.kind])).toEqual([
      [`キャンセル待ちの席が空きました：${full.title}`, 'waitlist'],
    ])
    expect(got[0]!.userId).toBe(a!.id)
    expect(got[0]!.text).toContain(full.title)
    expect(got[0]!.text).toContain('予約の期限')
    expect(got[0]!.text).toContain(`受講する人：${a!.nickname}（ご本人）`)
    expect(got[0]!.text).toContain(`/class_search/detail/${full.classId}`)
    // Only the one offered is told; running the jobs again sends nothing more.
    expect(await mailsTo(b!)).toEqual([])
    await runJobs()
    expect((await mailsTo(a!)).length).toBe(1)

    const list = await myList(a!, t1)
    expect(list).toEqual([
      expect.objectContaining({
        id: ea.id,
        status: 'offered',
        position: null,
        offer_expires_at: new Date(t1.getTime() + 12 * HOUR).toISOString(),
        class_work: { id: full.classId, title: full.title, lesson_count: 1 },
      }),
    ])
    expect((await myList(b!, t1)).map((e) => [e.status, e.position, e.offer_expires_at])).toEqual([
      ['waiting', 1, null],
    ])
  })

  it('a lesson its teacher cancels tells everyone in its line, an offered member too', async () => {
    const full = await fullSchedule(1)
    const [a, b] = await newPeople(2)
    await joined(a!, full.scheduleId)
    await joined(b!, full.scheduleId, at(MINUTE))
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
    await runJobs()
    await api.db.delete(mails)
    expectOk(
      await call(
        full.teacher,
        'POST',
        `/v1/teachers/class_work_schedules/${full.scheduleId}/cancel`,
        undefined,
        at(2 * HOUR),
      ),
    )
    await runJobs()
    for (const who of [a!, b!])
      expect((await mailsTo(who)).map((m) => m.subject)).toEqual([
        `【開催中止】キャンセル待ちの授業：${full.title}`,
      ])
  })

  it('a lesson cancelled once under way ends its line quietly: no 開催中止 mail to those who never had a seat', async () => {
    const full = await fullSchedule(1)
    const a = await newPerson()
    const entry = await joined(a, full.scheduleId)
    await runJobs()
    await api.db.delete(mails)
    const during = new Date(full.start.getTime() + 10 * MINUTE)
    expectOk(
      await call(
        full.teacher,
        'POST',
        `/v1/teachers/class_work_schedules/${full.scheduleId}/cancel`,
        undefined,
        during,
      ),
    )
    expect((await entryOf(entry.id)).status).toBe('canceled')
    await runJobs()
    expect(await mailsTo(a)).toEqual([])
  })

  it('an offer whose member was suspended before its mail went out sends no mail', async () => {
    const full = await fullSchedule(1)
    const a = await newPerson()
    await joined(a, full.scheduleId)
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId))
    await api.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, a.id))
    await runJobs()
    expect(await mailsTo(a)).toEqual([])
  })

  it('an offer that ended before its mail went out sends no mail', async () => {
    const full = await fullSchedule(1)
    const a = await newPerson()
    const ea = await joined(a, full.scheduleId)
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId))
    expectOk(await call(a, 'DELETE', `/v1/waitlist/${ea.id}`))
    await runJobs()
    expect(await mailsTo(a)).toEqual([])
  })
})

// ── leaving ───────────────────────────────────────────────────────────────────────────────────

describe('leaving the waitlist', () => {
  it('a waiting member leaves (the rest of their list is returned); once only, own entries only', async () => {
    const full = await fullSchedule(1)
    const other = await fullSchedule(1)
    const [a, b] = await newPeople(2)
    const ea = await joined(a!, full.scheduleId)
    const eOther = await joined(a!, other.scheduleId)
    const eb = await joined(b!, full.scheduleId)

    expectError(await call(b!, 'DELETE', `/v1/waitlist/${ea.id}`), 404, 'not_found')
    expectError(await call(a!, 'DELETE', '/v1/waitlist/99999999'), 404, 'not_found')
    expectError(await call(null, 'DELETE', `/v1/waitlist/${ea.id}`), 401, 'unauthorized')
    expectError(await call(a!, 'DELETE', '/v1/waitlist/abc'), 400, 'invalid_request')

    const rest = WaitlistEntryList.parse(expectOk(await call(a!, 'DELETE', `/v1/waitlist/${ea.id}`)))
    expect(rest.map((e) => e.id)).toEqual([eOther.id])
    expect((await entryOf(ea.id)).status).toBe('left')
    expectError(await call(a!, 'DELETE', `/v1/waitlist/${ea.id}`), 409, 'not_waiting')
    // b moved up; a may join again, at the end.
    expect((await myList(b!)).map((e) => e.position)).toEqual([1])
    expect((await joined(a!, full.scheduleId)).position).toBe(2)
    expect((await entryOf(eb.id)).status).toBe('waiting')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 1, held: 0 })
  })

  it('leaving an offered entry releases the held seat to the next in line, or frees it when nobody waits', async () => {
    const full = await fullSchedule(1)
    const [a, b] = await newPeople(2)
    const ea = await joined(a!, full.scheduleId)
    const eb = await joined(b!, full.scheduleId, at(MINUTE))
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
    expect((await entryOf(ea.id)).status).toBe('offered')

    const t2 = at(2 * HOUR)
    expect(expectOk(await call(a!, 'DELETE', `/v1/waitlist/${ea.id}`, undefined, t2))).toEqual([])
    expect((await entryOf(ea.id)).status).toBe('left')
    expect(await entryOf(eb.id)).toMatchObject({
      status: 'offered',
      offerExpiresAt: new Date(t2.getTime() + 12 * HOUR),
    })
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 1, offered: 1 })
    expectError(await call(a!, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, t2), 409, 'full')

    // b leaves too: nobody waits, the seat is free for anyone.
    expectOk(await call(b!, 'DELETE', `/v1/waitlist/${eb.id}`, undefined, t2))
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 0, offered: 0 })
    await reserve(await newPerson(), full.scheduleId, t2)
    // A later expiry run finds nothing to do here.
    await expireOffers(api.db, at(3 * DAY))
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 1, held: 0, live: 1, offered: 0 })
  })
})

// ── the schedule is cancelled ─────────────────────────────────────────────────────────────────

describe('other paths that free or end a place in line', () => {
  it('an operator suspending a member: their freed seat is offered to the line, their own waits end', async () => {
    // X is a teacher (so they can be reported) who holds the only seat of someone else's lesson.
    const teacher = await newPerson({ teacher: true })
    const cls = await createClass(teacher)
    const { id: scheduleId } = await addSchedule(teacher, cls.id, 1)
    const x = await newPerson({ teacher: true })
    await reserve(x, scheduleId)
    const a = await newPerson()
    const ea = await joined(a, scheduleId)
    // X also waits elsewhere.
    const other = await fullSchedule(1)
    const ex = await joined(x, other.scheduleId)

    const operator = await newPerson()
    await api.db.update(users).set({ isOperator: true }).where(eq(users.id, operator.id))
    const reporter = await newPerson()
    const report = expectOk(
      await call(reporter, 'POST', '/v1/reports', {
        target_type: 'teacher',
        target_id: x.id,
        reason: 'other',
      }),
      201,
    )
    expectOk(await call(operator, 'POST', `/v1/admin/reports/${report.id}/resolve`, { action: 'suspend' }))

    expect((await entryOf(ea.id)).status).toBe('offered')
    expect(await seats(scheduleId)).toMatchObject({ purchased: 0, held: 1, offered: 1 })
    expect((await entryOf(ex.id)).status).toBe('canceled')
    // An outsider cannot take the seat held for A.
    const outsider = await newPerson()
    expectError(await call(outsider, 'POST', '/v1/purchases', { schedule_id: scheduleId }), 409, 'full')
  })

  /** Suspends `who` (a teacher, so that they can be reported) through a report, at `when`. */
  async function suspend(who: Person, when?: Date) {
    const operator = await newPerson()
    await api.db.update(users).set({ isOperator: true }).where(eq(users.id, operator.id))
    const report = expectOk(
      await call(await newPerson(), 'POST', '/v1/reports', {
        target_type: 'teacher',
        target_id: who.id,
        reason: 'other',
      }),
      201,
    )
    expectOk(
      await call(operator, 'POST', `/v1/admin/reports/${report.id}/resolve`, { action: 'suspend' }, when),
    )
  }

  it("a member suspended while holding a seat and waiting for a sibling's: the freed seat goes to the next in line, not to them", async () => {
    const teacher = await newPerson({ teacher: true })
    const cls = await createClass(teacher)
    const { id: scheduleId } = await addSchedule(teacher, cls.id, 1)
    const x = await newPerson({ teacher: true })
    await reserve(x, scheduleId)
    const ex = WaitlistReceipt.parse(
      expectOk(await join(x, scheduleId, { learner_id: await addLearner(x, 'いもうと') }), 201),
    )
    const a = await newPerson()
    const ea = await joined(a, scheduleId, at(MINUTE))
    await suspend(x)
    expect((await entryOf(ex.id)).status).toBe('canceled')
    expect((await entryOf(ea.id)).status).toBe('offered')
    expect(await seats(scheduleId)).toMatchObject({ purchased: 0, held: 1, live: 0, offered: 1 })
  })

  it('the offer of a member suspended before the expiry job ran stays over when the lesson moves, or its class is unpublished and published again', async () => {
    for (const how of ['move', 'republish'] as const) {
      const full = await fullSchedule(1)
      const x = await newPerson({ teacher: true })
      const ex = await joined(x, full.scheduleId)
      const b = await newPerson()
      const eb = await joined(b, full.scheduleId, at(MINUTE))
      expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
      expect((await entryOf(ex.id)).status).toBe('offered')
      await suspend(x, at(2 * HOUR))
      // Before the minute's expiry job, the teacher changes the lesson.
      if (how === 'move') await moveLesson(full, at(6 * DAY), at(2 * HOUR + MINUTE))
      else
        for (const published of [false, true])
          expectOk(await setPublished(full, published, at(2 * HOUR + MINUTE)))
      const offer = await entryOf(ex.id)
      expect(
        offer.status === 'expired' || offer.offerExpiresAt!.getTime() <= at(2 * HOUR).getTime(),
        how,
      ).toBe(true)
      await expireOffers(api.db, at(2 * HOUR + 2 * MINUTE))
      expect((await entryOf(ex.id)).status, how).toBe('expired')
      expect((await entryOf(eb.id)).status, how).toBe('offered')
      expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 1, offered: 1 })
    }
  })

  it('a waiting member who books a seat that is free ends their wait (no offer later for a lesson they hold)', async () => {
    const full = await fullSchedule(1)
    const a = await newPerson()
    const ea = await joined(a, full.scheduleId)
    // A seat appears without an offer (as after a race): A takes it directly.
    await api.db
      .update(classWorkSchedules)
      .set({ capacity: 2 })
      .where(eq(classWorkSchedules.id, full.scheduleId))
    await reserve(a, full.scheduleId)
    expect((await entryOf(ea.id)).status).toBe('booked')
    expect(await myList(a)).toEqual([])
  })
})

describe('a booking made with an offer, left unpaid', () => {
  /** A paid lesson, full, with a and then b in line; an hour in, its one seat is cancelled and held for a. */
  async function offeredToFirst() {
    const full = await fullSchedule(1, { price: 1500 })
    const [a, b] = await newPeople(2)
    const ea = await joined(a!, full.scheduleId)
    const eb = await joined(b!, full.scheduleId, at(MINUTE))
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
    const book = async (when: Date) =>
      expectOk(await call(a!, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, when), 201)
    return { full, a: a!, b: b!, ea, eb, book, provider: embeddedPaymentProvider(async () => api.db) }
  }

  it('gives the seat back to that offer when the hold ends on its own (a declined card, the provider away), not when the member cancels', async () => {
    const { full, a, b, ea, eb, book, provider } = await offeredToFirst()
    expect((await entryOf(ea.id)).status).toBe('offered')
    const first = await book(at(2 * HOUR))
    expect(first.status).toBe('pending')
    expect((await entryOf(ea.id)).status).toBe('booked')
    // The hold's time runs out unpaid, hours before the offer's.
    expect(
      await expireHold(api.db, first.id, { now: at(3 * HOUR), provider, issuer: TEST_RECEIPT_ISSUER }),
    ).toBe('changed')
    expect((await entryOf(ea.id)).status).toBe('offered')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 1, live: 0, offered: 1 })
    expect((await entryOf(eb.id)).status).toBe('waiting')
    expectError(
      await call(b, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, at(3 * HOUR)),
      409,
      'full',
    )
    // The member tries again; this time they cancel the unpaid booking themselves: the seat goes on down the line.
    const second = await book(at(4 * HOUR))
    expectOk(await cancelReservation(a, second.id, at(4 * HOUR)))
    expect((await entryOf(ea.id)).status).toBe('booked')
    expect((await entryOf(eb.id)).status).toBe('offered')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 1, live: 0, offered: 1 })
  })

  it('only the offer that booking was made with comes back: not one the member gave up before', async () => {
    const { a, b, ea, eb, book, provider, full } = await offeredToFirst()
    // A books with the offer and cancels the unpaid booking: the seat goes to b, who leaves; the seat is free.
    const withOffer = await book(at(2 * HOUR))
    expectOk(await cancelReservation(a, withOffer.id, at(2 * HOUR)))
    expect((await entryOf(eb.id)).status).toBe('offered')
    expectOk(await call(b, 'DELETE', `/v1/waitlist/${eb.id}`, undefined, at(3 * HOUR)))
    // A books the free seat without an offer and leaves it unpaid: nothing comes back to the old offer.
    const plain = await book(at(4 * HOUR))
    expect(
      await expireHold(api.db, plain.id, { now: at(5 * HOUR), provider, issuer: TEST_RECEIPT_ISSUER }),
    ).toBe('changed')
    expect((await entryOf(ea.id)).status).toBe('booked')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 0, live: 0, offered: 0 })
  })

  it('a hold ending after the teacher unpublished the class puts that member back in line, holding no seat', async () => {
    const { full, a, ea, book, provider } = await offeredToFirst()
    const booked = await book(at(2 * HOUR))
    expect((await entryOf(ea.id)).status).toBe('booked')
    expectOk(await setPublished(full, false, at(2 * HOUR + MINUTE)))
    expect(
      await expireHold(api.db, booked.id, { now: at(3 * HOUR), provider, issuer: TEST_RECEIPT_ISSUER }),
    ).toBe('changed')
    // Not an offer of a class nobody can book (it would run out unseen, and a lose their place).
    expect(await entryOf(ea.id)).toMatchObject({ status: 'waiting', offerExpiresAt: null })
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 0, offered: 0 })
    // Published again: a, first in line, is offered the seat.
    expectOk(await setPublished(full, true, at(4 * HOUR)))
    expect((await entryOf(ea.id)).status).toBe('offered')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 1, offered: 1 })
    expectOk(await call(a, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }, at(5 * HOUR)), 201)
  })

  it('the hold ending and the teacher unpublishing at the same moment: in either order, a waits in line and no seat is held', async () => {
    const { full, ea, book, provider } = await offeredToFirst()
    const booked = await book(at(2 * HOUR))
    const [expired, unpublished] = await Promise.all([
      expireHold(api.db, booked.id, { now: at(3 * HOUR), provider, issuer: TEST_RECEIPT_ISSUER }),
      setPublished(full, false, at(3 * HOUR)),
    ])
    expect(expired).toBe('changed')
    expectOk(unpublished)
    expect(await entryOf(ea.id)).toMatchObject({ status: 'waiting', offerExpiresAt: null })
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 0, offered: 0 })
  })

  it('money for that unpaid booking arriving late takes the seat its offer holds, not a refund', async () => {
    const { full, ea, book, provider } = await offeredToFirst()
    const booked = await book(at(2 * HOUR))
    expect(
      await expireHold(api.db, booked.id, { now: at(3 * HOUR), provider, issuer: TEST_RECEIPT_ISSUER }),
    ).toBe('changed')
    expect((await entryOf(ea.id)).status).toBe('offered')
    const [payment] = await api.db.select().from(payments).where(eq(payments.purchaseId, booked.id))
    expect(
      await settlePayment(api.db, payment!.id, { now: at(3 * HOUR + MINUTE), issuer: TEST_RECEIPT_ISSUER }),
    ).toBe('reserved')
    expect((await entryOf(ea.id)).status).toBe('booked')
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 1, held: 0, live: 1, offered: 0 })
  })
})

/** The teacher publishes or unpublishes the class, on the API's clock at `when`. */
const setPublished = (full: Full, published: boolean, when: Date) =>
  call(full.teacher, 'PATCH', `/v1/teachers/class_works/${full.classId}`, { is_published: published }, when)

/** The teacher moves the lesson to an hour from `start`, on the API's clock at `when`. */
async function moveLesson(full: Full, start: Date, when: Date) {
  return expectOk(
    await call(
      full.teacher,
      'PATCH',
      `/v1/teachers/class_work_schedules/${full.scheduleId}`,
      { started_at: start.toISOString(), ended_at: new Date(start.getTime() + HOUR).toISOString() },
      when,
    ),
  )
}

describe('a teacher moving the lesson', () => {
  it('an offer cut short by the lesson’s start gets its 12 hours back when the lesson moves later', async () => {
    const full = await fullSchedule(1, { startsIn: 6 * HOUR })
    const a = await newPerson()
    const ea = await joined(a, full.scheduleId)
    // A seat more, six hours before the lesson: the offer runs until the start, not 12 hours.
    const t1 = at(HOUR)
    expectOk(
      await call(
        full.teacher,
        'PATCH',
        `/v1/teachers/class_work_schedules/${full.scheduleId}`,
        { capacity: 2 },
        t1,
      ),
    )
    expect(await entryOf(ea.id)).toMatchObject({ status: 'offered', offerExpiresAt: full.start })
    await moveLesson(full, at(3 * DAY), at(2 * HOUR))
    expect(await entryOf(ea.id)).toMatchObject({
      status: 'offered',
      offerExpiresAt: new Date(t1.getTime() + OFFER_MS),
    })
  })
})

describe('a teacher moving the lesson, its line is told', () => {
  it('an offered member with the end of their offer, a waiting one; not one who left or was suspended; only the time that stands', async () => {
    const full = await fullSchedule(1)
    const [a, b, c, d] = await newPeople(4)
    await joined(a!, full.scheduleId)
    await joined(b!, full.scheduleId, at(MINUTE))
    await joined(c!, full.scheduleId, at(2 * MINUTE))
    const ed = await joined(d!, full.scheduleId, at(3 * MINUTE))
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId, at(HOUR)))
    expectOk(await call(d!, 'DELETE', `/v1/waitlist/${ed.id}`, undefined, at(HOUR)))
    await runJobs()
    await api.db.delete(mails)
    await api.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, c!.id))
    // Moved twice before the jobs run: only the second time is told (nobody has booked, so no 48 hours apply).
    await moveLesson(full, at(3 * DAY), at(2 * HOUR))
    const start = at(4 * DAY)
    await moveLesson(full, start, at(2 * HOUR + MINUTE))
    // One who joins after the move saw the new time already.
    const late = await newPerson()
    await joined(late, full.scheduleId, at(3 * HOUR))
    await runJobs()
    const run = (from: Date) =>
      formatRunJa(from.toISOString(), new Date(from.getTime() + HOUR).toISOString(), 1)
    const [toA] = await mailsTo(a!)
    const [toB] = await mailsTo(b!)
    for (const m of [toA, toB]) {
      expect(m?.subject).toBe(`【日時変更】キャンセル待ちの授業：${full.title}`)
      expect(m?.text).toContain(`新しい日時：${run(start)}`)
      // The time they last heard of, not the one in between that no mail told.
      expect(m?.text).toContain(`変更前の日時：${run(full.start)}`)
      expect(m?.text).toContain(`/class_search/detail/${full.classId}`)
    }
    expect(await mailsTo(late)).toEqual([])
    expect(toA?.text).toContain('予約の期限')
    expect(toB?.text).not.toContain('予約の期限')
    expect((await mailsTo(a!)).length + (await mailsTo(b!)).length).toBe(2)
    expect(await mailsTo(c!)).toEqual([])
    expect(await mailsTo(d!)).toEqual([])
  })
  it('moved away and back before any mail went: nobody is told of a change, booked or in line', async () => {
    const full = await fullSchedule(1)
    const a = await newPerson()
    await joined(a, full.scheduleId)
    await runJobs()
    await api.db.delete(mails)
    await moveLesson(full, at(4 * DAY), at(HOUR))
    await moveLesson(full, full.start, at(HOUR + MINUTE))
    await runJobs()
    expect(await mailsTo(full.seats[0]!.member)).toEqual([])
    expect(await mailsTo(a)).toEqual([])
    // A later move is told from the time they last heard of.
    const later = at(6 * DAY)
    await moveLesson(full, later, at(2 * HOUR))
    await runJobs()
    const [booked] = await mailsTo(full.seats[0]!.member)
    const [waiting] = await mailsTo(a)
    const run = (from: Date) =>
      formatRunJa(from.toISOString(), new Date(from.getTime() + HOUR).toISOString(), 1)
    for (const m of [booked, waiting]) {
      expect(m?.text).toContain(`変更前の日時：${run(full.start)}`)
      expect(m?.text).toContain(run(later))
    }
  })
  it('moved back while the first move’s mail was being sent: the move back is told, from the time between', async () => {
    const full = await fullSchedule(1)
    await runJobs()
    await api.db.delete(mails)
    const between = at(4 * DAY)
    await moveLesson(full, between, at(HOUR))
    // A worker has claimed the first move's job (it may be mailing some members "moved to the time between").
    await api.db.update(jobs).set({ attempts: 1 }).where(eq(jobs.kind, 'notify.schedule_moved'))
    await moveLesson(full, full.start, at(HOUR + MINUTE))
    await api.db.update(jobs).set({ attempts: 0 }).where(eq(jobs.kind, 'notify.schedule_moved'))
    await runJobs()
    const run = (from: Date) =>
      formatRunJa(from.toISOString(), new Date(from.getTime() + HOUR).toISOString(), 1)
    const told = await mailsTo(full.seats[0]!.member)
    expect(told).toHaveLength(1)
    expect(told[0]!.text).toContain(`変更前の日時：${run(between)}`)
    expect(told[0]!.text).toContain(run(full.start))
  })
  it('a parent told of their booking still hears of the seat held for a sibling, with its end', async () => {
    const full = await fullSchedule(2)
    const parent = full.seats[0]!.member
    const kid = await addLearner(parent, 'じろう')
    expectOk(await join(parent, full.scheduleId, { learner_id: kid }), 201)
    expectOk(await cancelReservation(full.seats[1]!.member, full.seats[1]!.purchaseId, at(HOUR)))
    await runJobs()
    await api.db.delete(mails)
    await moveLesson(full, at(4 * DAY), at(2 * HOUR))
    await runJobs()
    const subjects = (await mailsTo(parent)).map((m) => m.subject).sort()
    expect(subjects).toEqual(
      [`【日時変更】${full.title}`, `【日時変更】キャンセル待ちの授業：${full.title}`].sort(),
    )
    const [offerMail] = (await mailsTo(parent)).filter((m) =>
      m.subject.startsWith('【日時変更】キャンセル待ちの授業'),
    )
    expect(offerMail?.text).toContain('予約の期限')
  })
})

describe('a teacher cancelling the schedule', () => {
  it('ends the waitlist: every live entry is canceled, held_count goes to 0, nothing can be joined or booked', async () => {
    const full = await fullSchedule(2, { price: 1500 })
    const [a, b, c] = await newPeople(3)
    const ea = await joined(a!, full.scheduleId)
    const eb = await joined(b!, full.scheduleId, at(MINUTE))
    const ec = await joined(c!, full.scheduleId, at(2 * MINUTE))
    expectOk(await call(c!, 'DELETE', `/v1/waitlist/${ec.id}`))
    expectOk(await cancelReservation(full.seats[0]!.member, full.seats[0]!.purchaseId))
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 1, held: 1 })

    const res = expectOk(
      await call(full.teacher, 'POST', `/v1/teachers/class_work_schedules/${full.scheduleId}/cancel`),
    )
    expect(res.schedule).toMatchObject({ is_canceled: true, purchased_count: 0, held_count: 0 })
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 0, live: 0, offered: 0 })
    expect(await Promise.all([ea, eb, ec].map(async (e) => (await entryOf(e.id)).status))).toEqual([
      'canceled',
      'canceled',
      'left',
    ])
    for (const who of [a!, b!]) expect(await myList(who)).toEqual([])
    expectError(await call(a!, 'POST', '/v1/purchases', { schedule_id: full.scheduleId }), 409, 'canceled')
    expectError(await call(a!, 'DELETE', `/v1/waitlist/${ea.id}`), 409, 'not_waiting')
    expectError(await join(b!, full.scheduleId), 409, 'canceled')
    // An expiry run later does not touch the cancelled schedule.
    await expireOffers(api.db, at(DAY))
    expect(await seats(full.scheduleId)).toMatchObject({ purchased: 0, held: 0 })
    expect((await entryOf(ea.id)).status).toBe('canceled')
  })
})

// ── the crowd (PostgreSQL) ────────────────────────────────────────────────────────────────────

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'cancellations, bookings and offers at once (PostgreSQL)',
  () => {
    const ROUNDS = 3
    const CAPACITY = 20
    const WAITING = 10
    const OUTSIDERS = 20

    /** What a caller may meet in this race; anything else (5xx, a deadlock, a constraint) is a defect. */
    const EXPECTED = new Set(['409:full', '409:already_reserved', '409:not_waiting'])
    const isExpected = (r: CallResult) => r.status < 300 || EXPECTED.has(`${r.status}:${r.body?.code}`)
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

    it(`${ROUNDS} rounds: no oversell, counters equal live reservations and offers, the line is honoured`, async () => {
      const unexpected: string[] = []
      const outcome: string[] = []
      const deadlocksBefore = retriedConflicts['40P01'] ?? 0
      clock = api.now
      for (let round = 0; round < ROUNDS; round++) {
        const prefix = `crowd-wait${round}`
        const teacher = await newPerson({ teacher: true, prefix })
        const cls = await createClass(teacher, { price: 1000 })
        const { id: scheduleId } = await addSchedule(teacher, cls.id, CAPACITY, (5 + round) * DAY)
        const holders = await newPeople(CAPACITY, prefix)
        const seatIds = await Promise.all(holders.map((h) => reserve(h, scheduleId)))
        const waiting = await newPeople(WAITING, prefix)
        const entries: number[] = []
        for (const w of waiting) entries.push((await joined(w, scheduleId)).id)
        const outsiders = await newPeople(OUTSIDERS, prefix)
        const token = async (p: Person) => ({ token: await tokenFor(p.sub, { expiresIn: 3600 }) })
        const holderTokens = await Promise.all(holders.map(token))
        const waitingTokens = await Promise.all(waiting.map(token))
        const outsiderTokens = await Promise.all(outsiders.map(token))
        const book = (who: { token: string }) =>
          call(who, 'POST', '/v1/purchases', { schedule_id: scheduleId })

        // Every holder cancels, one after another over ~100 ms; meanwhile outsiders keep trying to book (up to 6
        // times); of the waiting members, the even ones keep trying to book (they succeed once offered), every
        // fourth leaves the line, the rest never answer their offer.
        const holderWork = holderTokens.map(async (t, i) => {
          await pause(5 + i * 5)
          return [await call(t!, 'POST', `/v1/purchases/${seatIds[i]}/cancel`)]
        })
        const outsiderWork = outsiderTokens.map(async (t, i) => {
          const results: CallResult[] = []
          await pause(i % 7)
          for (let attempt = 0; attempt < 6; attempt++) {
            const r = await book(t!)
            results.push(r)
            if (r.status === 201 || !isExpected(r)) break
            await pause(10 + (i % 5) * 5)
          }
          return results
        })
        const waitingWork = waitingTokens.map(async (t, i) => {
          const results: CallResult[] = []
          if (i % 4 === 1) {
            await pause(i * 10)
            results.push(await call(t!, 'DELETE', `/v1/waitlist/${entries[i]}`))
          } else if (i % 2 === 0) {
            const deadline = Date.now() + 20_000
            while (Date.now() < deadline) {
              const r = await book(t!)
              results.push(r)
              if (r.status === 201 || !isExpected(r)) break
              await pause(5)
            }
          }
          return results
        })
        const [holderResults, outsiderResults, waitingResults] = await Promise.all(
          [holderWork, outsiderWork, waitingWork].map(async (work) => (await Promise.all(work)).flat()),
        )
        const results = [...holderResults!, ...outsiderResults!, ...waitingResults!]
        const fullRefusals = (rs: CallResult[]) => rs.filter((r) => r.body?.code === 'full').length
        for (const r of results)
          if (!isExpected(r)) unexpected.push(`round ${round}: ${r.status} ${JSON.stringify(r.body)}`)

        const s = await seats(scheduleId)
        expect(s.purchased, `round ${round}: purchased_count = live reservations`).toBe(s.live)
        expect(s.purchased + s.held, `round ${round}: no oversell`).toBeLessThanOrEqual(CAPACITY)
        expect(s.held, `round ${round}: held_count = offered entries`).toBe(s.offered)

        const rows = await api.db
          .select({ id: waitlistEntries.id, userId: waitlistEntries.userId, status: waitlistEntries.status })
          .from(waitlistEntries)
          .where(eq(waitlistEntries.scheduleId, scheduleId))
        // A paid seat held for its payment is a booking too (issue 17).
        const live = await api.db
          .select({ userId: purchases.userId })
          .from(purchases)
          .where(
            and(eq(purchases.scheduleId, scheduleId), inArray(purchases.status, ['reserved', 'pending'])),
          )
        const reservedBy = new Set(live.map((p) => p.userId))
        const waitingIds = new Set(waiting.map((w) => w.id))
        // All 20 seats were freed and only 10 waited: nobody is left waiting; every entry that did not leave
        // was offered, and a booked entry has its reservation, an offered one none.
        for (const e of rows) {
          const i = waiting.findIndex((w) => w.id === e.userId)
          if (i % 4 === 1) expect(e.status, `round ${round} entry ${e.id}`).toBe('left')
          else if (i % 2 === 0) expect(e.status, `round ${round} entry ${e.id}`).toBe('booked')
          else expect(e.status, `round ${round} entry ${e.id}`).toBe('offered')
          expect(reservedBy.has(e.userId), `round ${round} entry ${e.id} (${e.status})`).toBe(
            e.status === 'booked',
          )
        }
        // Waiting members never booked without an offer; outsiders took only seats nobody in line held:
        // at most the seats freed beyond the line (those who left the line give theirs back).
        const outsidersBooked = live.filter((p) => !waitingIds.has(p.userId)).length
        const left = rows.filter((e) => e.status === 'left').length
        expect(outsidersBooked, `round ${round}: outsiders`).toBeLessThanOrEqual(CAPACITY - WAITING + left)
        expect(live.filter((p) => holders.some((h) => h.id === p.userId))).toEqual([])
        outcome.push(
          `booked by line ${rows.filter((e) => e.status === 'booked').length}, offered ${s.offered}, left ${left}, ` +
            `outsiders ${outsidersBooked} (refused full ${fullRefusals(outsiderResults!)}), ` +
            `line refused full ${fullRefusals(waitingResults!)}`,
        )
      }
      console.log('[waitlist crowd] per round:', outcome)
      expect(unexpected).toEqual([])
      expect(retriedConflicts['40P01'] ?? 0, 'deadlocks retried').toBe(deadlocksBefore)
    }, 180_000)
  },
)
