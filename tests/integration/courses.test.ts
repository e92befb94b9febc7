/**
 * 全N回 (issue 16, docs/decisions/0024): a course is a class whose schedules are runs of N lessons, booked together at
 * one price with one capacity, cancellable as a whole before the first lesson. Through /v1 on a real database; the
 * booking race runs on PostgreSQL too.
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { calendarFeed } from '../../app/api/services/calendar'
import { TeacherClassWork, TeacherSchedule } from '../../app/contract/v1/class-management'
import { ClassWorkDetail, ClassWorkSearchResult } from '../../app/contract/v1/class-works'
import { PurchaseList } from '../../app/contract/v1/purchases'
import {
  classAnnouncements,
  classWorkScheduleLessons,
  classWorkSchedules,
  classWorks,
  jobs,
  mails,
  purchases,
  users,
} from '../../app/db/schema'
import { startJobRunner } from '../../app/jobs/runner.server'
import { bookWith, setupApi, type TestApi } from './support/api'
import { appJobHandlers } from './support/jobs'
import { testMailSettings } from './support/mail'
import { insertPaidPurchase } from './support/payments'
import { emailOf, insertMembers, insertTeacher } from './support/people'
import { accessToken, SUBS } from './support/tokens'

const HOUR = 3_600_000
const DAY = 24 * HOUR
const WEEK = 7 * DAY

let api: TestApi
let masters: { category: number; style: number; grades: number[] }

beforeAll(async () => {
  api = await setupApi()
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
// Each test's classes belong to a teacher of its own: the demo teacher teaches the seeded lessons, and a teacher
// gives one lesson at a time (docs/decisions/0056).
let teacher = ''
beforeEach(async () => {
  teacher = await insertTeacher(api.db, 'course-teacher')
})

const at = (ms: number) => new Date(api.now.getTime() + ms).toISOString()
/** N weekly lessons of `minutes`, the first `firstIn` from now. */
const weekly = (n: number, firstIn: number, minutes = 60) =>
  Array.from({ length: n }, (_, i) => ({
    started_at: at(firstIn + i * WEEK),
    ended_at: at(firstIn + i * WEEK + minutes * 60_000),
  }))

