import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DatabaseError, openDatabase } from '../../app/db/client'
import { rowsOf } from '../../app/db/rows'
import * as s from '../../app/db/schema'
import { alignEmbeddedIssuer, seedIfEmpty } from '../../app/db/seed'
import { MESSAGE_PAGE_SIZE } from '../../app/lib/page-sizes'
import { TEST_ISSUER } from './support/constants'
import { buildSeededDatabase, openTestDatabase, type TestDatabase } from './support/test-db'

let t: TestDatabase
beforeAll(async () => {
  t = await openTestDatabase()
})
afterAll(async () => {
  await t?.close()
})

const DAY = 86_400_000

describe('demo content', () => {
  it('has exactly the demo accounts of PRODUCT.md with a profile, and none for new/unverified/LINE', async () => {
    const rows = await t.db.select({ sub: s.users.sub, email: s.users.email }).from(s.users)
    const subs = rows.map((r) => r.sub)
    expect(subs).toEqual(expect.arrayContaining(['demo|parent', 'demo|teacher', 'demo|org-owner']))
    for (const sub of ['demo|new', 'demo|unverified', 'line|U0000000000demo']) expect(subs).not.toContain(sub)
    expect(rows.find((r) => r.sub === 'demo|parent')!.email).toBe('parent@manabi.example')
    expect(rows.find((r) => r.sub === 'demo|teacher')!.email).toBe('teacher@manabi.example')
    expect(rows.find((r) => r.sub === 'demo|org-owner')!.email).toBe('owner@manabi.example')
    for (const r of rows) expect(r.email ?? '').toMatch(/@manabi\.example$/)
    const teachers = await t.db.select().from(s.users).where(eq(s.users.isTeacher, true))
    expect(teachers).toHaveLength(12)
  })

  it('has 60+ published classes covering every category and every target grade, free and paid', async () => {
    const published = await t.db.select().from(s.classWorks).where(eq(s.classWorks.isPublished, true))
    expect(published.length).toBeGreaterThanOrEqual(60)
    const categories = await t.db.select().from(s.categories)
    expect(new Set(published.map((c) => c.categoryId)).size).toBe(categories.length)
    const grades = await t.db
      .selectDistinct({ id: s.classWorkTargetGrades.targetGradeId })
      .from(s.classWorkTargetGrades)
      .innerJoin(s.classWorks, eq(s.classWorks.id, s.classWorkTargetGrades.classWorkId))
      .where(eq(s.classWorks.isPublished, true))
    expect(grades).toHaveLength((await t.db.select().from(s.targetGrades)).length)
    expect(published.some((c) => c.price === 0)).toBe(true)
    expect(published.some((c) => c.price > 0)).toBe(true)
    for (const c of published) {
      expect(c.imageUrl).toMatch(/^\/images\//)
      expect(c.searchText.length).toBeGreaterThan(0)
    }
  })

  it('spreads schedules from 30 days ago to 60 days ahead, some full, some canceled, some held', async () => {
    const schedules = await t.db.select().from(s.classWorkSchedules)
    const offsets = schedules.map((x) => (x.startedAt.getTime() - t.now.getTime()) / DAY)
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(-31)
    expect(Math.max(...offsets)).toBeLessThanOrEqual(61)
    expect(schedules.some((x) => x.isCanceled)).toBe(true)
    expect(
      schedules.some((x) => !x.isCanceled && x.purchasedCount === x.capacity && x.startedAt > t.now),
    ).toBe(true)
    expect(schedules.some((x) => !x.isCanceled && x.purchasedCount > 0 && x.endedAt <= t.now)).toBe(true)
  })

  it('has courses (全N回) whose runs have exactly N lessons, spanned by the run, one upcoming and bookable', async () => {
    const courses = await t.db.select().from(s.classWorks).where(sql`${s.classWorks.lessonCount} > 1`)
    expect(courses.length).toBeGreaterThanOrEqual(2)
    let upcoming = 0
    for (const c of courses) {
      const runs = await t.db
        .select()
        .from(s.classWorkSchedules)
        .where(eq(s.classWorkSchedules.classWorkId, c.id))
      for (const run of runs) {
        const lessons = await t.db
          .select()
          .from(s.classWorkScheduleLessons)
          .where(eq(s.classWorkScheduleLessons.scheduleId, run.id))
          .orderBy(s.classWorkScheduleLessons.position)
        expect(lessons.map((l) => l.position)).toEqual(Array.from({ length: c.lessonCount }, (_, i) => i + 1))
        expect(lessons[0]!.startedAt).toEqual(run.startedAt)
        expect(lessons.at(-1)!.endedAt).toEqual(run.endedAt)
        if (run.startedAt > t.now && run.purchasedCount < run.capacity) upcoming++
      }
    }
    expect(upcoming).toBeGreaterThanOrEqual(2)
  })

  it('keeps purchased_count equal to the live reservations of each schedule', async () => {
    const mismatches = await t.db
      .select({ id: s.classWorkSchedules.id })
      .from(s.classWorkSchedules)
      .where(
        sql`${s.classWorkSchedules.purchasedCount} <> (select count(*) from ${s.purchases} where ${s.purchases.scheduleId} = ${s.classWorkSchedules.id} and ${s.purchases.status} = 'reserved')`,
      )
    expect(mismatches).toEqual([])
  })

  it('gives the demo parent reservations, a cancellation, favorites, follows and rooms', async () => {
    const [parent] = await t.db.select().from(s.users).where(eq(s.users.sub, 'demo|parent'))
    const purchases = await t.db.select().from(s.purchases).where(eq(s.purchases.userId, parent!.id))
    expect(purchases.filter((p) => p.status === 'reserved').length).toBeGreaterThanOrEqual(6)
    expect(purchases.filter((p) => p.status === 'canceled_by_user')).toHaveLength(1)
    expect(purchases.every((p) => p.commission === Math.round(p.price * 0.2))).toBe(true)
    expect(await t.db.select().from(s.favorites).where(eq(s.favorites.userId, parent!.id))).toHaveLength(5)
    // Three recent rooms, and a long one that pages back (more messages than a room shows at once).
    const rooms = await t.db.select().from(s.roomMembers).where(eq(s.roomMembers.userId, parent!.id))
    expect(rooms).toHaveLength(4)
    const sizes = await Promise.all(
      rooms.map(
        async (r) => (await t.db.select().from(s.messages).where(eq(s.messages.roomId, r.roomId))).length,
      ),
    )
    expect(Math.max(...sizes)).toBeGreaterThan(MESSAGE_PAGE_SIZE)
  })

  it('has 12+ published magazine articles and notices', async () => {
    const visible = await t.db
      .select()
      .from(s.magazineArticles)
      .where(sql`${s.magazineArticles.publishedAt} <= ${t.now.toISOString()}::timestamptz`)
    expect(visible.length).toBeGreaterThanOrEqual(12)
    for (const a of visible) expect(a.body).not.toMatch(/<script|on\w+=|javascript:/i)
    expect((await t.db.select().from(s.notices)).length).toBeGreaterThanOrEqual(5)
  })

  it('is not seeded twice', async () => {
    const before = (await t.db.select().from(s.classWorks)).length
    expect(await seedIfEmpty(t.db, { issuer: TEST_ISSUER, now: t.now })).toBe(false)
    expect((await t.db.select().from(s.classWorks)).length).toBe(before)
  })
})

describe('embedded issuer alignment', () => {
  it('moves the embedded provider’s users to a new origin, leaving other issuers and clashes alone', async () => {
    const auth0 = 'https://tenant.auth0.example/'
    await t.db.insert(s.users).values([
      {
        issuer: auth0,
        sub: 'auth0|abc',
        nickname: 'a',
        name: 'a',
        nameKana: 'ア',
        role: 'parent',
        agreedToTermsAt: t.now,
      },
      {
        issuer: 'http://localhost:3300/idp',
        sub: 'demo|parent',
        nickname: 'b',
        name: 'b',
        nameKana: 'ビ',
        role: 'parent',
        agreedToTermsAt: t.now,
      },
    ])
    await alignEmbeddedIssuer(t.db, 'http://localhost:3300/idp')
    const moved = await t.db.select().from(s.users).where(eq(s.users.sub, 'demo|teacher'))
    expect(moved[0]!.issuer).toBe('http://localhost:3300/idp')
    const parents = await t.db.select().from(s.users).where(eq(s.users.sub, 'demo|parent'))
    expect(parents.map((p) => p.issuer).sort()).toEqual(['http://localhost:3300/idp', TEST_ISSUER].sort())
    const [other] = await t.db
      .select()
      .from(s.users)
      .where(and(eq(s.users.sub, 'auth0|abc')))
    expect(other!.issuer).toBe(auth0)
  })
})

describe('demo content seeded at any time of day', () => {
  // Seeded 19 minutes after a demo lesson ended (the moment a run found a review dated before its lesson's end).
  it('has no review written before its lesson ended', async () => {
    const database = await buildSeededDatabase({}, new Date('2026-11-26T01:49:00Z'))
    try {
      const wrong = await database.db.execute(sql`
        select r.id from reviews r
        join purchases p on p.id = r.purchase_id
        join class_work_schedules s on s.id = p.schedule_id
        where r.created_at < s.ended_at or r.replied_at < r.created_at`)
      expect(rowsOf(wrong)).toEqual([])
    } finally {
      await database.close()
    }
  }, 120_000)
})

describe('demo teachers teach one lesson at a time', () => {
  /** Pairs of live lessons (course lessons counted one by one) of one teacher in two classes that overlap. */
  const overlapping = async (db: TestDatabase['db']) => {
    const rows = await db.execute(sql`
      with l as (
        select cw.teacher_id, cw.id as class_id,
          coalesce(sl.started_at, s.started_at) as started_at, coalesce(sl.ended_at, s.ended_at) as ended_at
        from class_work_schedules s
        join class_works cw on cw.id = s.class_work_id
        left join class_work_schedule_lessons sl on sl.schedule_id = s.id
        where not s.is_canceled)
      select a.class_id as a, b.class_id as b, a.started_at
      from l a join l b on a.teacher_id = b.teacher_id and a.class_id < b.class_id
        and a.started_at < b.ended_at and b.started_at < a.ended_at`)
    return rowsOf(rows)
  }

  it('in the test run’s content', async () => {
    expect(await overlapping(t.db)).toEqual([])
  })

  // Moments at which the seed used to give a teacher two lessons at once (7 and 5 pairs).
  for (const moment of ['2026-12-05T16:00:00Z', '2026-12-07T09:30:00Z'])
    it(`seeded at ${moment}`, async () => {
      const database = await buildSeededDatabase({}, new Date(moment))
      try {
        expect(await overlapping(database.db)).toEqual([])
      } finally {
        await database.close()
      }
    }, 120_000)
})

describe('openDatabase', () => {
  it('explains a database it cannot reach, without the password', async () => {
    const error = await openDatabase({ databaseUrl: 'postgres://someone:secret@127.0.0.1:1/nothing' }).catch(
      (e) => e,
    )
    expect(error).toBeInstanceOf(DatabaseError)
    expect(error.message).toContain('Could not connect to PostgreSQL')
    expect(error.message).not.toContain('secret')
  })
})
