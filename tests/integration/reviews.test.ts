/**
 * レビュー (issue 16): a member reviews a lesson they attended once it has ended (★1–5 and a comment), once per
 * reservation; the class's teacher replies once. The class keeps a count and a sum of its visible reviews (hence
 * the average on every card and the Bayesian score that sort=rating walks), the teacher's page sums their
 * published classes, the teacher is mailed (a setting they may switch off), and an operator can hide a reported
 * review, which then no longer shows or counts. The API's clock is this file's own, so lessons can end.
 */
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApiApp } from '../../app/api/app'
import { ApiError } from '../../app/api/errors'
import type { ApiApp } from '../../app/api/openapi'
import { createReview, replyToReview } from '../../app/api/services/reviews'
import { ClassWorkDetail, ClassWorkSearchResult } from '../../app/contract/v1/class-works'
import { PurchaseList } from '../../app/contract/v1/purchases'
import { ReviewPage, ReviewReply } from '../../app/contract/v1/reviews'
import { TeacherProfile } from '../../app/contract/v1/teachers'
import {
  AdminReportList,
  AdminSuspensionList,
  ReportReceipt,
  ResolveReportResult,
} from '../../app/contract/v1/trust'
import { rowsOf } from '../../app/db/rows'
import {
  auditLog,
  classWorkSchedules,
  classWorks,
  jobs,
  mails,
  purchases,
  reports,
  reviews,
  users,
} from '../../app/db/schema'
import { retriedConflicts } from '../../app/db/transaction'
import { startJobRunner } from '../../app/jobs/runner.server'
import { type CallResult, setupApi, type TestApi } from './support/api'
import { TEST_ISSUER } from './support/constants'
import { appJobHandlers } from './support/jobs'
import { whileHeld } from './support/locks'
import { testMailSettings } from './support/mail'
import { migrationStatement } from './support/migrations'
import { SUBS, testAuth, tokenFor } from './support/tokens'

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

let api: TestApi
/** The /v1 app on this file's database, its clock read from `clock` (set by every call). */
let app: ApiApp
let clock: Date
let masters: { category: number; style: number; grades: number[] }

beforeAll(async () => {
  api = await setupApi()
  clock = api.now
  app = createApiApp({ getDb: async () => api.db, auth: testAuth, now: () => clock })
  const [cats, styles, grades] = await Promise.all(
    ['categories', 'class_styles', 'target_grades'].map(
      async (k) => (await call(null, 'GET', `/v1/master/${k}`)).body,
    ),
  )
  masters = { category: cats[0].id, style: styles[0].id, grades: [grades[0].id] }
})
afterAll(async () => {
  await api?.close()
})

const at = (ms: number) => new Date(api.now.getTime() + ms)

