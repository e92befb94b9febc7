/**
 * リクエスト開催 (issue 16): members ask for a date of a class that has none coming; the teacher sees the open
 * requests; a new schedule mails everyone who asked, once, and closes their requests.
 */
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiApp } from '../../app/api/app'
import type { ApiApp } from '../../app/api/openapi'
import { ClassRequestList } from '../../app/contract/v1/requests'
import { classRequests, classWorkSchedules, classWorks, jobs, mails, users } from '../../app/db/schema'
import { startJobRunner } from '../../app/jobs/runner.server'
import { type CallResult, setupApi, type TestApi } from './support/api'
import { TEST_ISSUER } from './support/constants'
import { appJobHandlers } from './support/jobs'
import { testMailSettings } from './support/mail'
import { insertMembers } from './support/people'
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
const refused = (res: CallResult, status: number, code: string) =>
  expect([res.status, res.body?.code], JSON.stringify(res.body)).toEqual([status, code])

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
  const sub = `requests|person-${n}`
  const email = `requests${n}@manabi.example`
  const [row] = await api.db
    .insert(users)
    .values({
      issuer: TEST_ISSUER,
      sub,
      email,
      emailVerified: true,
      nickname: `リクエスト${teacher ? '先生' : '会員'}${n}`,
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

const addSchedule = async (teacher: { sub: string }, classId: number, inDays: number) => {
  const start = new Date(api.now.getTime() + inDays * DAY)
  return ok(
    await call(teacher.sub, 'POST', `/v1/teachers/class_works/${classId}/schedules`, {
      started_at: start.toISOString(),
      ended_at: new Date(start.getTime() + HOUR).toISOString(),
    }),
    201,
  ).id as number
}

/** Runs every due job (the request notice, then the mails it queues). */
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

describe('リクエスト開催', () => {
  it('members ask with weekdays and times; the teacher sees them; a new date mails each of them once', async () => {
    const teacher = await person(true)
    const a = await person()
    const b = await person()
    const classId = await classWithoutDates(teacher)
    const body = { weekdays: ['sat', 'sun', 'sat'], times: ['morning'], note: '土日の午前だと助かります' }
    expect(
      ok(await call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, body), 201).request_count,
    ).toBe(1)
    expect(
      ok(
        await call(b.sub, 'POST', `/v1/class_works/${classId}/requests`, {
          weekdays: ['wed'],
          times: ['evening'],
        }),
        201,
      ).request_count,
    ).toBe(2)
    refused(await call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, body), 409, 'already_requested')
    refused(await call(teacher.sub, 'POST', `/v1/class_works/${classId}/requests`, body), 422, 'own_class')

    const list = ClassRequestList.parse(
      ok(await call(teacher.sub, 'GET', `/v1/teachers/class_works/${classId}/requests`)),
    )
    expect(list.count).toBe(2)
    expect(list.items[0]).toMatchObject({
      weekdays: ['sat', 'sun'],
      times: ['morning'],
      note: '土日の午前だと助かります',
    })
    // Another teacher, a member: 404.
    const other = await person(true)
    refused(await call(other.sub, 'GET', `/v1/teachers/class_works/${classId}/requests`), 404, 'not_found')
    refused(await call(a.sub, 'GET', `/v1/teachers/class_works/${classId}/requests`), 404, 'not_found')

    await addSchedule(teacher, classId, 5)
    await runJobs()
    for (const who of [a, b]) {
      const got = await api.db.select().from(mails).where(eq(mails.toAddress, who.email))
      expect(got.map((m) => m.subject)).toEqual([
        'リクエストしたクラスの日程が決まりました：リクエストテスト教室',
      ])
    }
    const open = await api.db.select().from(classRequests).where(eq(classRequests.classWorkId, classId))
    expect(open.every((r) => r.notifiedAt !== null)).toBe(true)
    expect(
      ClassRequestList.parse(
        ok(await call(teacher.sub, 'GET', `/v1/teachers/class_works/${classId}/requests`)),
      ).count,
    ).toBe(0)
    // A second date mails nobody again.
    await addSchedule(teacher, classId, 6)
    await runJobs()
    expect((await api.db.select().from(mails).where(eq(mails.toAddress, a.email))).length).toBe(1)
  })

  it('a member reads whether they have an open request: their own only, and none once a date answers it', async () => {
    const teacher = await person(true)
    const a = await person()
    const b = await person()
    const classId = await classWithoutDates(teacher)
    const mine = (who: string | null, id: number | string = classId) =>
      call(who, 'GET', `/v1/class_works/${id}/requests/mine`)
    expect(ok(await mine(a.sub))).toEqual({ requested: false, requested_at: null })
    ok(
      await call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, {
        weekdays: ['mon'],
        times: ['evening'],
      }),
      201,
    )
    expect(ok(await mine(a.sub))).toEqual({ requested: true, requested_at: api.now.toISOString() })
    // Another member's request is not theirs to see.
    expect(ok(await mine(b.sub))).toEqual({ requested: false, requested_at: null })
    refused(await mine(null), 401, 'unauthorized')
    refused(await mine(a.sub, 99_999_999), 404, 'not_found')
    refused(await mine(a.sub, 'abc'), 400, 'invalid_request')
    // A class the public cannot see is not found, as its page is.
    await api.db.update(classWorks).set({ isPublished: false }).where(eq(classWorks.id, classId))
    refused(await mine(a.sub), 404, 'not_found')
    await api.db.update(classWorks).set({ isPublished: true }).where(eq(classWorks.id, classId))
    // A new date answers the request: it is no longer open, and the member may ask again later.
    await addSchedule(teacher, classId, 5)
    await runJobs()
    expect(ok(await mine(a.sub))).toEqual({ requested: false, requested_at: null })
  })

  it('a request and a new date at the same moment: the request is refused (409) or its member is told of the date, never neither', async () => {
    const teacher = await person(true)
    const rounds = 12
    const results = await Promise.all(
      Array.from({ length: rounds }, async (_, i) => {
        const member = await person()
        const classId = await classWithoutDates(teacher)
        const [request, schedule] = await Promise.all([
          call(member.sub, 'POST', `/v1/class_works/${classId}/requests`, {
            weekdays: ['sat'],
            times: ['morning'],
          }),
          // An hour apart (2.4 h): one teacher gives one lesson at a time (0056).
          (async () => addSchedule(teacher, classId, 4 + i / 10))(),
        ])
        return { request, schedule }
      }),
    )
    for (const { request, schedule } of results) {
      if (request.status === 409) {
        expect(request.body.code).toBe('has_schedule')
        continue
      }
      expect(request.status, JSON.stringify(request.body)).toBe(201)
      // Accepted: the date's transaction came after it, counted it and queued the notice.
      const notices = await api.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `requests:${schedule}`))
      expect(notices, `request ${request.body.id}, schedule ${schedule}`).toHaveLength(1)
    }
  })

  it('a date added while the class is not published closes no request; publishing it tells the requesters', async () => {
    const teacher = await person(true)
    const a = await person()
    const classId = await classWithoutDates(teacher)
    ok(
      await call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, {
        weekdays: ['sat'],
        times: ['morning'],
      }),
      201,
    )
    ok(await call(teacher.sub, 'PATCH', `/v1/teachers/class_works/${classId}`, { is_published: false }))
    await addSchedule(teacher, classId, 5)
    await runJobs()
    const mailsToA = () => api.db.select().from(mails).where(eq(mails.toAddress, a.email))
    expect(await mailsToA()).toEqual([])
    const list = async () =>
      ClassRequestList.parse(
        ok(await call(teacher.sub, 'GET', `/v1/teachers/class_works/${classId}/requests`)),
      )
    expect((await list()).count).toBe(1)
    ok(await call(teacher.sub, 'PATCH', `/v1/teachers/class_works/${classId}`, { is_published: true }))
    await runJobs()
    expect((await mailsToA()).map((m) => m.subject)).toEqual([
      'リクエストしたクラスの日程が決まりました：リクエストテスト教室',
    ])
    expect((await list()).count).toBe(0)
  })

  it('a notice that runs after its date has begun mails nobody and leaves the requests open', async () => {
    const teacher = await person(true)
    const a = await person()
    const classId = await classWithoutDates(teacher)
    ok(
      await call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, {
        weekdays: ['sat'],
        times: ['morning'],
      }),
      201,
    )
    const scheduleId = await addSchedule(teacher, classId, 1)
    // The runner was away until the lesson was under way.
    const started = new Date(Date.now() - 10 * 60_000)
    await api.db
      .update(classWorkSchedules)
      .set({ startedAt: started, endedAt: new Date(started.getTime() + HOUR) })
      .where(eq(classWorkSchedules.id, scheduleId))
    await runJobs()
    expect(await api.db.select().from(mails).where(eq(mails.toAddress, a.email))).toEqual([])
    const list = ClassRequestList.parse(
      ok(await call(teacher.sub, 'GET', `/v1/teachers/class_works/${classId}/requests`)),
    )
    expect(list.count).toBe(1)
  })

  it('the teacher’s count is of every open request, past the 500 the list shows', async () => {
    const teacher = await person(true)
    const classId = await classWithoutDates(teacher)
    const subs = await insertMembers(api.db, 'requests-many', 501)
    const ids = await api.db.select({ id: users.id }).from(users).where(inArray(users.sub, subs))
    await api.db.insert(classRequests).values(
      ids.map((u) => ({
        classWorkId: classId,
        userId: u.id,
        weekdays: ['sat'],
        times: ['morning'],
        note: '',
      })),
    )
    const list = ClassRequestList.parse(
      ok(await call(teacher.sub, 'GET', `/v1/teachers/class_works/${classId}/requests`)),
    )
    expect([list.count, list.items.length]).toEqual([501, 500])
  })

  it('a member suspended while asking: refused (403), and no deadlock with the suspension locking their classes', async () => {
    const teacher = await person(true)
    const a = await person()
    const classId = await classWithoutDates(teacher)
    let pending: Promise<CallResult> | undefined
    // What a suspension does (reports.ts): the member's row FOR UPDATE, then the classes it takes down or cancels.
    await api.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, a.id)).for('update')
      pending = call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, {
        weekdays: ['mon'],
        times: ['morning'],
      })
      await new Promise((r) => setTimeout(r, 300))
      await tx
        .select({ id: classWorks.id })
        .from(classWorks)
        .where(eq(classWorks.id, classId))
        .for('no key update')
      await tx.update(users).set({ suspendedAt: api.now }).where(eq(users.id, a.id))
    })
    refused(await pending!, 403, 'account_suspended')
    expect(await api.db.select().from(classRequests).where(eq(classRequests.userId, a.id))).toEqual([])
  })

  it('a member suspended after asking: their request leaves the teacher’s list and every count', async () => {
    const teacher = await person(true)
    const [a, b] = [await person(), await person()]
    const classId = await classWithoutDates(teacher)
    for (const who of [a, b])
      ok(
        await call(who.sub, 'POST', `/v1/class_works/${classId}/requests`, {
          weekdays: ['mon'],
          times: ['morning'],
          note: `${who.id}より`,
        }),
        201,
      )
    await api.db.update(users).set({ suspendedAt: api.now }).where(eq(users.id, a.id))
    const list = ClassRequestList.parse(
      ok(await call(teacher.sub, 'GET', `/v1/teachers/class_works/${classId}/requests`)),
    )
    expect(list.count).toBe(1)
    expect(list.items.map((i) => i.note)).toEqual([`${b.id}より`])
    const c = await person()
    const receipt = ok(
      await call(c.sub, 'POST', `/v1/class_works/${classId}/requests`, {
        weekdays: ['tue'],
        times: ['evening'],
      }),
      201,
    ) as { request_count: number }
    expect(receipt.request_count).toBe(2)
  })

  it('is refused while a date is coming, and for bad input', async () => {
    const teacher = await person(true)
    const a = await person()
    const classId = await classWithoutDates(teacher)
    for (const body of [
      { weekdays: [], times: ['morning'] },
      { weekdays: ['mon'], times: [] },
      { weekdays: ['someday'], times: ['morning'] },
      { weekdays: ['mon'], times: ['night'] },
      { weekdays: ['mon'], times: ['morning'], note: 'x'.repeat(301) },
      { weekdays: ['mon'], times: ['morning'], user_id: 1 },
    ])
      refused(await call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, body), 400, 'invalid_request')
    refused(
      await call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, {
        weekdays: ['mon'],
        times: ['morning'],
        note: 'LINEのIDは hanako_123 です',
      }),
      422,
      'contact_info',
    )
    // Named by its field, for the form to show by the note.
    expect(
      (
        await call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, {
          weekdays: ['mon'],
          times: ['morning'],
          note: 'LINEのIDは hanako_123 です',
        })
      ).body.issues,
    ).toEqual([{ path: ['note'], message: expect.stringContaining('先生へのひとことに連絡先') }])
    expect(
      (
        await call(null, 'POST', `/v1/class_works/${classId}/requests`, {
          weekdays: ['mon'],
          times: ['morning'],
        })
      ).status,
    ).toBe(401)
    refused(
      await call(a.sub, 'POST', '/v1/class_works/999999/requests', { weekdays: ['mon'], times: ['morning'] }),
      404,
      'not_found',
    )
    await addSchedule(teacher, classId, 3)
    refused(
      await call(a.sub, 'POST', `/v1/class_works/${classId}/requests`, {
        weekdays: ['mon'],
        times: ['morning'],
      }),
      409,
      'has_schedule',
    )
    expect(await api.db.select().from(classRequests).where(eq(classRequests.userId, a.id))).toEqual([])
  })
})
