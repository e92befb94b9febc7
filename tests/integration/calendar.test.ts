/**
 * Calendar sync (issue 16): each member's private feed, addressed by a secret they can replace. The feed lists
 * their booked lessons and, as cancelled, the ones that were cancelled; the iCalendar written from it is parsed
 * back with ical.js, as a calendar app would read it.
 */
import { eq } from 'drizzle-orm'
import { DrizzleQueryError } from 'drizzle-orm/errors'
import ICAL from 'ical.js'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApiApp } from '../../app/api/app'
import type { ApiApp } from '../../app/api/openapi'
import { CalendarFeed, CalendarSubscription } from '../../app/contract/v1/calendar'
import { classWorkSchedules, purchases as purchasesTable, users } from '../../app/db/schema'
import { lessonsCalendar } from '../../app/server/calendar.server'
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
  const sub = `calendar|person-${n}`
  const [row] = await api.db
    .insert(users)
    .values({
      issuer: TEST_ISSUER,
      sub,
      email: `calendar${n}@manabi.example`,
      emailVerified: true,
      nickname: `カレンダー${teacher ? '先生' : '会員'}${n}`,
      name: '本名',
      nameKana: 'ホンミョウ',
      role: teacher ? 'teacher' : 'parent',
      isTeacher: teacher,
      teacherVerifiedAt: teacher ? api.now : null,
      agreedToTermsAt: api.now,
    })
    .returning({ id: users.id })
  return { id: row!.id, sub }
}