/** A call as `who` (a subject, or null for a visitor), with the API's clock at `when` (the seed's moment unless told). */
async function call(
  who: string | null,
  method: string,
  path: string,
  body?: unknown,
  when: Date = api.now,
): Promise<CallResult> {
  const h = new Headers()
  if (who) h.set('authorization', `Bearer ${await tokenFor(who)}`)
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
async function newPerson(o: { teacher?: boolean } = {}): Promise<Person> {
  const n = ++people
  const sub = `reviews|person-${n}`
  const email = `reviews${n}@manabi.example`
  const nickname = `${o.teacher ? 'レビュー先生' : 'レビュー会員'}${n}`
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

/** A word no seeded class contains, so a search with it finds this file's classes only. */
const uniqueWord = () => `ほしぞら${Math.random().toString(36).slice(2, 8)}`

/** A published class of `teacher` (capacity 30, free unless a price is given). */
async function createClass(teacher: Person, o: { title?: string; price?: number } = {}) {
  const res = await call(teacher.sub, 'POST', '/v1/teachers/class_works', {
    title: o.title ?? `レビューテスト教室 ${uniqueWord()}`,
    description: '説明です。',
    category_id: masters.category,
    class_style_id: masters.style,
    target_grade_ids: masters.grades,
    price: o.price ?? 0,
    capacity: 30,
    duration_minutes: 60,
    is_published: true,
  })
  const body = expectOk(res, 201) as { id: number; title: string; is_published: boolean }
  expect(body.is_published).toBe(true)
  return body
}

/** A one-hour schedule starting `startsIn` after the seed's moment; its end is when reviews may be written. */
async function addSchedule(teacher: Person, classId: number, startsIn = DAY) {
  const start = at(startsIn)
  const end = new Date(start.getTime() + HOUR)
  const res = await call(teacher.sub, 'POST', `/v1/teachers/class_works/${classId}/schedules`, {
    started_at: start.toISOString(),
    ended_at: end.toISOString(),
  })
  return { id: expectOk(res, 201).id as number, start, end }
}

const reserve = async (who: Person, scheduleId: number) =>
  expectOk(await call(who.sub, 'POST', '/v1/purchases', { schedule_id: scheduleId }), 201).id as number

interface Lesson {
  teacher: Person
  classId: number
  title: string
  schedule: { id: number; start: Date; end: Date }
  /** Members who reserved the schedule, with their reservations. */
  seats: { member: Person; purchaseId: number }[]
}

/** A published class with one schedule (starting tomorrow) that `members` new members reserved. */
async function lesson(
  o: { members?: number; teacher?: Person; title?: string; price?: number; startsIn?: number } = {},
) {
  const teacher = o.teacher ?? (await newPerson({ teacher: true }))
  const cls = await createClass(teacher, { title: o.title, price: o.price })
  const schedule = await addSchedule(teacher, cls.id, o.startsIn)
  const seats: Lesson['seats'] = []
  for (let i = 0; i < (o.members ?? 1); i++) {
    const member = await newPerson()
    seats.push({ member, purchaseId: await reserve(member, schedule.id) })
  }
  return { teacher, classId: cls.id, title: cls.title, schedule, seats } satisfies Lesson
}

const comment = (n = 0) => `とても分かりやすい授業でした。子どもも楽しんでいました（${n}）`

/** POST a review, by default an hour after the lesson ended. */
const postReview = (
  who: Person | string | null,
  purchaseId: number,
  body: unknown,
  when: Date = at(10 * DAY),
) =>
  call(
    who === null || typeof who === 'string' ? who : who.sub,
    'POST',
    `/v1/purchases/${purchaseId}/review`,
    body,
    when,
  )

/** Every seat of `l` reviews with the given ratings, one hour apart after the lesson (so the order is known). */
async function reviewAll(l: Lesson, ratings: number[]) {
  expect(ratings.length).toBeLessThanOrEqual(l.seats.length)
  const ids: number[] = []
  for (const [i, rating] of ratings.entries()) {
    const seat = l.seats[i]!
    const when = new Date(l.schedule.end.getTime() + (i + 1) * HOUR)
    ids.push(
      expectOk(await postReview(seat.member, seat.purchaseId, { rating, comment: comment(i) }, when), 201).id,
    )
  }
  return ids
}

const classRow = async (classId: number) => {
  const [row] = await api.db
    .select({
      count: classWorks.ratingCount,
      sum: classWorks.ratingSum,
      score: classWorks.ratingScore,
    })
    .from(classWorks)
    .where(eq(classWorks.id, classId))
  return row!
}

const reviewPage = async (classId: number, who: string | null = null, page?: number) =>
  ReviewPage.parse(
    expectOk(
      await call(
        who,
        'GET',
        `/v1/class_works/${classId}/reviews${page === undefined ? '' : `?page=${page}`}`,
      ),
    ),
  )

const search = async (body: Record<string, unknown>) =>
  ClassWorkSearchResult.parse(expectOk(await call(null, 'POST', '/v1/class_works/search', body)))

const reviewsOfPurchase = (purchaseId: number) =>
  api.db.select().from(reviews).where(eq(reviews.purchaseId, purchaseId))

const reviewJobs = () => api.db.select().from(jobs).where(eq(jobs.kind, 'notify.review'))

// ── writing ─────────────────────────────────────────────────────────────────────────────────────

describe('writing a review (POST /v1/purchases/{id}/review)', () => {
  it('before the lesson has ended (by the API clock) it is 422 not_ended; from its end on it is 201 and counted', async () => {
    const l = await lesson()
    const { member, purchaseId } = l.seats[0]!
    const body = { rating: 4, comment: comment() }
    for (const when of [
      api.now,
      l.schedule.start,
      new Date(l.schedule.start.getTime() + 30 * MINUTE),
      new Date(l.schedule.end.getTime() - 1),
    ])
      expectError(await postReview(member, purchaseId, body, when), 422, 'not_ended')
    expect(await reviewsOfPurchase(purchaseId)).toEqual([])
    expect(await classRow(l.classId)).toMatchObject({ count: 0, sum: 0 })

    const before = (await reviewJobs()).length
    const created = expectOk(await postReview(member, purchaseId, body, l.schedule.end), 201)
    expect(created).toEqual({ id: expect.any(Number) })
    const [row] = await reviewsOfPurchase(purchaseId)
    expect(row).toMatchObject({
      id: created.id,
      classWorkId: l.classId,
      userId: member.id,
      rating: 4,
      comment: comment(),
      status: 'visible',
      reply: null,
    })
    expect(row!.createdAt.toISOString()).toBe(l.schedule.end.toISOString())
    // Counted in the same transaction: (17.5 + 4) / (5 + 1).
    const cls = await classRow(l.classId)
    expect(cls).toMatchObject({ count: 1, sum: 4 })
    expect(cls.score).toBeCloseTo(21.5 / 6, 10)
    // The teacher's mail is queued with it.
    const queued = await reviewJobs()
    expect(queued).toHaveLength(before + 1)
    expect(queued.at(-1)!.payload).toEqual({ reviewId: created.id })
  })

  it('only the member who reserved: a visitor is 401; another member, the teacher, an operator and an unknown id 404', async () => {
    const l = await lesson()
    const { purchaseId } = l.seats[0]!
    const stranger = await newPerson()
    const body = { rating: 5, comment: comment() }
    expectError(await postReview(null, purchaseId, body), 401, 'unauthorized')
    for (const who of [stranger.sub, l.teacher.sub, SUBS.operator, SUBS.parent])
      expectError(await postReview(who, purchaseId, body), 404, 'not_found')
    expectError(await postReview(l.seats[0]!.member, 999_999_999, body), 404, 'not_found')
    // A token without a profile is the usual 404 unregistered.
    expectError(await postReview(SUBS.newUser, purchaseId, body), 404, 'unregistered')
    expect(await reviewsOfPurchase(purchaseId)).toEqual([])
    expect(await classRow(l.classId)).toMatchObject({ count: 0, sum: 0 })
  })

  it('a reservation the member cancelled, or a lesson the teacher cancelled, was not attended: 422 not_attended', async () => {
    const teacher = await newPerson({ teacher: true })
    const cls = await createClass(teacher)
    const later = await addSchedule(teacher, cls.id, 3 * DAY)
    const canceledByTeacher = await addSchedule(teacher, cls.id, 2 * DAY)
    const legacy = await addSchedule(teacher, cls.id, DAY)
    const [a, b, c] = [await newPerson(), await newPerson(), await newPerson()]
    const ownCancel = await reserve(a, later.id)
    const teacherCancel = await reserve(b, canceledByTeacher.id)
    const onCanceledSchedule = await reserve(c, legacy.id)
    expectOk(await call(a.sub, 'POST', `/v1/purchases/${ownCancel}/cancel`))
    expectOk(
      await call(teacher.sub, 'POST', `/v1/teachers/class_work_schedules/${canceledByTeacher.id}/cancel`),
    )
    // A schedule marked cancelled whose reservation still says reserved (no API path leaves it so): refused too.
    await api.db
      .update(classWorkSchedules)
      .set({ isCanceled: true })
      .where(eq(classWorkSchedules.id, legacy.id))
    const [p] = await api.db.select().from(purchases).where(eq(purchases.id, onCanceledSchedule))
    expect(p!.status).toBe('reserved')

    for (const [who, id] of [
      [a, ownCancel],
      [b, teacherCancel],
      [c, onCanceledSchedule],
    ] as const)
      expectError(await postReview(who, id, { rating: 5, comment: comment() }), 422, 'not_attended')
    expect(await api.db.select().from(reviews).where(eq(reviews.classWorkId, cls.id))).toEqual([])
    expect(await classRow(cls.id)).toMatchObject({ count: 0, sum: 0 })
  })

  it('once per reservation: the second is 409 already_reviewed and nothing changes', async () => {
    const l = await lesson()
    const { member, purchaseId } = l.seats[0]!
    expectOk(await postReview(member, purchaseId, { rating: 2, comment: comment(1) }), 201)
    const jobsBefore = (await reviewJobs()).length
    expectError(
      await postReview(member, purchaseId, { rating: 5, comment: comment(2) }, at(20 * DAY)),
      409,
      'already_reviewed',
    )
    const rows = await reviewsOfPurchase(purchaseId)
    expect(rows.map((r) => [r.rating, r.comment])).toEqual([[2, comment(1)]])
    expect(await classRow(l.classId)).toMatchObject({ count: 1, sum: 2 })
    expect(await reviewJobs()).toHaveLength(jobsBefore)
  })

  it('bad bodies and ids are 400 and write nothing; the comment is 10–1000 characters after trimming', async () => {
    const l = await lesson({ members: 2 })
    const [first, second] = l.seats as [Lesson['seats'][0], Lesson['seats'][0]]
    const ten = '楽しかったです楽しか'
    expect(ten.length).toBe(10)
    for (const body of [
      {},
      { rating: 5 },
      { comment: comment() },
      { rating: 0, comment: comment() },
      { rating: 6, comment: comment() },
      { rating: 4.5, comment: comment() },
      { rating: '5', comment: comment() },
      { rating: null, comment: comment() },
      { rating: 5, comment: ten.slice(1) }, // 9 characters
      { rating: 5, comment: `   ${ten.slice(1)}   ` }, // 9 once trimmed
      { rating: 5, comment: ' '.repeat(20) },
      { rating: 5, comment: 'あ'.repeat(1001) },
      { rating: 5, comment: `${comment()}\u0007` },
      { rating: 5, comment: 12345678901 },
      { rating: 5, comment: comment(), learner_id: 1 },
      '{"rating": 5,',
    ])
      expectError(await postReview(first.member, first.purchaseId, body), 400, 'invalid_request')
    expect(
      (await call(first.member.sub, 'POST', '/v1/purchases/abc/review', { rating: 5, comment: comment() }))
        .status,
    ).toBe(400)
    expect(await reviewsOfPurchase(first.purchaseId)).toEqual([])
    expect(await classRow(l.classId)).toMatchObject({ count: 0, sum: 0 })

    // Exactly 10 (stored trimmed) and exactly 1000 characters are fine, line breaks too.
    expectOk(await postReview(first.member, first.purchaseId, { rating: 1, comment: `  ${ten}\n` }), 201)
    expect((await reviewsOfPurchase(first.purchaseId))[0]!.comment).toBe(ten)
    const long = `${'とても良い授業でした。\n'.repeat(83)}あいうえ`
    expect(long.length).toBe(1000)
    expectOk(await postReview(second.member, second.purchaseId, { rating: 5, comment: long }), 201)
    expect(await classRow(l.classId)).toMatchObject({ count: 2, sum: 6 })
  })

  it('contact details in the comment are 422 contact_info and nothing is written', async () => {
    const l = await lesson()
    const { member, purchaseId } = l.seats[0]!
    const jobsBefore = (await reviewJobs()).length
    for (const text of [
      '楽しかったです。質問は090-1234-5678までお電話ください',
      '楽しかったです。感想は hanako.mama@example.com までどうぞ',
      '楽しかったです。LINEのIDは hanako_123 です、連絡ください',
      '楽しかったです。インスタ @hanako_123 もフォローしてね',
      '楽しかったです。ぜろきゅうぜろ いちにさんよん ごろくななはち',
    ]) {
      const res = await postReview(member, purchaseId, { rating: 5, comment: text })
      expectError(res, 422, 'contact_info')
      expect(res.body.message).toContain('レビュー')
    }
    expect(await reviewsOfPurchase(purchaseId)).toEqual([])
    expect(await classRow(l.classId)).toMatchObject({ count: 0, sum: 0 })
    expect(await reviewJobs()).toHaveLength(jobsBefore)
    // Numbers that are not contact details are fine.
    expectOk(
      await postReview(member, purchaseId, {
        rating: 5,
        comment: '3,000円で60分、10:30〜11:30の回に参加しました。2026/11/21も受けたいです',
      }),
      201,
    )
  })

  it('two simultaneous reviews of one reservation: one 201, one 409, counted once', async () => {
    const l = await lesson()
    const { member, purchaseId } = l.seats[0]!
    const jobsBefore = (await reviewJobs()).length
    const results = await Promise.all([
      postReview(member, purchaseId, { rating: 5, comment: comment(1) }),
      postReview(member, purchaseId, { rating: 3, comment: comment(2) }),
    ])
    expect(results.map((r) => r.status).sort(), JSON.stringify(results.map((r) => r.body))).toEqual([
      201, 409,
    ])
    expect(results.find((r) => r.status === 409)!.body.code).toBe('already_reviewed')
    const rows = await reviewsOfPurchase(purchaseId)
    expect(rows).toHaveLength(1)
    expect(rows[0]!.id).toBe(results.find((r) => r.status === 201)!.body.id)
    expect(await classRow(l.classId)).toMatchObject({ count: 1, sum: rows[0]!.rating })
    expect(await reviewJobs()).toHaveLength(jobsBefore + 1)
  })
})

describe('a suspension committed after the request signed in (docs/decisions/0015)', () => {
  /** The user row as the sign-in check read it, before the suspension. */
  const userRow = async (id: number) => (await api.db.select().from(users).where(eq(users.id, id)))[0]!
  const suspend = (id: number) => api.db.update(users).set({ suspendedAt: api.now }).where(eq(users.id, id))
  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => 'accepted',
      (e: unknown) => (e instanceof ApiError ? [e.status, e.code] : e),
    )

  it('a review by a member suspended since: 403 account_suspended, nothing written or counted', async () => {
    const l = await lesson()
    const { member, purchaseId } = l.seats[0]!
    const signedIn = await userRow(member.id)
    await suspend(member.id)
    const jobsBefore = (await reviewJobs()).length
    const body = { rating: 5, comment: comment() }
    expect(await refusal(createReview(api.db, signedIn, purchaseId, body, at(10 * DAY)))).toEqual([
      403,
      'account_suspended',
    ])
    expect(await reviewsOfPurchase(purchaseId)).toEqual([])
    expect(await classRow(l.classId)).toMatchObject({ count: 0, sum: 0 })
    expect(await reviewJobs()).toHaveLength(jobsBefore)
  })

  it('a reply by a teacher suspended since: 403 account_suspended, the review stays unreplied', async () => {
    const l = await lesson()
    const [reviewId] = await reviewAll(l, [4])
    const signedIn = await userRow(l.teacher.id)
    await suspend(l.teacher.id)
    expect(
      await refusal(
        replyToReview(api.db, signedIn, reviewId!, { reply: 'ありがとうございました。' }, at(11 * DAY)),
      ),
    ).toEqual([403, 'account_suspended'])
    const [row] = await api.db.select().from(reviews).where(eq(reviews.id, reviewId!))
    expect(row!.reply).toBeNull()
  })

  // Meaningful on PostgreSQL (TEST_DATABASE_URL); on PGlite, with one connection, the review runs after the commit.
  it("a review racing its member's suspension waits for it and is refused, without a deadlock", async () => {
    const l = await lesson()
    const { member, purchaseId } = l.seats[0]!
    const deadlocksBefore = retriedConflicts['40P01'] ?? 0
    let pending: Promise<CallResult> | undefined
    // As suspendAccount does: the member's row first, then (cancelling their lessons) the classes.
    await api.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, member.id)).for('update')
      await tx.update(users).set({ suspendedAt: api.now }).where(eq(users.id, member.id))
      pending = postReview(member, purchaseId, { rating: 5, comment: comment() })
      // Time for the review to go as far as its locks let it.
      await new Promise((r) => setTimeout(r, 300))
      await tx
        .select({ id: classWorks.id })
        .from(classWorks)
        .where(eq(classWorks.id, l.classId))
        .for('no key update')
    })
    expectError(await pending!, 403, 'account_suspended')
    expect(await reviewsOfPurchase(purchaseId)).toEqual([])
    expect(await classRow(l.classId)).toMatchObject({ count: 0, sum: 0 })
    expect(retriedConflicts['40P01'] ?? 0, 'deadlocks retried').toBe(deadlocksBefore)
  })
})

