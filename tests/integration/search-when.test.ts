/**
 * Search by when (issue 16): `weekday` and `time` find classes with an upcoming, live lesson on those Tokyo
 * weekdays and times of day (class_work_schedules.slot, a generated column).
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiApp } from '../../app/api/app'
import type { ApiApp } from '../../app/api/openapi'
import { type SearchParams, searchClassWorkIds } from '../../app/api/services/class-works'
import { ClassWorkSearchResult } from '../../app/contract/v1/class-works'
import { classWorkSchedules, classWorks, users } from '../../app/db/schema'
import { type CallResult, setupApi, type TestApi } from './support/api'
import { TEST_ISSUER } from './support/constants'
import { testAuth, tokenFor } from './support/tokens'

const HOUR = 3600_000
const DAY = 24 * HOUR

let api: TestApi
let app: ApiApp
let masters: { category: number; style: number; grades: number[] }

async function call(who: string | null, method: string, path: string, body?: unknown): Promise<CallResult> {
  const h = new Headers()
  if (who) h.set('authorization', `Bearer ${await tokenFor(who)}`)
  if (body !== undefined) h.set('content-type', 'application/json')
  const res = await app.fetch(
    new Request(`http://api.test${path}`, {
      method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  )
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined }
}
const ok = (res: CallResult, status = 200) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status)
  return res.body
}

beforeAll(async () => {
  api = await setupApi()
  app = createApiApp({ getDb: async () => api.db, auth: testAuth, now: () => api.now })
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

let people = 0
async function person(teacher = false) {
  const n = ++people
  const sub = `when|person-${n}`
  const email = `when${n}@manabi.example`
  const [row] = await api.db
    .insert(users)
    .values({
      issuer: TEST_ISSUER,
      sub,
      email,
      emailVerified: true,
      nickname: `いつ${teacher ? '先生' : '会員'}${n}`,
      name: '本名',
      nameKana: 'ホンミョウ',
      role: teacher ? 'teacher' : 'parent',
      isTeacher: teacher,
      teacherVerifiedAt: teacher ? api.now : null,
      agreedToTermsAt: api.now,
    })
    .returning({ id: users.id })
  return { id: row!.id, sub, email }
}

async function classWithoutDates(teacher: { sub: string }) {
  return ok(
    await call(teacher.sub, 'POST', '/v1/teachers/class_works', {
      title: 'リクエストテスト教室',
      description: '説明です。',
      category_id: masters.category,
      class_style_id: masters.style,
      target_grade_ids: masters.grades,
      price: 0,
      capacity: 5,
      duration_minutes: 60,
      is_published: true,
    }),
    201,
  ).id as number
}

/** A schedule at a Tokyo wall time `YYYY-MM-DDTHH:mm` (one hour long). */
const scheduleAt = async (teacher: { sub: string }, classId: number, tokyo: string) => {
  const start = new Date(`${tokyo}:00+09:00`)
  return ok(
    await call(teacher.sub, 'POST', `/v1/teachers/class_works/${classId}/schedules`, {
      started_at: start.toISOString(),
      ended_at: new Date(start.getTime() + HOUR).toISOString(),
    }),
    201,
  ).id as number
}