/** A teacher's class with two schedules (in 2 and 3 days) that `member` reserves. */
async function bookedLessons(member: { sub: string }) {
  const teacher = await person(true)
  const cls = ok(
    await call(teacher.sub, 'POST', '/v1/teachers/class_works', {
      title: 'カレンダーテスト教室',
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
  )
  const purchases: number[] = []
  const schedules: number[] = []
  for (const days of [2, 3]) {
    const start = new Date(api.now.getTime() + days * DAY)
    const s = ok(
      await call(teacher.sub, 'POST', `/v1/teachers/class_works/${cls.id}/schedules`, {
        started_at: start.toISOString(),
        ended_at: new Date(start.getTime() + HOUR).toISOString(),
      }),
      201,
    )
    schedules.push(s.id)
    purchases.push(ok(await call(member.sub, 'POST', '/v1/purchases', { schedule_id: s.id }), 201).id)
  }
  return { teacher, classId: cls.id as number, purchases, schedules }
}

describe('the calendar feed', () => {
  it('a feed read that fails in the database answers 503 and logs no secret token', async () => {
    const token = 'A'.repeat(43)
    // Every statement fails as a statement timeout would, with the token among its bound values.
    const failing = new Proxy(
      {},
      {
        get: () => () => {
          throw new DrizzleQueryError(
            'select "id" from "users" where "users"."calendar_token" = $1',
            [token],
            Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
          )
        },
      },
    )
    const broken = createApiApp({ getDb: async () => failing as never, auth: testAuth, now: () => api.now })
    const logged: unknown[][] = []
    const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      logged.push(args)
    })
    try {
      const res = await broken.request(`/v1/calendar_feeds/${token}`)
      expect(res.status).toBe(503)
    } finally {
      spy.mockRestore()
    }
    expect(logged.length).toBeGreaterThan(0)
    const text = logged.flat().map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a)))
    expect(text.join('\n')).not.toContain(token)
    expect(text.join('\n')).toContain('statement timeout')
  })

  it('is private to its secret: made on first use, the same until regenerated, then the old one is gone', async () => {
    const member = await person()
    expect((await call(null, 'GET', '/v1/users/calendar')).status).toBe(401)
    const first = CalendarSubscription.parse(ok(await call(member.sub, 'GET', '/v1/users/calendar')))
    expect(CalendarSubscription.parse(ok(await call(member.sub, 'GET', '/v1/users/calendar')))).toEqual(first)
    const feed = await call(null, 'GET', `/v1/calendar_feeds/${first.token}`)
    ok(feed)
    // Read without a cookie or token, yet one member's lessons: no shared cache may keep it (the page policy keeps
    // a handler's own Cache-Control for a request with no session).
    expect(feed.headers.get('cache-control')).toBe('private, no-store')
    const next = CalendarSubscription.parse(
      ok(await call(member.sub, 'POST', '/v1/users/calendar/regenerate')),
    )
    expect(next.token).not.toBe(first.token)
    expect((await call(null, 'GET', `/v1/calendar_feeds/${first.token}`)).status).toBe(404)
    ok(await call(null, 'GET', `/v1/calendar_feeds/${next.token}`))
    // Malformed secrets never reach the database; a well-formed unknown one is 404.
    expect((await call(null, 'GET', '/v1/calendar_feeds/short')).status).toBe(400)
    expect((await call(null, 'GET', `/v1/calendar_feeds/${'A'.repeat(43)}`)).status).toBe(404)
  })

  it("lists the member's own lessons only; a cancellation shows as cancelled and leaves the calendar", async () => {
    const member = await person()
    const other = await person()
    const { purchases, classId } = await bookedLessons(member)
    await bookedLessons(other)
    const { token } = CalendarSubscription.parse(ok(await call(member.sub, 'GET', '/v1/users/calendar')))
    let body = CalendarFeed.parse(ok(await call(null, 'GET', `/v1/calendar_feeds/${token}`)))
    expect(body.lessons.map((l) => [l.purchase_id, l.status])).toEqual([
      [purchases[0], 'confirmed'],
      [purchases[1], 'confirmed'],
    ])
    expect(body.lessons[0]).toMatchObject({ class_work_id: classId, class_title: 'カレンダーテスト教室' })

    ok(await call(member.sub, 'POST', `/v1/purchases/${purchases[0]}/cancel`))
    body = CalendarFeed.parse(ok(await call(null, 'GET', `/v1/calendar_feeds/${token}`)))
    expect(body.lessons.map((l) => [l.purchase_id, l.status])).toEqual([
      [purchases[0], 'cancelled'],
      [purchases[1], 'confirmed'],
    ])

    // As iCalendar: the cancelled one is CANCELLED, the other CONFIRMED, both at their instants.
    const text = lessonsCalendar({ name: 'x', siteOrigin: 'https://manabi.example', lessons: body.lessons })
    const component = new ICAL.Component(ICAL.parse(text))
    ICAL.TimezoneService.register(new ICAL.Timezone(component.getFirstSubcomponent('vtimezone')!))
    const events = component.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v))
    expect(events.map((e) => e.component.getFirstPropertyValue('status'))).toEqual(['CANCELLED', 'CONFIRMED'])
    // iCalendar keeps whole seconds.
    const toSecond = (iso: string) => new Date(Math.floor(Date.parse(iso) / 1000) * 1000).toISOString()
    expect(events.map((e) => e.startDate.toJSDate().toISOString())).toEqual(
      body.lessons.map((l) => toSecond(l.started_at)),
    )
  })

  it('a lesson whose time the teacher moved comes with a higher SEQUENCE and a later DTSTAMP, so calendars take it', async () => {
    const member = await person()
    const { purchases, schedules, teacher } = await bookedLessons(member)
    const { token } = CalendarSubscription.parse(ok(await call(member.sub, 'GET', '/v1/users/calendar')))
    const events = async () => {
      const body = CalendarFeed.parse(ok(await call(null, 'GET', `/v1/calendar_feeds/${token}`)))
      const text = lessonsCalendar({ name: 'x', siteOrigin: 'https://manabi.example', lessons: body.lessons })
      const component = new ICAL.Component(ICAL.parse(text))
      ICAL.TimezoneService.register(new ICAL.Timezone(component.getFirstSubcomponent('vtimezone')!))
      return component
        .getAllSubcomponents('vevent')
        .map((v) => new ICAL.Event(v))
        .find((e) => e.uid.startsWith(`lesson-${purchases[1]}@`))!
    }
    const before = await events()
    expect(before.sequence).toBe(0)
    const start = new Date(api.now.getTime() + 4 * DAY)
    const later = new Date(api.now.getTime() + 60_000)
    const clock = api.now
    api.now = later
    try {
      ok(
        await call(teacher.sub, 'PATCH', `/v1/teachers/class_work_schedules/${schedules[1]}`, {
          started_at: start.toISOString(),
          ended_at: new Date(start.getTime() + HOUR).toISOString(),
        }),
      )
    } finally {
      api.now = clock
    }
    const after = await events()
    expect(after.uid).toBe(before.uid)
    expect(after.startDate.toJSDate().getTime()).toBe(Math.floor(start.getTime() / 1000) * 1000)
    expect(after.sequence).toBe(1)
    const stamp = (e: ICAL.Event) => e.component.getFirstPropertyValue('dtstamp') as ICAL.Time
    expect(stamp(after).toJSDate().getTime()).toBeGreaterThan(stamp(before).toJSDate().getTime())
    // Cancelled after the move: higher again.
    ok(await call(member.sub, 'POST', `/v1/purchases/${purchases[1]}/cancel`))
    expect((await events()).sequence).toBe(2)
  })

  it('past its 500 lessons, the ones still to come are kept, not last month’s cancellations', async () => {
    const member = await person()
    const { purchases: booked, schedules } = await bookedLessons(member)
    // 600 seats of the past weeks, each cancelled (a busy family's history), on a lesson ten days ago.
    const past = new Date(api.now.getTime() - 10 * DAY)
    const [old] = await api.db
      .insert(classWorkSchedules)
      .values({
        classWorkId: (
          await api.db.select().from(classWorkSchedules).where(eq(classWorkSchedules.id, schedules[0]!))
        )[0]!.classWorkId,
        startedAt: past,
        endedAt: new Date(past.getTime() + HOUR),
        capacity: 5,
      })
      .returning({ id: classWorkSchedules.id })
    await api.db.insert(purchasesTable).values(
      Array.from({ length: 600 }, () => ({
        scheduleId: old!.id,
        userId: member.id,
        price: 0,
        commission: 0,
        status: 'canceled_by_user',
        createdAt: new Date(past.getTime() - DAY),
        canceledAt: new Date(past.getTime() - HOUR),
      })),
    )
    const { token } = CalendarSubscription.parse(ok(await call(member.sub, 'GET', '/v1/users/calendar')))
    const body = CalendarFeed.parse(ok(await call(null, 'GET', `/v1/calendar_feeds/${token}`)))
    expect(body.lessons).toHaveLength(500)
    // Both lessons to come are there, last in time order.
    expect(body.lessons.slice(-2).map((l) => [l.purchase_id, l.status])).toEqual([
      [booked[0], 'confirmed'],
      [booked[1], 'confirmed'],
    ])
  })

  it('stops for a suspended account', async () => {
    const member = await person()
    const { token } = CalendarSubscription.parse(ok(await call(member.sub, 'GET', '/v1/users/calendar')))
    await api.db.update(users).set({ suspendedAt: api.now }).where(eq(users.id, member.id))
    expect((await call(null, 'GET', `/v1/calendar_feeds/${token}`)).status).toBe(404)
  })
})