// ── reading ─────────────────────────────────────────────────────────────────────────────────────

describe('reading reviews (GET /v1/class_works/{id}/reviews)', () => {
  it('newest first, 10 a page, with the average (one decimal), the count and the ★1…★5 histogram', async () => {
    const l = await lesson({ members: 12 })
    const ratings = [5, 5, 5, 4, 4, 3, 5, 1, 2, 5, 5, 5] // 49 / 12 = 4.083…
    const ids = await reviewAll(l, ratings)
    const newestFirst = [...ids].reverse()

    const page1 = await reviewPage(l.classId)
    expect(page1.summary).toEqual({ average: 4.1, count: 12, histogram: [1, 1, 1, 2, 7] })
    expect([page1.page, page1.total_pages]).toEqual([1, 2])
    expect(page1.items.map((r) => r.id)).toEqual(newestFirst.slice(0, 10))
    expect(await reviewPage(l.classId, null, 1)).toEqual(page1)
    const page2 = await reviewPage(l.classId, null, 2)
    expect(page2.summary).toEqual(page1.summary)
    expect([page2.page, page2.total_pages]).toEqual([2, 2])
    expect(page2.items.map((r) => r.id)).toEqual(newestFirst.slice(10))
    const page3 = await reviewPage(l.classId, null, 3)
    expect([page3.items, page3.page, page3.total_pages]).toEqual([[], 3, 2])

    // An item: the stars, the comment, when, and the reviewer's nickname only (never a real name).
    const last = l.seats[11]!
    expect(page1.items[0]).toEqual({
      id: ids[11],
      rating: 5,
      comment: comment(11),
      created_at: new Date(l.schedule.end.getTime() + 12 * HOUR).toISOString(),
      reviewer: { nickname: last.member.nickname },
      reply: null,
      can_reply: false,
      can_report: false,
    })
    expect(JSON.stringify(page1)).not.toContain('本名')

    // Same moment: the later review first.
    const twin = await lesson({ members: 2 })
    const when = new Date(twin.schedule.end.getTime() + HOUR)
    const a = expectOk(
      await postReview(
        twin.seats[0]!.member,
        twin.seats[0]!.purchaseId,
        { rating: 4, comment: comment() },
        when,
      ),
      201,
    ).id
    const b = expectOk(
      await postReview(
        twin.seats[1]!.member,
        twin.seats[1]!.purchaseId,
        { rating: 3, comment: comment() },
        when,
      ),
      201,
    ).id
    const twins = await reviewPage(twin.classId)
    expect(twins.items.map((r) => r.id)).toEqual([b, a])
    expect(twins.summary).toEqual({ average: 3.5, count: 2, histogram: [0, 0, 1, 1, 0] })
  })

  it('a class without reviews has an empty summary; unknown, draft and bad requests are refused', async () => {
    const teacher = await newPerson({ teacher: true })
    const cls = await createClass(teacher)
    expect(await reviewPage(cls.id)).toEqual({
      summary: { average: null, count: 0, histogram: [0, 0, 0, 0, 0] },
      items: [],
      page: 1,
      total_pages: 0,
    })
    const draft = expectOk(
      await call(teacher.sub, 'POST', '/v1/teachers/class_works', {
        title: '下書きの教室',
        description: '説明です。',
        category_id: masters.category,
        class_style_id: masters.style,
        target_grade_ids: masters.grades,
        price: 0,
        capacity: 5,
        duration_minutes: 60,
      }),
      201,
    )
    expect(draft.is_published).toBe(false)
    for (const who of [null, teacher.sub]) {
      expectError(await call(who, 'GET', `/v1/class_works/${draft.id}/reviews`), 404, 'not_found')
      expectError(await call(who, 'GET', '/v1/class_works/999999999/reviews'), 404, 'not_found')
    }
    for (const q of ['?page=0', '?page=-1', '?page=abc', '?page=1.5', '?page=100000'])
      expectError(await call(null, 'GET', `/v1/class_works/${cls.id}/reviews${q}`), 400, 'invalid_request')
    expect((await call(null, 'GET', '/v1/class_works/abc/reviews')).status).toBe(400)
  })

  it('can_reply is for the class teacher on unreplied reviews; can_report for members other than the author', async () => {
    const l = await lesson({ members: 2 })
    const [r1, r2] = await reviewAll(l, [5, 2])
    const otherTeacher = await newPerson({ teacher: true })
    const bystander = await newPerson()
    const flags = async (who: string | null) =>
      Object.fromEntries(
        (await reviewPage(l.classId, who)).items.map((r) => [r.id, [r.can_reply, r.can_report]]),
      )

    expect(await flags(null)).toEqual({ [r1!]: [false, false], [r2!]: [false, false] })
    expect(await flags(l.seats[0]!.member.sub)).toEqual({ [r1!]: [false, false], [r2!]: [false, true] })
    expect(await flags(l.seats[1]!.member.sub)).toEqual({ [r1!]: [false, true], [r2!]: [false, false] })
    expect(await flags(bystander.sub)).toEqual({ [r1!]: [false, true], [r2!]: [false, true] })
    expect(await flags(otherTeacher.sub)).toEqual({ [r1!]: [false, true], [r2!]: [false, true] })
    expect(await flags(l.teacher.sub)).toEqual({ [r1!]: [true, true], [r2!]: [true, true] })

    expectOk(
      await call(l.teacher.sub, 'POST', `/v1/teachers/reviews/${r2}/reply`, {
        reply: 'ありがとうございました',
      }),
    )
    expect(await flags(l.teacher.sub)).toEqual({ [r1!]: [true, true], [r2!]: [false, true] })
  })
})