/** A Tokyo calendar day `days` after the API's clock, and its weekday key. */
function tokyoDay(days: number) {
  const d = new Date(api.now.getTime() + 9 * HOUR + days * DAY)
  const key = (['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const)[d.getUTCDay()]!
  return { date: d.toISOString().slice(0, 10), key }
}

const search = async (body: Record<string, unknown>) =>
  ClassWorkSearchResult.parse(ok(await call(null, 'POST', '/v1/class_works/search', body)))

describe('search by weekday and time', () => {
  it('finds a class by the Tokyo weekday and part of the day of an upcoming lesson, not by a cancelled one', async () => {
    const teacher = await person(true)
    const classId = await classWithoutDates(teacher)
    const q = 'いつテスト'
    await call(teacher.sub, 'PATCH', `/v1/teachers/class_works/${classId}`, {
      title: `いつテスト教室 ${classId}`,
    })
    const day = tokyoDay(3)
    // 08:30 Tokyo is the previous day in UTC: the weekday must be Tokyo's.
    await scheduleAt(teacher, classId, `${day.date}T08:30`)
    const found = async (body: Record<string, unknown>) =>
      (await search({ q, ...body })).items.map((c) => c.id).includes(classId)
    expect(await found({ weekday: [day.key], time: ['morning'] })).toBe(true)
    expect(await found({ weekday: [day.key] })).toBe(true)
    expect(await found({ time: ['morning'] })).toBe(true)
    expect(await found({ weekday: [day.key], time: ['afternoon', 'evening'] })).toBe(false)
    const other = tokyoDay(4).key
    expect(await found({ weekday: [other] })).toBe(false)

    // An evening lesson at 17:00 sharp is evening; cancelled, it no longer counts.
    const evening = await scheduleAt(teacher, classId, `${tokyoDay(4).date}T17:00`)
    expect(await found({ weekday: [other], time: ['evening'] })).toBe(true)
    ok(await call(teacher.sub, 'POST', `/v1/teachers/class_work_schedules/${evening}/cancel`))
    expect(await found({ weekday: [other], time: ['evening'] })).toBe(false)
    const [row] = await api.db
      .select({ slot: classWorkSchedules.slot })
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.id, evening))
    expect(row!.slot % 3).toBe(2)
  })

  it('forgets a lesson once it has started, without any write (the slots are refreshed with next_start_at)', async () => {
    const teacher = await person(true)
    const classId = await classWithoutDates(teacher)
    const title = `いつ始まる教室 ${classId}`
    await call(teacher.sub, 'PATCH', `/v1/teachers/class_works/${classId}`, { title })
    const day = tokyoDay(2)
    await scheduleAt(teacher, classId, `${day.date}T10:00`)
    const later = tokyoDay(6)
    await scheduleAt(teacher, classId, `${later.date}T19:00`)
    const ids = async (body: SearchParams, now: Date) =>
      (await searchClassWorkIds(api.db, { q: title, ...body }, now)).ids
    expect(await ids({ weekday: [day.key], time: ['morning'] }, api.now)).toEqual([classId])
    const [row] = await api.db
      .select({ slots: classWorks.upcomingSlots })
      .from(classWorks)
      .where(eq(classWorks.id, classId))
    expect(row!.slots).toHaveLength(2)
    // Three days on, the first lesson is over: only the evening one still counts.
    const threeDaysOn = new Date(api.now.getTime() + 3 * DAY)
    expect(await ids({ weekday: [day.key], time: ['morning'] }, threeDaysOn)).toEqual([])
    expect(await ids({ weekday: [later.key], time: ['evening'] }, threeDaysOn)).toEqual([classId])
  })

  it('with a date range too, one lesson must be in the range and on the weekday and time', async () => {
    const teacher = await person(true)
    const classId = await classWithoutDates(teacher)
    const title = `いつ重ねる教室 ${classId}`
    await call(teacher.sub, 'PATCH', `/v1/teachers/class_works/${classId}`, { title })
    const soon = tokyoDay(3)
    const later = tokyoDay(12) // another weekday than day 3
    await scheduleAt(teacher, classId, `${soon.date}T15:00`)
    await scheduleAt(teacher, classId, `${later.date}T09:00`)
    const found = async (body: Record<string, unknown>) =>
      (await search({ q: title, ...body })).items.map((c) => c.id).includes(classId)
    // Morning on the later lesson's weekday, but in the week of the first lesson: none.
    expect(
      await found({ weekday: [later.key], time: ['morning'], from: soon.date, to: tokyoDay(4).date }),
    ).toBe(false)
    expect(await found({ time: ['morning'], from: soon.date, to: tokyoDay(4).date })).toBe(false)
    expect(await found({ weekday: [later.key], time: ['morning'], from: later.date, to: later.date })).toBe(
      true,
    )
    expect(await found({ weekday: [soon.key], from: soon.date, to: tokyoDay(4).date })).toBe(true)
  })

  it('refuses unknown weekdays and times with 400', async () => {
    for (const body of [{ weekday: ['someday'] }, { time: ['night'] }, { weekday: [] }, { weekday: 'sat' }])
      expect((await call(null, 'POST', '/v1/class_works/search', body)).status).toBe(400)
  })
})