async function createCourse(overrides: Record<string, unknown> = {}, sub: string = teacher) {
  const res = await api.as(sub, 'POST', '/v1/teachers/class_works', {
    title: `コース ${Math.random().toString(36).slice(2, 8)}`,
    description: '全4回で作品を完成させます。',
    category_id: masters.category,
    class_style_id: masters.style,
    target_grade_ids: masters.grades,
    price: 8000,
    capacity: 3,
    duration_minutes: 60,
    lesson_count: 4,
    is_published: true,
    ...overrides,
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return TeacherClassWork.parse(res.body)
}

async function addRun(classId: number, lessons: unknown, extra: Record<string, unknown> = {}) {
  return api.as(teacher, 'POST', `/v1/teachers/class_works/${classId}/schedules`, { lessons, ...extra })
}

const newMembers = (prefix: string, n: number) => insertMembers(api.db, prefix, n)

describe('a course and its runs', () => {
  it('a run is the class’s N lessons: its start and end span them, everyone sees them, cards say 全N回', async () => {
    const course = await createCourse()
    expect(course.lesson_count).toBe(4)
    const res = await addRun(course.id, weekly(4, 3 * DAY), { capacity: 2 })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    const run = TeacherSchedule.parse(res.body)
    expect(run.lessons).toHaveLength(4)
    expect(run.started_at).toBe(run.lessons[0]!.started_at)
    expect(run.ended_at).toBe(run.lessons[3]!.ended_at)
    expect(run.capacity).toBe(2)

    const detail = ClassWorkDetail.parse((await api.call('GET', `/v1/class_works/${course.id}`)).body)
    expect(detail.lesson_count).toBe(4)
    expect(detail.schedules.map((s) => s.lessons.length)).toEqual([4])
    expect(detail.next_schedule?.lessons).toHaveLength(4)

    const found = ClassWorkSearchResult.parse(
      (await api.call('POST', '/v1/class_works/search', { body: { q: course.title } })).body,
    )
    const card = found.items.find((c) => c.id === course.id)!
    expect(card.lesson_count).toBe(4)
    expect(card.next_schedule?.lessons.map((l) => l.started_at)).toEqual(run.lessons.map((l) => l.started_at))
    // A single lesson stays one lesson: its own period.
    const plain = ClassWorkSearchResult.parse(
      (await api.call('POST', '/v1/class_works/search', { body: {} })).body,
    )
    const one = plain.items.find((c) => c.lesson_count === 1 && c.next_schedule)!
    expect(one.next_schedule!.lessons).toEqual([
      { started_at: one.next_schedule!.started_at, ended_at: one.next_schedule!.ended_at },
    ])
  })

  it('refuses runs that do not fit the class: wrong count, a single period, disorder, overlaps', async () => {
    const course = await createCourse()
    const single = await addRun(course.id, undefined, { started_at: at(DAY), ended_at: at(DAY + HOUR) })
    expect([single.status, single.body.code]).toEqual([422, 'course_needs_lessons'])
    const three = await addRun(course.id, weekly(3, DAY))
    expect([three.status, three.body.code]).toEqual([422, 'lesson_count_mismatch'])
    expect(three.body.message).toBe('このクラスは全4回です。4回分の日時を入力してください')
    const backwards = await addRun(course.id, weekly(4, DAY).reverse())
    expect(backwards.status).toBe(400)
    expect(JSON.stringify(backwards.body)).toContain('第2回は第1回が終わってから始まる日時にしてください')
    const both = await addRun(course.id, weekly(4, DAY), { started_at: at(DAY), ended_at: at(DAY + HOUR) })
    expect(both.status).toBe(400)
    const past = await addRun(course.id, weekly(4, -HOUR))
    expect([past.status, past.body.code]).toEqual([422, 'starts_in_past'])
    expect(await addRun(course.id, weekly(4, 2 * DAY)).then((r) => r.status)).toBe(201)
    // Another run may interleave with this one, but no lesson may overlap one of its lessons.
    const clash = await addRun(course.id, weekly(4, 2 * DAY + 2 * WEEK + 30 * 60_000))
    expect([clash.status, clash.body.code]).toEqual([409, 'schedule_overlap'])
    expect(await addRun(course.id, weekly(4, 3 * DAY)).then((r) => r.status)).toBe(201)
    // Too many lessons for the contract.
    expect((await addRun(course.id, weekly(21, DAY))).status).toBe(400)

    // A single-lesson class takes no lessons.
    const plain = await createCourse({ lesson_count: 1 })
    const wrong = await addRun(plain.id, weekly(2, DAY))
    expect([wrong.status, wrong.body.code]).toEqual([422, 'not_a_course'])
    // Nothing was half-written by the refusals.
    const rows = await api.db
      .select({ id: classWorkSchedules.id })
      .from(classWorkSchedules)
      .where(inArray(classWorkSchedules.classWorkId, [course.id, plain.id]))
    expect(rows).toHaveLength(2)
    const lessons = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(classWorkScheduleLessons)
      .where(
        inArray(
          classWorkScheduleLessons.scheduleId,
          rows.map((r) => r.id),
        ),
      )
    expect(Number(lessons[0]!.n)).toBe(8)
  })

  it('the number of lessons is fixed once the class has a schedule', async () => {
    const course = await createCourse({ lesson_count: 3, is_published: false })
    const changed = await api.as(teacher, 'PATCH', `/v1/teachers/class_works/${course.id}`, {
      lesson_count: 5,
    })
    expect(changed.status).toBe(200)
    expect(TeacherClassWork.parse(changed.body).lesson_count).toBe(5)
    expect((await addRun(course.id, weekly(5, DAY))).status).toBe(201)
    const locked = await api.as(teacher, 'PATCH', `/v1/teachers/class_works/${course.id}`, {
      lesson_count: 2,
    })
    expect([locked.status, locked.body.code]).toEqual([409, 'lesson_count_locked'])
    const same = await api.as(teacher, 'PATCH', `/v1/teachers/class_works/${course.id}`, {
      lesson_count: 5,
      title: '名前だけ変える',
    })
    expect(same.status).toBe(200)
    const bad = await api.as(teacher, 'PATCH', `/v1/teachers/class_works/${course.id}`, {
      lesson_count: 21,
    })
    expect(bad.status).toBe(400)
  })

  it('a teacher moves the lessons of a run before it starts, not into another run, and not as one period', async () => {
    const course = await createCourse()
    const run = TeacherSchedule.parse((await addRun(course.id, weekly(4, 5 * DAY))).body)
    const moved = weekly(4, 5 * DAY)
    moved[3] = { started_at: at(5 * DAY + 4 * WEEK), ended_at: at(5 * DAY + 4 * WEEK + HOUR) }
    const res = await api.as(teacher, 'PATCH', `/v1/teachers/class_work_schedules/${run.id}`, {
      lessons: moved,
      capacity: 4,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const after = TeacherSchedule.parse(res.body)
    expect(after.lessons[3]!.started_at).toBe(moved[3]!.started_at)
    expect(after.ended_at).toBe(moved[3]!.ended_at)
    expect(after.capacity).toBe(4)
    // Capacity alone keeps the lessons.
    const cap = TeacherSchedule.parse(
      (await api.as(teacher, 'PATCH', `/v1/teachers/class_work_schedules/${run.id}`, { capacity: 3 })).body,
    )
    expect(cap.lessons).toEqual(after.lessons)
    const period = await api.as(teacher, 'PATCH', `/v1/teachers/class_work_schedules/${run.id}`, {
      started_at: at(6 * DAY),
    })
    expect([period.status, period.body.code]).toEqual([422, 'course_needs_lessons'])
    const count = await api.as(teacher, 'PATCH', `/v1/teachers/class_work_schedules/${run.id}`, {
      lessons: weekly(2, 6 * DAY),
    })
    expect([count.status, count.body.code]).toEqual([422, 'lesson_count_mismatch'])
    // Another teacher's run is not found.
    const other = await api.as(SUBS.owner, 'PATCH', `/v1/teachers/class_work_schedules/${run.id}`, {
      lessons: weekly(4, 6 * DAY),
    })
    expect(other.status).toBe(404)
  })
})

describe('a run under way, for its teacher', () => {
  it("the customer list's next lesson is the run's next lesson, not its first (already past)", async () => {
    const course = await createCourse()
    const run = TeacherSchedule.parse((await addRun(course.id, weekly(4, 3 * DAY))).body)
    const [member] = await newMembers('course-customer', 1)
    expect((await api.book(member!, { schedule_id: run.id })).status).toBe(201)
    // Lesson 1 was an hour ago.
    const first = new Date(api.now.getTime() - HOUR)
    await api.db
      .update(classWorkScheduleLessons)
      .set({ startedAt: first, endedAt: new Date(first.getTime() + 30 * 60_000) })
      .where(and(eq(classWorkScheduleLessons.scheduleId, run.id), eq(classWorkScheduleLessons.position, 1)))
    await api.db.update(classWorkSchedules).set({ startedAt: first }).where(eq(classWorkSchedules.id, run.id))
    const list = (await api.as(teacher, 'GET', '/v1/teachers/customers')).body as {
      user: { id: number }
      reservation_count: number
      last_lesson_at: string | null
      next_lesson_at: string | null
    }[]
    const memberId = await api.userId(member!)
    expect(list.find((c) => c.user.id === memberId)).toMatchObject({
      reservation_count: 1,
      last_lesson_at: first.toISOString(),
      next_lesson_at: run.lessons[1]!.started_at,
    })
  })
})

describe('booking a course', () => {
  it('one reservation holds a seat for all N lessons at the course price; the capacity is the run’s', async () => {
    const course = await createCourse({ capacity: 2 })
    const run = TeacherSchedule.parse((await addRun(course.id, weekly(4, 3 * DAY))).body)
    const [a, b, c] = await newMembers('course-book', 3)
    for (const sub of [a!, b!]) {
      const res = await api.book(sub, { schedule_id: run.id })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      expect(res.body.price).toBe(8000)
      expect(res.body.schedule.lessons).toHaveLength(4)
    }
    const full = await api.book(c!, { schedule_id: run.id })
    expect([full.status, full.body.code]).toEqual([409, 'full'])
    const [row] = await api.db
      .select({ sold: classWorkSchedules.purchasedCount })
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.id, run.id))
    expect(row!.sold).toBe(2)
    const mine = PurchaseList.parse((await api.as(a!, 'GET', '/v1/purchases?scope=upcoming')).body)
    const p = mine.find((x) => x.schedule.id === run.id)!
    expect(p.schedule.lessons.map((l) => l.started_at)).toEqual(run.lessons.map((l) => l.started_at))
    expect(p.can_cancel).toBe(true)
    expect(p.cancel_deadline).toBe(new Date(Date.parse(run.lessons[0]!.started_at) - DAY).toISOString())
    // Sales count it as one purchase.
    const sold = await api.db
      .select({ n: sql<number>`count(*)::int`, total: sql<number>`sum(${purchases.price})::int` })
      .from(purchases)
      .where(and(eq(purchases.scheduleId, run.id), eq(purchases.status, 'reserved')))
    expect([Number(sold[0]!.n), Number(sold[0]!.total)]).toEqual([2, 16000])
  })

  it('is cancelled as a whole until 24 hours before the first lesson, and not after', async () => {
    const course = await createCourse()
    const early = TeacherSchedule.parse((await addRun(course.id, weekly(4, 3 * DAY))).body)
    const soon = TeacherSchedule.parse((await addRun(course.id, weekly(4, 12 * HOUR + 2 * DAY + HOUR))).body)
    const [sub] = await newMembers('course-cancel', 1)
    const p1 = (await api.book(sub!, { schedule_id: early.id })).body
    const ok = await api.as(sub!, 'POST', `/v1/purchases/${p1.id}/cancel`)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body.status).toBe('canceled_by_user')
    // A run whose first lesson is within 24 hours: bookable, not cancellable.
    await api.db
      .update(classWorkSchedules)
      .set({ startedAt: new Date(api.now.getTime() + 12 * HOUR) })
      .where(eq(classWorkSchedules.id, soon.id))
    await api.db
      .update(classWorkScheduleLessons)
      .set({
        startedAt: new Date(api.now.getTime() + 12 * HOUR),
        endedAt: new Date(api.now.getTime() + 13 * HOUR),
      })
      .where(and(eq(classWorkScheduleLessons.scheduleId, soon.id), eq(classWorkScheduleLessons.position, 1)))
    const p2 = (await api.book(sub!, { schedule_id: soon.id })).body
    expect(p2.can_cancel).toBe(false)
    const late = await api.as(sub!, 'POST', `/v1/purchases/${p2.id}/cancel`)
    expect([late.status, late.body.code]).toEqual([409, 'cancel_deadline_passed'])
  })

  it('a run its teacher cancels is answered with its lessons, not as one long lesson', async () => {
    const course = await createCourse()
    const run = TeacherSchedule.parse((await addRun(course.id, weekly(4, 9 * DAY + 5 * HOUR))).body)
    const res = await api.as(teacher, 'POST', `/v1/teachers/class_work_schedules/${run.id}/cancel`)
    expect(res.status).toBe(200)
    const schedule = TeacherSchedule.parse(res.body.schedule)
    expect(schedule.is_canceled).toBe(true)
    expect(schedule.lessons).toEqual(run.lessons)
  })

  it('a run whose first lesson has passed cannot be booked, though later lessons are still ahead', async () => {
    const course = await createCourse()
    const run = TeacherSchedule.parse((await addRun(course.id, weekly(4, 2 * DAY))).body)
    await api.db
      .update(classWorkSchedules)
      .set({ startedAt: new Date(api.now.getTime() - HOUR) })
      .where(eq(classWorkSchedules.id, run.id))
    const [sub] = await newMembers('course-started', 1)
    const res = await api.book(sub!, { schedule_id: run.id })
    expect([res.status, res.body.code]).toEqual([409, 'started'])
  })

  it('the meeting link opens around each lesson, not in the weeks between them', async () => {
    const course = await createCourse()
    const [sub] = await newMembers('course-meet', 1)
    const memberId = await api.userId(sub!)
    // A run under way: lesson 1 a week ago, lesson 2 starting in 10 minutes, lessons 3 and 4 ahead.
    const lessons = [-WEEK, 10 * 60_000, WEEK, 2 * WEEK].map((o) => ({
      startedAt: new Date(api.now.getTime() + o),
      endedAt: new Date(api.now.getTime() + o + HOUR),
    }))
    const insertRun = async (shift: number) => {
      const ls = lessons.map((l) => ({
        startedAt: new Date(l.startedAt.getTime() + shift),
        endedAt: new Date(l.endedAt.getTime() + shift),
      }))
      const [s] = await api.db
        .insert(classWorkSchedules)
        .values({
          classWorkId: course.id,
          startedAt: ls[0]!.startedAt,
          endedAt: ls[3]!.endedAt,
          capacity: 3,
          purchasedCount: 1,
          meetingUrl: 'https://meet.manabi.example/course',
        })
        .returning({ id: classWorkSchedules.id })
      await api.db
        .insert(classWorkScheduleLessons)
        .values(ls.map((l, i) => ({ scheduleId: s!.id, position: i + 1, ...l })))
      await api.db
        .insert(purchases)
        .values({ scheduleId: s!.id, userId: memberId, price: 8000, commission: 1600 })
      return s!.id
    }
    const now = await insertRun(0)
    const between = await insertRun(2 * DAY) // lesson 2 two days off: nothing open now
    const list = PurchaseList.parse((await api.as(sub!, 'GET', '/v1/purchases?scope=upcoming')).body)
    expect(list.find((p) => p.schedule.id === now)!.meeting_url).toBe('https://meet.manabi.example/course')
    expect(list.find((p) => p.schedule.id === between)!.meeting_url).toBeNull()
  })
})

describe('a run under way', () => {
  it('takes a new meeting link for its later lessons; nothing else changes, and nothing once it has ended', async () => {
    const course = await createCourse()
    const run = TeacherSchedule.parse((await addRun(course.id, weekly(4, 2 * DAY))).body)
    // Lesson 1 has begun: the run has started, lessons 2–4 are ahead.
    await api.db
      .update(classWorkSchedules)
      .set({ startedAt: new Date(api.now.getTime() - HOUR) })
      .where(eq(classWorkSchedules.id, run.id))
    const patch = (body: unknown) =>
      api.as(teacher, 'PATCH', `/v1/teachers/class_work_schedules/${run.id}`, body)
    const url = 'https://meet.manabi.example/new-room'
    const res = await patch({ meeting_url: url })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [row] = await api.db.select().from(classWorkSchedules).where(eq(classWorkSchedules.id, run.id))
    expect(row!.meetingUrl).toBe(url)
    expect(TeacherSchedule.parse(res.body).lessons).toEqual(run.lessons)
    for (const body of [{ capacity: 10 }, { meeting_url: null, capacity: 10 }]) {
      const refused = await patch(body)
      expect([refused.status, refused.body.code], JSON.stringify(body)).toEqual([409, 'schedule_started'])
    }
    await api.db
      .update(classWorkSchedules)
      .set({ endedAt: new Date(api.now.getTime() - 1000) })
      .where(eq(classWorkSchedules.id, run.id))
    const ended = await patch({ meeting_url: null })
    expect([ended.status, ended.body.code]).toEqual([409, 'schedule_started'])
    const [after] = await api.db.select().from(classWorkSchedules).where(eq(classWorkSchedules.id, run.id))
    expect([after!.meetingUrl, after!.capacity]).toEqual([url, row!.capacity])
  })
})

describe('a course cancelled or ended', () => {
  it('a teacher cancels a run as a whole: every seat refunded, one announcement naming 全N回', async () => {
    const course = await createCourse()
    const run = TeacherSchedule.parse((await addRun(course.id, weekly(4, 4 * DAY))).body)
    const subs = await newMembers('course-teacher-cancel', 2)
    for (const sub of subs) await api.book(sub, { schedule_id: run.id })
    const res = await api.as(teacher, 'POST', `/v1/teachers/class_work_schedules/${run.id}/cancel`)
    expect(res.status).toBe(200)
    expect([res.body.canceled_reservations, res.body.refunded_amount]).toEqual([2, 16000])
    const [a] = await api.db
      .select({ title: classAnnouncements.title })
      .from(classAnnouncements)
      .where(eq(classAnnouncements.classWorkId, course.id))
    expect(a!.title).toMatch(
      /^【休講】全4回（\d{4}\/\d{1,2}\/\d{1,2}\(.\)〜\d{4}\/\d{1,2}\/\d{1,2}\(.\)） の回$/,
    )
  })

  it('the calendar feed has one event per lesson, cancelled ones included', async () => {
    const course = await createCourse()
    const run = TeacherSchedule.parse((await addRun(course.id, weekly(4, 6 * DAY))).body)
    const [sub] = await newMembers('course-calendar', 1)
    await api.book(sub!, { schedule_id: run.id })
    const token = (await api.as(sub!, 'GET', '/v1/users/calendar')).body.token as string
    const feed = await calendarFeed(api.db, token, api.now)
    const events = feed.lessons.filter((l) => l.class_work_id === course.id)
    expect(events.map((e) => [e.lesson_number, e.lesson_count, e.started_at, e.status])).toEqual(
      run.lessons.map((l, i) => [i + 1, 4, l.started_at, 'confirmed']),
    )
    await api.as(teacher, 'POST', `/v1/teachers/class_work_schedules/${run.id}/cancel`)
    const after = (await calendarFeed(api.db, token, api.now)).lessons.filter(
      (l) => l.class_work_id === course.id,
    )
    expect(after.map((e) => e.status)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled'])
  })

  it('reviews open when the last lesson has ended, not after the first', async () => {
    const course = await createCourse()
    const [sub] = await newMembers('course-review', 1)
    const memberId = await api.userId(sub!)
    const insert = async (lastEndsIn: number) => {
      const [s] = await api.db
        .insert(classWorkSchedules)
        .values({
          classWorkId: course.id,
          startedAt: new Date(api.now.getTime() - 3 * WEEK),
          endedAt: new Date(api.now.getTime() + lastEndsIn),
          capacity: 3,
          purchasedCount: 1,
        })
        .returning({ id: classWorkSchedules.id })
      await api.db.insert(purchases).values({ scheduleId: s!.id, userId: memberId, price: 0, commission: 0 })
      return s!.id
    }
    const going = await insert(WEEK)
    const ended = await insert(-HOUR)
    const past = PurchaseList.parse((await api.as(sub!, 'GET', '/v1/purchases?scope=past')).body)
    const upcoming = PurchaseList.parse((await api.as(sub!, 'GET', '/v1/purchases?scope=upcoming')).body)
    expect(upcoming.find((p) => p.schedule.id === going)?.can_review).toBe(false)
    expect(past.find((p) => p.schedule.id === ended)?.can_review).toBe(true)
  })
})

describe('reminders', () => {
  it('go out before each lesson of a run, named 第n回／全N回', async () => {
    const settings = testMailSettings()
    const course = await createCourse()
    const [sub] = await newMembers('course-remind', 1)
    const memberId = await api.userId(sub!)
    // The sweep reads the real clock: lesson 2 starts in 50 minutes, lesson 3 in 23 h 50 m.
    const realNow = Date.now()
    const offsets = [-WEEK, HOUR - 10 * 60_000, DAY - 10 * 60_000, 2 * WEEK]
    const [s] = await api.db
      .insert(classWorkSchedules)
      .values({
        classWorkId: course.id,
        startedAt: new Date(realNow + offsets[0]!),
        endedAt: new Date(realNow + offsets[3]! + HOUR),
        capacity: 3,
        purchasedCount: 1,
      })
      .returning({ id: classWorkSchedules.id })
    await api.db.insert(classWorkScheduleLessons).values(
      offsets.map((o, i) => ({
        scheduleId: s!.id,
        position: i + 1,
        startedAt: new Date(realNow + o),
        endedAt: new Date(realNow + o + HOUR),
      })),
    )
    const [p] = await api.db
      .insert(purchases)
      .values({ scheduleId: s!.id, userId: memberId, price: 8000, commission: 1600 })
      .returning({ id: purchases.id })
    const email = emailOf(sub!)
    const sweep = async () => {
      const runner = startJobRunner({
        db: api.db,
        autoStart: false,
        handlers: appJobHandlers({ mail: settings }),
        recurring: [{ kind: 'reminders.sweep', everyMs: 1000 }],
      })
      await runner.drain()
    }
    await sweep()
    await new Promise((r) => setTimeout(r, 1100))
    await sweep() // once each, however often the sweep runs
    const box = await api.db
      .select({ subject: mails.subject, text: mails.text })
      .from(mails)
      .where(eq(mails.toAddress, email))
    expect(box.map((m) => m.subject).sort()).toEqual(
      [
        `まもなく授業が始まります：${course.title}（第2回／全4回）`,
        `明日の授業のお知らせ：${course.title}（第3回／全4回）`,
      ].sort(),
    )
    await api.db.delete(jobs).where(sql`${jobs.payload}->>'purchaseId' = ${String(p!.id)}`)
  })
})

describe(`the booking race on one run (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('30 members at once for 5 seats: 5 reservations, the rest refused as full, nothing oversold', async () => {
    const course = await createCourse({ capacity: 5 })
    const run = TeacherSchedule.parse((await addRun(course.id, weekly(4, 5 * DAY))).body)
    const subs = await newMembers('course-race', 30)
    const tokens = await Promise.all(subs.map((sub) => accessToken(sub, {}, { expiresIn: 600 })))
    const results = await Promise.all(
      tokens.map((token) => bookWith(api.call, token, { schedule_id: run.id }).then((r) => r.status)),
    )
    expect(results.filter((s) => s === 201)).toHaveLength(5)
    expect(results.filter((s) => s !== 201 && s !== 409)).toEqual([])
    const [row] = await api.db
      .select({ sold: classWorkSchedules.purchasedCount })
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.id, run.id))
    const live = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(purchases)
      .where(and(eq(purchases.scheduleId, run.id), eq(purchases.status, 'reserved')))
    expect([row!.sold, Number(live[0]!.n)]).toEqual([5, 5])
    const [cls] = await api.db
      .select({ seatsSold: classWorks.seatsSold })
      .from(classWorks)
      .where(eq(classWorks.id, course.id))
    expect(cls!.seatsSold).toBe(5)
  })
})

describe('suspension', () => {
  it('stops a course run under way: its remaining lessons are cancelled and the seats refunded in full', async () => {
    const [teacherSub, memberSub, reporterSub] = await newMembers('course-suspend', 3)
    await api.db
      .update(users)
      .set({ isTeacher: true, role: 'teacher', teacherVerifiedAt: new Date(api.now.getTime() - DAY) })
      .where(eq(users.sub, teacherSub!))
    const created = await createCourse({ title: '停止されるコース' }, teacherSub!)
    const lessons = [-WEEK, WEEK, 2 * WEEK, 3 * WEEK].map((o) => ({
      startedAt: new Date(api.now.getTime() + o),
      endedAt: new Date(api.now.getTime() + o + HOUR),
    }))
    const [run] = await api.db
      .insert(classWorkSchedules)
      .values({
        classWorkId: created.id,
        startedAt: lessons[0]!.startedAt,
        endedAt: lessons[3]!.endedAt,
        capacity: 3,
        purchasedCount: 1,
      })
      .returning({ id: classWorkSchedules.id })
    await api.db
      .insert(classWorkScheduleLessons)
      .values(lessons.map((l, i) => ({ scheduleId: run!.id, position: i + 1, ...l })))
    const purchaseId = await insertPaidPurchase(api.db, {
      scheduleId: run!.id,
      userId: await api.userId(memberSub!),
      price: 8000,
    })
    const teacherId = await api.userId(teacherSub!)
    const filed = await api.as(reporterSub!, 'POST', '/v1/reports', {
      target_type: 'teacher',
      target_id: teacherId,
      reason: 'child_safety',
    })
    expect(filed.status, JSON.stringify(filed.body)).toBe(201)
    const resolved = await api.as(SUBS.operator, 'POST', `/v1/admin/reports/${filed.body.id}/resolve`, {
      action: 'suspend',
    })
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200)
    expect([resolved.body.canceled_reservations, resolved.body.refunded_amount]).toEqual([1, 8000])
    const [after] = await api.db
      .select({ status: purchases.status })
      .from(purchases)
      .where(eq(purchases.id, purchaseId))
    expect(after!.status).toBe('canceled_by_teacher')
    // The family's calendar keeps the lesson that took place; only the three still to come are 【中止】.
    const subscription = await api.as(memberSub!, 'GET', '/v1/users/calendar')
    const feed = await api.call('GET', `/v1/calendar_feeds/${subscription.body.token}`)
    expect(feed.status).toBe(200)
    expect(
      feed.body.lessons.map((l: { lesson_number: number; status: string }) => [l.lesson_number, l.status]),
    ).toEqual([
      [1, 'confirmed'],
      [2, 'cancelled'],
      [3, 'cancelled'],
      [4, 'cancelled'],
    ])
  })
})