// ── replying ────────────────────────────────────────────────────────────────────────────────────

describe('reading reviews with a token that is not a member', () => {
  it('reads as a visitor: a profile not registered yet, a bad token — never a failed public page', async () => {
    const l = await lesson({ members: 1 })
    await reviewAll(l, [4])
    const visitor = await reviewPage(l.classId)
    expect(await reviewPage(l.classId, SUBS.newUser)).toEqual(visitor)
    const res = await app.fetch(
      new Request(`http://api.test/v1/class_works/${l.classId}/reviews`, {
        headers: { authorization: 'Bearer not-a-token' },
      }),
    )
    expect(res.status).toBe(200)
    expect(ReviewPage.parse(await res.json())).toEqual(visitor)
  })
})

describe('replying (POST /v1/teachers/reviews/{id}/reply)', () => {
  it('the class teacher replies once: 200 with the reply (trimmed, at the API clock), then 409 already_replied', async () => {
    const l = await lesson()
    const [id] = await reviewAll(l, [3])
    const when = at(12 * DAY)
    const res = await call(
      l.teacher.sub,
      'POST',
      `/v1/teachers/reviews/${id}/reply`,
      { reply: '  ご参加ありがとうございました。次回もお待ちしています。\n' },
      when,
    )
    const reply = ReviewReply.parse(expectOk(res))
    expect(reply).toEqual({
      id,
      reply: {
        body: 'ご参加ありがとうございました。次回もお待ちしています。',
        created_at: when.toISOString(),
      },
    })
    const [item] = (await reviewPage(l.classId)).items
    expect(item!.reply).toEqual(reply.reply)

    expectError(
      await call(l.teacher.sub, 'POST', `/v1/teachers/reviews/${id}/reply`, { reply: '二度目の返信' }),
      409,
      'already_replied',
    )
    const [row] = await api.db.select().from(reviews).where(eq(reviews.id, id!))
    expect([row!.reply, row!.repliedAt?.toISOString()]).toEqual([reply.reply.body, when.toISOString()])
  })

  it('anyone else is 404, a visitor 401; bad bodies 400; contact details 422; nothing is written', async () => {
    const l = await lesson()
    const [id] = await reviewAll(l, [4])
    const otherTeacher = await newPerson({ teacher: true })
    const path = `/v1/teachers/reviews/${id}/reply`
    expectError(await call(null, 'POST', path, { reply: 'こんにちは' }), 401, 'unauthorized')
    for (const who of [otherTeacher.sub, l.seats[0]!.member.sub, SUBS.operator, SUBS.teacher])
      expectError(await call(who, 'POST', path, { reply: 'こんにちは' }), 404, 'not_found')
    expectError(
      await call(l.teacher.sub, 'POST', '/v1/teachers/reviews/999999999/reply', { reply: 'こんにちは' }),
      404,
      'not_found',
    )
    for (const body of [
      {},
      { reply: '' },
      { reply: '   \n ' },
      { reply: 'あ'.repeat(1001) },
      { reply: 5 },
      { reply: 'ありがとう', rating: 5 },
    ])
      expectError(await call(l.teacher.sub, 'POST', path, body), 400, 'invalid_request')
    for (const reply of [
      'ご質問は 03-1234-5678 までお電話ください',
      'teacher.hanako@example.com までご連絡ください',
      'LINE ID: sensei_hanako で追加してください',
    ]) {
      const res = await call(l.teacher.sub, 'POST', path, { reply })
      expectError(res, 422, 'contact_info')
      expect(res.body.message).toContain('返信')
    }
    const [row] = await api.db.select().from(reviews).where(eq(reviews.id, id!))
    expect([row!.reply, row!.repliedAt]).toEqual([null, null])
    // One character is enough.
    expectOk(await call(l.teacher.sub, 'POST', path, { reply: '感' }))
  })

  it('two simultaneous replies: one 200, one 409', async () => {
    const l = await lesson()
    const [id] = await reviewAll(l, [5])
    const results = await Promise.all(
      ['返信その一です', '返信その二です'].map((reply) =>
        call(l.teacher.sub, 'POST', `/v1/teachers/reviews/${id}/reply`, { reply }),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
    const winner = results.find((r) => r.status === 200)!.body.reply.body
    const [row] = await api.db.select().from(reviews).where(eq(reviews.id, id!))
    expect(row!.reply).toBe(winner)
  })
})

// ── ratings on cards, in search and on the teacher's page ───────────────────────────────────────

describe('ratings on cards, in search and on the teacher page', () => {
  const word = uniqueWord()
  let teacher: Person
  /** 10 reviews averaging ★4.8 · one ★5 · none · ★4 and ★5 (4.5) · one ★3 · none (made last). */
  const c = {} as Record<'many48' | 'single5' | 'unrated' | 'avg45' | 'single3' | 'unrated2', number>

  beforeAll(async () => {
    teacher = await newPerson({ teacher: true })
    // One teacher gives one lesson at a time (0056): each class's lesson two hours after the last one.
    let startsIn = DAY
    const make = async (key: keyof typeof c, ratings: number[]) => {
      startsIn += 2 * HOUR
      const l = await lesson({ teacher, members: ratings.length, title: `${word} 教室 ${key}`, startsIn })
      await reviewAll(l, ratings)
      c[key] = l.classId
    }
    await make('many48', [5, 5, 5, 5, 4, 5, 5, 5, 4, 5])
    await make('single5', [5])
    await make('unrated', [])
    await make('avg45', [4, 5])
    await make('single3', [3])
    await make('unrated2', [])
  })

  it('every card carries its rating; the class page too', async () => {
    const found = await search({ q: word })
    expect(found.total).toBe(6)
    const rating = Object.fromEntries(found.items.map((card) => [card.id, card.rating]))
    expect(rating).toEqual({
      [c.many48]: { average: 4.8, count: 10 },
      [c.single5]: { average: 5, count: 1 },
      [c.unrated]: { average: null, count: 0 },
      [c.avg45]: { average: 4.5, count: 2 },
      [c.single3]: { average: 3, count: 1 },
      [c.unrated2]: { average: null, count: 0 },
    })
    for (const [key, id] of Object.entries(c)) {
      const detail = ClassWorkDetail.parse(expectOk(await call(null, 'GET', `/v1/class_works/${id}`)))
      expect(detail.rating, key).toEqual(rating[id])
    }
  })

  it('sort=rating: ten ★4.8 above a single ★5 (Bayesian), unrated classes after those rated above ★3.5', async () => {
    const found = await search({ q: word, sort: 'rating' })
    // Scores (17.5 + sum) / (5 + count): 65.5/15 = 4.37, 26.5/7 = 3.79, 22.5/6 = 3.75, 3.5 (none, newest first), 20.5/6 = 3.42.
    expect(found.items.map((card) => card.id)).toEqual([
      c.many48,
      c.avg45,
      c.single5,
      c.unrated2,
      c.unrated,
      c.single3,
    ])
    const scores = await Promise.all(Object.values(c).map(async (id) => (await classRow(id)).score))
    expect(scores.map((s) => Math.round(s * 1000) / 1000).sort()).toEqual(
      [65.5 / 15, 26.5 / 7, 22.5 / 6, 3.5, 3.5, 20.5 / 6].map((s) => Math.round(s * 1000) / 1000).sort(),
    )
  })

  it('rating_min keeps classes whose plain average reaches it, and never unrated ones', async () => {
    const ids = async (rating_min: number, sort = 'rating') =>
      (await search({ q: word, rating_min, sort })).items.map((card) => card.id)
    expect(await ids(5)).toEqual([c.single5])
    expect(await ids(4)).toEqual([c.many48, c.avg45, c.single5])
    expect(await ids(3)).toEqual([c.many48, c.avg45, c.single5, c.single3])
    expect(await ids(1)).toEqual([c.many48, c.avg45, c.single5, c.single3])
    expect((await ids(4, 'new')).sort()).toEqual([c.many48, c.avg45, c.single5].sort())
    for (const rating_min of [0, 0.5, 5.5, 4.8, 4.25, '4', null])
      expectError(
        await call(null, 'POST', '/v1/class_works/search', { q: word, rating_min }),
        400,
        'invalid_request',
      )
  })

  it('rating_min takes half stars (★4.5, ★3.5, as the search page offers) like whole ones', async () => {
    const ids = async (rating_min: number) =>
      (await search({ q: word, rating_min, sort: 'rating' })).items.map((card) => card.id)
    // avg45 is exactly 4.5: kept (>=); many48 4.8 and single5 5.0 too.
    expect(await ids(4.5)).toEqual([c.many48, c.avg45, c.single5])
    expect(await ids(3.5)).toEqual([c.many48, c.avg45, c.single5])
    expect(await ids(1.5)).toEqual([c.many48, c.avg45, c.single5, c.single3])
  })

  it('rating_min and sort=rating over the whole seeded catalogue agree with the cards', async () => {
    const found = await search({ rating_min: 4, sort: 'rating' })
    expect(found.items.length).toBeGreaterThan(0)
    for (const card of found.items) {
      expect(card.rating.count).toBeGreaterThan(0)
      expect(card.rating.average!).toBeGreaterThanOrEqual(4)
    }
    const rows = await api.db
      .select({ id: classWorks.id, score: classWorks.ratingScore })
      .from(classWorks)
      .where(sql`${classWorks.id} in ${found.items.map((card) => card.id)}`)
    const score = new Map(rows.map((r) => [r.id, r.score]))
    const inOrder = found.items.map((card) => score.get(card.id)!)
    expect(inOrder).toEqual([...inOrder].sort((a, b) => b - a))
  })

  it("the teacher's page sums the ratings of their published classes only", async () => {
    const profile = async () =>
      TeacherProfile.parse(expectOk(await call(null, 'GET', `/v1/teachers/${teacher.id}`))).rating
    // 48 + 5 + 9 + 3 = 65 over 14 reviews = 4.64…
    expect(await profile()).toEqual({ average: 4.6, count: 14 })
    const fresh = await newPerson({ teacher: true })
    expect(
      TeacherProfile.parse(expectOk(await call(null, 'GET', `/v1/teachers/${fresh.id}`))).rating,
    ).toEqual({
      average: null,
      count: 0,
    })

    // Unpublishing the ★3 class: its reviews leave the teacher's rating, and its review list is 404.
    expectOk(
      await call(teacher.sub, 'PATCH', `/v1/teachers/class_works/${c.single3}`, { is_published: false }),
    )
    try {
      expect(await profile()).toEqual({ average: 4.8, count: 13 }) // 62 / 13 = 4.77
      expectError(await call(null, 'GET', `/v1/class_works/${c.single3}/reviews`), 404, 'not_found')
    } finally {
      expectOk(
        await call(teacher.sub, 'PATCH', `/v1/teachers/class_works/${c.single3}`, { is_published: true }),
      )
    }
  })
})

describe('rating_min against the average the cards show (one decimal, halves rounded up)', () => {
  const word = uniqueWord()
  /** [count, sum] of each class's reviews: the first written through the API, the others' counters set directly. */
  const figures = {
    '3.95→★4.0': [20, 79],
    '4.0': [20, 80],
    '3.9': [20, 78],
    '4.45→★4.5': [20, 89],
    '4.4': [20, 88],
    '4.95→★5.0': [20, 99],
    '4.67→★4.7': [3, 14],
    '1.05→★1.1': [20, 21],
    none: [0, 0],
  } as const
  const c = {} as Record<keyof typeof figures, number>

  beforeAll(async () => {
    const teacher = await newPerson({ teacher: true })
    // The first through the API: nineteen ★4 and one ★3.
    const real = await lesson({ teacher, members: 20, title: `${word} 教室 3.95` })
    await reviewAll(real, [...Array.from({ length: 19 }, () => 4), 3])
    expect(await classRow(real.classId)).toMatchObject({ count: 20, sum: 79 })
    c['3.95→★4.0'] = real.classId
    for (const [key, [count, sum]] of Object.entries(figures)) {
      if (key === '3.95→★4.0') continue
      const { id } = await createClass(teacher, { title: `${word} 教室 ${key}` })
      await api.db.update(classWorks).set({ ratingCount: count, ratingSum: sum }).where(eq(classWorks.id, id))
      c[key as keyof typeof figures] = id
    }
  })
  // The others have counters without reviews: back to none, so that every class's counters match its reviews.
  afterAll(async () => {
    const set = Object.entries(c).filter(([key]) => key !== '3.95→★4.0')
    for (const [, id] of set)
      await api.db.update(classWorks).set({ ratingCount: 0, ratingSum: 0 }).where(eq(classWorks.id, id))
  })

  const found = async (rating_min: number) =>
    (await search({ q: word, rating_min })).items.map((card) => card.id).sort((a, b) => a - b)
  const ids = (...keys: (keyof typeof figures)[]) => keys.map((k) => c[k]).sort((a, b) => a - b)

  it('79 over 20 reviews shows ★4.0 and is found by ★4以上; 89 over 20 shows ★4.5 and is found by ★4.5以上', async () => {
    const cards = (await search({ q: word })).items
    const shown = Object.fromEntries(cards.map((card) => [card.id, card.rating.average]))
    expect(shown[c['3.95→★4.0']]).toBe(4)
    expect(shown[c['4.45→★4.5']]).toBe(4.5)
    expect(shown[c['4.95→★5.0']]).toBe(5)
    expect(await found(4)).toEqual(ids('3.95→★4.0', '4.0', '4.45→★4.5', '4.4', '4.95→★5.0', '4.67→★4.7'))
    expect(await found(4.5)).toEqual(ids('4.45→★4.5', '4.95→★5.0', '4.67→★4.7'))
    expect(await found(5)).toEqual(ids('4.95→★5.0'))
    expect(await found(1)).toEqual(
      ids(...(Object.keys(figures) as (keyof typeof figures)[])).filter((id) => id !== c.none),
    )
  })

  it('every half-star step keeps exactly the cards that show at least that many stars', async () => {
    const cards = (await search({ q: word })).items
    expect(cards).toHaveLength(Object.keys(figures).length)
    for (let rating_min = 1; rating_min <= 5; rating_min += 0.5) {
      const expected = cards
        .filter((card) => card.rating.average !== null && card.rating.average >= rating_min)
        .map((card) => card.id)
        .sort((a, b) => a - b)
      expect(await found(rating_min), `★${rating_min}以上`).toEqual(expected)
    }
  })

  it('the filter is still answered from the rating index (migration 0025 recreates it)', async () => {
    const plan = await api.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`)
      return tx.execute(sql`explain select id from class_works where rating_halves >= ${9}`)
    })
    expect(JSON.stringify(rowsOf(plan))).toContain('class_works_rating_halves_idx')
  })
})

// ── notifications ───────────────────────────────────────────────────────────────────────────────

describe("the teacher's mail", () => {
  /** Runs every due job (the review notice, then the mail it queues). */
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
  /** Review mails only (the lessons these tests set up send reservation mails too). */
  const mailbox = () =>
    api.db
      .select({ to: mails.toAddress, subject: mails.subject, text: mails.text, kind: mails.kind })
      .from(mails)
      .where(sql`${mails.kind} = 'teacher_review' or ${mails.subject} like 'レビュー%'`)
      .orderBy(mails.id)

  beforeEach(async () => {
    await runJobs()
    await api.db.delete(mails)
    await api.db.delete(jobs)
  })

  it('a review mails the class teacher (new_review) with the stars, the comment and the nickname; no one else', async () => {
    const l = await lesson({ members: 1 })
    const member = l.seats[0]!.member
    const [id] = await reviewAll(l, [4])
    await runJobs()
    const box = await mailbox()
    expect(box.map((m) => [m.to, m.subject, m.kind])).toEqual([
      [l.teacher.email, `レビューが届きました：${l.title}`, 'teacher_review'],
    ])
    expect(box[0]!.text).toContain('★★★★☆')
    expect(box[0]!.text).toContain(comment(0))
    expect(box[0]!.text).toContain(member.nickname)
    expect(box[0]!.text).toContain(`/class_search/detail/${l.classId}#reviews`)
    expect(box[0]!.text).not.toContain('本名')
    const [job] = await reviewJobs()
    expect(job!.payload).toEqual({ reviewId: id })
  })

  it('a long comment is cut to its first 300 characters in the mail, never through the middle of an emoji', async () => {
    const l = await lesson({ members: 1 })
    const seat = l.seats[0]!
    const long = `${'あ'.repeat(299)}😀${'い'.repeat(20)}`
    const when = new Date(l.schedule.end.getTime() + HOUR)
    expectOk(await postReview(seat.member, seat.purchaseId, { rating: 5, comment: long }, when), 201)
    await runJobs()
    const [mail] = await mailbox()
    expect(mail!.text).toContain(`${'あ'.repeat(299)}😀…`)
    expect(mail!.text).not.toContain('\ufffd')
  })

  it("switching 'teacher_review' off in the notification settings stops the mail; on again, it comes back", async () => {
    const l = await lesson({ members: 2 })
    const settings = async (enabled: boolean) => {
      const res = expectOk(
        await call(l.teacher.sub, 'PUT', '/v1/users/notification_settings', {
          kind: 'teacher_review',
          enabled,
        }),
      )
      expect(res.find((k: { kind: string }) => k.kind === 'teacher_review')).toMatchObject({ enabled })
    }
    const list = expectOk(await call(l.teacher.sub, 'GET', '/v1/users/notification_settings'))
    expect(list.find((k: { kind: string }) => k.kind === 'teacher_review')).toMatchObject({ enabled: true })

    await settings(false)
    const [first] = await reviewAll(l, [5])
    await runJobs()
    expect(await mailbox()).toEqual([])
    const [job] = await reviewJobs()
    expect(job!.payload).toEqual({ reviewId: first })
    expect([job!.failed, job!.finishedAt !== null]).toEqual([false, true])

    await settings(true)
    const second = l.seats[1]!
    expectOk(await postReview(second.member, second.purchaseId, { rating: 3, comment: comment(9) }), 201)
    await runJobs()
    expect((await mailbox()).map((m) => m.to)).toEqual([l.teacher.email])
  })

  it('a review an operator hid before its notice ran mails no one', async () => {
    const l = await lesson()
    const [id] = await reviewAll(l, [1])
    const reporter = await newPerson()
    const receipt = expectOk(
      await call(reporter.sub, 'POST', '/v1/reports', {
        target_type: 'review',
        target_id: id,
        reason: 'spam',
      }),
      201,
    )
    expectOk(await call(SUBS.operator, 'POST', `/v1/admin/reports/${receipt.id}/resolve`, { action: 'hide' }))
    await runJobs()
    expect(await mailbox()).toEqual([])
  })
})

// ── reports ─────────────────────────────────────────────────────────────────────────────────────

describe('reporting a review', () => {
  const report = (who: string | null, id: number, reason = 'harassment') =>
    call(who, 'POST', '/v1/reports', { target_type: 'review', target_id: id, reason })

  it('suspending the author from a review report takes every review of theirs down, and the average with it', async () => {
    const l = await lesson({ members: 2 })
    const other = await lesson({ members: 0 })
    const [kind, abusive] = await reviewAll(l, [5, 1])
    // The same member's review of another class goes too.
    const author = l.seats[1]!.member
    const seat = await reserve(author, other.schedule.id)
    const elsewhere = expectOk(await postReview(author, seat, { rating: 2, comment: comment(3) }), 201).id
    // A third, reported by someone else and not yet judged: the suspension closes that report too.
    const third = await lesson({ members: 0 })
    const thirdSeat = await reserve(author, third.schedule.id)
    const reportedToo = expectOk(
      await postReview(author, thirdSeat, { rating: 1, comment: comment(4) }),
      201,
    ).id
    expectOk(await report((await newPerson()).sub, reportedToo), 201)
    const reporter = await newPerson()
    const receipt = ReportReceipt.parse(expectOk(await report(reporter.sub, abusive!), 201))
    // Decided after the lessons (a review exists only then): the suspension cancels none of these seats.
    expectOk(
      await call(
        SUBS.operator,
        'POST',
        `/v1/admin/reports/${receipt.id}/resolve`,
        { action: 'suspend' },
        at(11 * DAY),
      ),
    )
    const page = await reviewPage(l.classId)
    expect(page.items.map((r) => r.id)).toEqual([kind])
    expect(page.summary).toEqual({ average: 5, count: 1, histogram: [0, 0, 0, 0, 1] })
    expect((await reviewPage(other.classId)).items.map((r) => r.id)).not.toContain(elsewhere)
    expect(await classRow(other.classId)).toMatchObject({ count: 0, sum: 0 })
    // Migration 0031 marks the same for suspensions made before the column.
    const marks = async () =>
      (
        await api.db
          .select({ id: reviews.id, mark: reviews.hiddenBySuspension })
          .from(reviews)
          .where(eq(reviews.userId, author.id))
          .orderBy(reviews.id)
      ).map((r) => `${r.id}:${r.mark}`)
    const marked = await marks()
    expect(marked).toEqual([`${abusive}:false`, `${elsewhere}:true`, `${reportedToo}:false`])
    await api.db.update(reviews).set({ hiddenBySuspension: false }).where(eq(reviews.userId, author.id))
    const backfill = migrationStatement('0031_review_suspension.sql', '-- Reviews hidden before this column')
    await api.db.execute(sql.raw(backfill))
    expect(await marks()).toEqual(marked)

    // Lifted: the review the suspension took down shows and counts again; the reported one stays hidden.
    const listed = AdminSuspensionList.parse(
      expectOk(await call(SUBS.operator, 'GET', '/v1/admin/suspensions')),
    ).find((s) => s.user.id === author.id)
    expect(listed).toMatchObject({ hidden_classes: 0, hidden_reviews: 1 })
    expect(
      expectOk(
        await call(SUBS.operator, 'POST', `/v1/admin/suspensions/${author.id}/lift`, {}, at(12 * DAY)),
      ),
    ).toEqual({ user_id: author.id, classes_restored: 0, reviews_restored: 1 })
    expect((await reviewPage(other.classId)).items.map((r) => r.id)).toEqual([elsewhere])
    expect(await classRow(other.classId)).toMatchObject({ count: 1, sum: 2 })
    expect((await reviewPage(l.classId)).summary).toEqual({
      average: 5,
      count: 1,
      histogram: [0, 0, 0, 0, 1],
    })
    // Both reported reviews stay hidden: the one the operator judged, and the one whose report the suspension closed.
    for (const id of [abusive!, reportedToo]) {
      const [stays] = await api.db.select().from(reviews).where(eq(reviews.id, id))
      expect(stays, String(id)).toMatchObject({ status: 'hidden', hiddenBySuspension: false })
    }
  })

  it('a review reported while its author was being suspended, then hidden on that report, stays hidden when the suspension is lifted', async () => {
    const l = await lesson({ members: 1 })
    const other = await lesson({ members: 0 })
    const author = l.seats[0]!.member
    const [first] = await reviewAll(l, [1])
    const seat = await reserve(author, other.schedule.id)
    const second = expectOk(await postReview(author, seat, { rating: 2, comment: comment(5) }), 201).id
    const receipt = ReportReceipt.parse(expectOk(await report((await newPerson()).sub, first!), 201))
    expectOk(
      await call(
        SUBS.operator,
        'POST',
        `/v1/admin/reports/${receipt.id}/resolve`,
        { action: 'suspend' },
        at(11 * DAY),
      ),
    )
    // A report on the second review read it visible, then landed after the suspension had closed the open ones.
    const [late] = await api.db
      .insert(reports)
      .values({
        reporterId: (await newPerson()).id,
        targetType: 'review',
        targetId: second,
        targetUserId: author.id,
        reason: 'harassment',
      })
      .returning({ id: reports.id })
    expectOk(
      await call(
        SUBS.operator,
        'POST',
        `/v1/admin/reports/${late!.id}/resolve`,
        { action: 'hide' },
        at(11 * DAY),
      ),
    )
    expect(
      expectOk(
        await call(SUBS.operator, 'POST', `/v1/admin/suspensions/${author.id}/lift`, {}, at(12 * DAY)),
      ),
    ).toMatchObject({ reviews_restored: 0 })
    const [stays] = await api.db.select().from(reviews).where(eq(reviews.id, second))
    expect(stays).toMatchObject({ status: 'hidden', hiddenBySuspension: false })
    expect(await classRow(other.classId)).toMatchObject({ count: 0, sum: 0 })
  })

  it('a member reports it; an operator hides it: gone from the list, the count, the average, the card and the teacher page', async () => {
    const l = await lesson({ members: 3 })
    const [good, bad, fine] = await reviewAll(l, [5, 1, 4]) // 10 / 3 = 3.3
    expect((await reviewPage(l.classId)).summary).toEqual({
      average: 3.3,
      count: 3,
      histogram: [1, 0, 0, 1, 1],
    })
    const reporter = await newPerson()

    // The author cannot report their own review; unknown ids are 404.
    expectError(await report(l.seats[1]!.member.sub, bad!), 422, 'own_content')
    expectError(await report(reporter.sub, 999_999_999), 404, 'not_found')
    expectError(await report(null, bad!), 401, 'unauthorized')

    const receipt = ReportReceipt.parse(expectOk(await report(reporter.sub, bad!), 201))
    // The teacher reports it too: the same content, one decision closes both.
    const second = ReportReceipt.parse(expectOk(await report(l.teacher.sub, bad!, 'spam'), 201))
    const list = AdminReportList.parse(
      expectOk(await call(SUBS.operator, 'GET', '/v1/admin/reports?kind=review')),
    )
    const mine = list.find((r) => r.id === receipt.id)
    expect(mine).toMatchObject({
      target_type: 'review',
      target_id: bad,
      target_summary: comment(1),
      target_url: `/class_search/detail/${l.classId}`,
      target_user: { id: l.seats[1]!.member.id, suspended: false },
      reporter: { id: reporter.id },
      status: 'open',
    })

    const when = at(15 * DAY)
    const result = ResolveReportResult.parse(
      expectOk(
        await call(
          SUBS.operator,
          'POST',
          `/v1/admin/reports/${receipt.id}/resolve`,
          { action: 'hide' },
          when,
        ),
      ),
    )
    expect(result).toMatchObject({ id: receipt.id, status: 'hidden', canceled_reservations: 0 })
    const [row] = await api.db.select().from(reviews).where(eq(reviews.id, bad!))
    expect(row!.status).toBe('hidden')
    const closed = rowsOf(
      await api.db.execute(
        sql`select id, status from reports where id in (${receipt.id}, ${second.id}) order by id`,
      ),
    )
    expect(closed).toEqual([
      { id: receipt.id, status: 'hidden' },
      { id: second.id, status: 'hidden' },
    ])
    const [audit] = await api.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'report_hide'),
          eq(auditLog.targetType, 'review'),
          eq(auditLog.targetId, String(bad)),
        ),
      )
    expect(audit!.after).toMatchObject({ status: 'hidden', reports_closed: 2, review_hidden: bad })

    // Gone from the list and from the figures: (5 + 4) / 2.
    const page = await reviewPage(l.classId)
    expect(page.items.map((r) => r.id)).toEqual([fine, good])
    expect(page.summary).toEqual({ average: 4.5, count: 2, histogram: [0, 0, 0, 1, 1] })
    expect(page.total_pages).toBe(1)
    expect(await classRow(l.classId)).toMatchObject({ count: 2, sum: 9 })
    const detail = ClassWorkDetail.parse(expectOk(await call(null, 'GET', `/v1/class_works/${l.classId}`)))
    expect(detail.rating).toEqual({ average: 4.5, count: 2 })
    const profile = TeacherProfile.parse(expectOk(await call(null, 'GET', `/v1/teachers/${l.teacher.id}`)))
    expect(profile.rating).toEqual({ average: 4.5, count: 2 })
    expect((await search({ q: l.title.split(' ').at(-1)! })).items[0]!.rating).toEqual({
      average: 4.5,
      count: 2,
    })

    // A hidden review cannot be reported again, nor replied to, nor written again by its author.
    expectError(await report(SUBS.parent, bad!), 404, 'not_found')
    expectError(
      await call(l.teacher.sub, 'POST', `/v1/teachers/reviews/${bad}/reply`, {
        reply: 'ありがとうございます',
      }),
      404,
      'not_found',
    )
    expectError(
      await postReview(l.seats[1]!.member, l.seats[1]!.purchaseId, { rating: 5, comment: comment() }),
      409,
      'already_reviewed',
    )
  })

  it('a dismissed report leaves the review shown and counted', async () => {
    const l = await lesson({ members: 2 })
    const [, target] = await reviewAll(l, [5, 2])
    const receipt = ReportReceipt.parse(expectOk(await report(l.seats[0]!.member.sub, target!), 201))
    expectOk(
      await call(SUBS.operator, 'POST', `/v1/admin/reports/${receipt.id}/resolve`, { action: 'dismiss' }),
    )
    const page = await reviewPage(l.classId)
    expect(page.items.map((r) => r.id)).toContain(target)
    expect(page.summary).toEqual({ average: 3.5, count: 2, histogram: [0, 1, 0, 0, 1] })
    expect(await classRow(l.classId)).toMatchObject({ count: 2, sum: 7 })
  })
})

describe('a cancellation whose clock is behind a review', () => {
  it('a teacher cannot cancel a lesson that has been reviewed (its clock read before the review, or behind it): 409 schedule_ended, the rating stays', async () => {
    const l = await lesson()
    const seat = l.seats[0]!
    const end = l.schedule.end.getTime()
    expectOk(
      await postReview(
        seat.member,
        seat.purchaseId,
        { rating: 4, comment: comment() },
        new Date(end + 1_000),
      ),
      201,
    )
    // The cancellation's clock is a second before the end, as when it waited for the class behind the review.
    expectError(
      await call(
        l.teacher.sub,
        'POST',
        `/v1/teachers/class_work_schedules/${l.schedule.id}/cancel`,
        undefined,
        new Date(end - 1_000),
      ),
      409,
      'schedule_ended',
    )
    const [p] = await api.db.select().from(purchases).where(eq(purchases.id, seat.purchaseId))
    expect(p?.status).toBe('reserved')
    expect(await classRow(l.classId)).toMatchObject({ count: 1, sum: 4 })
  })
})

// ── the reservations page ───────────────────────────────────────────────────────────────────────

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'a review racing the lesson’s cancellation (PostgreSQL)',
  () => {
    it('a review waiting for the class while its lesson is cancelled and refunded is 422 not_attended, and counts nothing', async () => {
      const l = await lesson()
      const seat = l.seats[0]!
      // The lesson is over; a teacher's (or an operator's) cancellation holds the class while it cancels the seats.
      const reviewed = await whileHeld(
        api,
        async (tx) => {
          await tx.select().from(classWorks).where(eq(classWorks.id, l.classId)).for('no key update')
          await tx
            .update(purchases)
            .set({ status: 'canceled_by_teacher', canceledAt: api.now })
            .where(eq(purchases.id, seat.purchaseId))
          await tx
            .update(classWorkSchedules)
            .set({ isCanceled: true })
            .where(eq(classWorkSchedules.id, l.schedule.id))
        },
        () => postReview(seat.member, seat.purchaseId, { rating: 5, comment: comment() }),
      )
      expectError(reviewed, 422, 'not_attended')
      expect(await reviewsOfPurchase(seat.purchaseId)).toHaveLength(0)
      expect(await classRow(l.classId)).toMatchObject({ count: 0, sum: 0 })
    })
  },
)

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'lifting a suspension while members review the same class (PostgreSQL)',
  () => {
    it('every round: the rating counts exactly the visible reviews, the restored one among them', async () => {
      const outcomes: string[] = []
      for (let n = 0; n < 4; n++) {
        const l = await lesson({ members: 7 })
        const other = await lesson({ members: 0 })
        const author = l.seats[0]!.member
        const [restorable] = await reviewAll(l, [2])
        const seat = await reserve(author, other.schedule.id)
        const reported = expectOk(await postReview(author, seat, { rating: 1, comment: comment(9) }), 201).id
        const receipt = ReportReceipt.parse(
          expectOk(
            await call((await newPerson()).sub, 'POST', '/v1/reports', {
              target_type: 'review',
              target_id: reported,
              reason: 'harassment',
            }),
            201,
          ),
        )
        const when = at(11 * DAY)
        expectOk(
          await call(
            SUBS.operator,
            'POST',
            `/v1/admin/reports/${receipt.id}/resolve`,
            { action: 'suspend' },
            when,
          ),
        )
        const results = await Promise.all([
          call(SUBS.operator, 'POST', `/v1/admin/suspensions/${author.id}/lift`, {}, when),
          ...l.seats
            .slice(1)
            .map((s, i) =>
              postReview(s.member, s.purchaseId, { rating: (i % 5) + 1, comment: comment(i) }, when),
            ),
        ])
        const visible = await api.db
          .select({ rating: reviews.rating })
          .from(reviews)
          .where(and(eq(reviews.classWorkId, l.classId), eq(reviews.status, 'visible')))
        const row = await classRow(l.classId)
        const [back] = await api.db.select().from(reviews).where(eq(reviews.id, restorable!))
        outcomes.push(
          [
            results.map((r) => r.status).join(','),
            `visible=${visible.length}`,
            `counted=${row.count === visible.length && row.sum === visible.reduce((a, r) => a + r.rating, 0)}`,
            `restored=${back!.status}`,
          ].join(' '),
        )
      }
      expect(outcomes).toEqual(
        Array(4).fill('200,201,201,201,201,201,201 visible=7 counted=true restored=visible'),
      )
    })
  },
)

describe("the member's reservations (GET /v1/purchases)", () => {
  it('can_review only for ended, attended lessons without a review; the review shows once written', async () => {
    const teacher = await newPerson({ teacher: true })
    const cls = await createClass(teacher)
    const ended = await addSchedule(teacher, cls.id, DAY)
    const canceledByMe = await addSchedule(teacher, cls.id, 2 * DAY)
    const canceledByTeacher = await addSchedule(teacher, cls.id, 2 * DAY + 3 * HOUR)
    const upcoming = await addSchedule(teacher, cls.id, 5 * DAY)
    const member = await newPerson()
    const p = {
      ended: await reserve(member, ended.id),
      canceledByMe: await reserve(member, canceledByMe.id),
      canceledByTeacher: await reserve(member, canceledByTeacher.id),
      upcoming: await reserve(member, upcoming.id),
    }
    expectOk(await call(member.sub, 'POST', `/v1/purchases/${p.canceledByMe}/cancel`))
    expectOk(
      await call(teacher.sub, 'POST', `/v1/teachers/class_work_schedules/${canceledByTeacher.id}/cancel`),
    )

    const list = async (scope: 'past' | 'upcoming', when: Date) =>
      Object.fromEntries(
        PurchaseList.parse(
          expectOk(await call(member.sub, 'GET', `/v1/purchases?scope=${scope}`, undefined, when)),
        ).map((x) => [x.id, { can_review: x.can_review, review: x.review }]),
      )
    const none = { can_review: false, review: null }

    // Before anything ended: nothing to review.
    expect(await list('upcoming', api.now)).toEqual({
      [p.ended]: none,
      [p.canceledByMe]: none,
      [p.canceledByTeacher]: none,
      [p.upcoming]: none,
    })
    // At the end of the first lesson (ended_at <= now), it can be reviewed.
    expect(await list('past', ended.end)).toEqual({ [p.ended]: { can_review: true, review: null } })

    const when = at(4 * DAY)
    expect(await list('past', when)).toEqual({
      [p.ended]: { can_review: true, review: null },
      [p.canceledByMe]: none,
      [p.canceledByTeacher]: none,
    })
    expect(await list('upcoming', when)).toEqual({ [p.upcoming]: none })

    const { id } = expectOk(await postReview(member, p.ended, { rating: 4, comment: comment() }, when), 201)
    expect(await list('past', when)).toEqual({
      [p.ended]: { can_review: false, review: { id, rating: 4 } },
      [p.canceledByMe]: none,
      [p.canceledByTeacher]: none,
    })
  })

  it("the demo seed reviewed other members' lessons, never the demo parent's, and the counters match", async () => {
    const parentId = await api.userId(SUBS.parent)
    const [mine] = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(reviews)
      .innerJoin(purchases, eq(purchases.id, reviews.purchaseId))
      .where(eq(purchases.userId, parentId))
    expect(Number(mine!.n)).toBe(0)
    const seeded = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(reviews)
      .where(sql`${reviews.createdAt} <= ${api.now.toISOString()}::timestamptz`)
    expect(Number(seeded[0]!.n)).toBeGreaterThan(0)

    // Every class's counters are its visible reviews (the seed's and this file's alike).
    const mismatched = rowsOf(
      await api.db.execute(sql`
      select c.id, c.rating_count, c.rating_sum, coalesce(r.n, 0) as n, coalesce(r.total, 0) as total
      from class_works c
      left join (select class_work_id, count(*)::int as n, sum(rating)::int as total
                 from reviews where status = 'visible' group by class_work_id) r on r.class_work_id = c.id
      where c.rating_count <> coalesce(r.n, 0) or c.rating_sum <> coalesce(r.total, 0)`),
    )
    expect(mismatched).toEqual([])

    // The seeded reviews are written after their lessons ended, by the member who reserved, on reserved seats.
    const wrong = rowsOf(
      await api.db.execute(sql`
      select r.id from reviews r
      join purchases p on p.id = r.purchase_id
      join class_work_schedules s on s.id = p.schedule_id
      where r.user_id <> p.user_id or s.class_work_id <> r.class_work_id or r.created_at < s.ended_at
        or p.status <> 'reserved' or s.is_canceled`),
    )
    expect(wrong).toEqual([])

    // The demo parent still has lessons to review.
    const past = PurchaseList.parse(expectOk(await call(SUBS.parent, 'GET', '/v1/purchases?scope=past')))
    expect(past.every((x) => x.review === null)).toBe(true)
    expect(past.some((x) => x.can_review)).toBe(true)
  })
})
