import { and, eq, isNull, ne, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { changesSearchResults } from '../../app/api/search-invalidation'
import { FuriganaMap } from '../../app/contract/v1/furigana'
import { User } from '../../app/contract/v1/users'
import { rowsOf } from '../../app/db/rows'
import {
  classAnnouncements,
  classWorkSchedules,
  classWorks,
  jobs,
  purchases,
  users,
} from '../../app/db/schema'
import { stopAnalyzer } from '../../app/jobs/analyzer.server'
import { fillAllRuby, fillRuby, RUBY_FILL_KIND, rubyBacklog } from '../../app/jobs/ruby-fill.server'
import { hasKanji, rubyText } from '../../app/lib/ruby'
import { setupApi, type TestApi } from './support/api'
import { SUBS } from './support/tokens'

let api: TestApi
beforeAll(async () => {
  api = await setupApi()
})
afterAll(async () => {
  await stopAnalyzer()
  await api?.close()
})

const furigana = async (query: string, sub?: string) => {
  const res = sub
    ? await api.as(sub, 'GET', `/v1/furigana?${query}`)
    : await api.call('GET', `/v1/furigana?${query}`)
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return FuriganaMap.parse(res.body).texts
}

const teacherClass = async () => {
  const teacherId = await api.userId(SUBS.teacher)
  const rows = await api.db
    .select({ id: classWorks.id, title: classWorks.title, description: classWorks.description })
    .from(classWorks)
    .where(and(eq(classWorks.teacherId, teacherId), eq(classWorks.isPublished, true)))
    .orderBy(classWorks.id)
  return rows.find((r) => hasKanji(r.title)) ?? rows[0]!
}

const pendingFillJobs = () =>
  api.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, RUBY_FILL_KIND), isNull(jobs.finishedAt)))

describe('the ruby.fill job', () => {
  it('has read every published class, teacher introduction and announcement of the demo content', async () => {
    expect(await rubyBacklog(api.db)).toBe(0)
    const c = await teacherClass()
    const texts = await furigana(`class_ids=${c.id}`)
    expect(Object.keys(texts)).toContain(c.title)
    expect(rubyText(texts[c.title]!)).toBe(c.title)
    expect(texts[c.title]!.some((s) => typeof s !== 'string')).toBe(true)
  })

  it('reads a new title: the edit clears the ruby and queues the job in the same transaction', async () => {
    const c = await teacherClass()
    const before = (await pendingFillJobs()).length
    const title = '親子で楽しむ英語の読み聞かせ'
    const res = await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${c.id}`, { title })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [row] = await api.db
      .select({ ruby: classWorks.ruby })
      .from(classWorks)
      .where(eq(classWorks.id, c.id))
    expect(row!.ruby).toBeNull()
    expect((await pendingFillJobs()).length).toBe(before + 1)
    // Until the job has run, the page has no furigana for the new title (and none that is wrong).
    expect(await furigana(`class_ids=${c.id}`)).not.toHaveProperty(title)

    expect(await fillAllRuby(api.db)).toBeGreaterThan(0)
    const texts = await furigana(`class_ids=${c.id}`)
    expect(texts[title]).toEqual([
      ['親子', 'おやこ'],
      'で',
      ['楽', 'たの'],
      'しむ',
      ['英語', 'えいご'],
      'の',
      ['読', 'よ'],
      'み',
      ['聞', 'き'],
      'かせ',
    ])
  })

  it('an edit of anything else keeps the ruby and queues nothing', async () => {
    const c = await teacherClass()
    const before = (await pendingFillJobs()).length
    const res = await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${c.id}`, { price: 1500 })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const [row] = await api.db
      .select({ ruby: classWorks.ruby })
      .from(classWorks)
      .where(eq(classWorks.id, c.id))
    expect(row!.ruby).not.toBeNull()
    expect((await pendingFillJobs()).length).toBe(before)
  })

  it('never stores the reading of a text that changed while it was being read', async () => {
    const c = await teacherClass()
    await api.db.update(classWorks).set({ title: '算数のクラス' }).where(eq(classWorks.id, c.id))
    // The job reads the row first; the teacher's edit lands before it writes.
    if (process.env.TEST_DATABASE_URL) {
      // PostgreSQL runs the two on separate connections in either order: the edit's transaction locks the row
      // first, so the job reads the text before the edit and its write waits until the edit has committed.
      let running: Promise<unknown> | undefined
      await api.db.transaction(async (tx) => {
        // Idle while it waits for the job: not ended by the connections' idle-in-transaction timeout.
        await tx.execute(sql`set local idle_in_transaction_session_timeout = 0`)
        await tx.execute(sql`select id from ${classWorks} where id = ${c.id} for update`)
        running = fillRuby(api.db)
        running.catch(() => undefined)
        // Until the job's write waits for this transaction's lock.
        const waiting = async () =>
          rowsOf<{ n: number }>(
            await api.db.execute(
              sql`select count(*)::int as n from pg_stat_activity
                where datname = current_database() and wait_event_type = 'Lock'
                  and query ilike '%update%class_works%set ruby%'`,
            ),
          )[0]!.n
        await expect.poll(waiting, { timeout: 20_000 }).toBeGreaterThan(0)
        await tx.update(classWorks).set({ title: '数学のクラス' }).where(eq(classWorks.id, c.id))
      })
      await running
    } else {
      // PGlite runs statements in the order they are sent.
      const running = fillRuby(api.db)
      await api.db.update(classWorks).set({ title: '数学のクラス' }).where(eq(classWorks.id, c.id))
      await running
    }
    const [row] = await api.db
      .select({ ruby: classWorks.ruby })
      .from(classWorks)
      .where(eq(classWorks.id, c.id))
    expect(row!.ruby).toBeNull()
    await fillAllRuby(api.db)
    const texts = await furigana(`class_ids=${c.id}`)
    expect(texts.数学のクラス).toEqual([['数学', 'すうがく'], 'のクラス'])
    expect(texts).not.toHaveProperty('算数のクラス')
  })

  it('stores {} for texts with nothing to read', async () => {
    const c = await teacherClass()
    await api.db
      .update(classWorks)
      .set({ title: 'ピアノ', description: 'たのしいピアノ' })
      .where(eq(classWorks.id, c.id))
    await fillAllRuby(api.db)
    const [row] = await api.db
      .select({ ruby: classWorks.ruby })
      .from(classWorks)
      .where(eq(classWorks.id, c.id))
    expect(row!.ruby).toEqual({})
  })
})

describe('GET /v1/furigana', () => {
  it('teachers’ introductions for anyone; a suspended teacher’s for no one', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    await api.as(SUBS.teacher, 'PATCH', '/v1/users/me', { introduction: '小学生に算数を教えています。' })
    await fillAllRuby(api.db)
    expect(await furigana(`user_ids=${teacherId}`)).toHaveProperty('小学生に算数を教えています。')

    await api.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, teacherId))
    expect(await furigana(`user_ids=${teacherId}`)).toEqual({})
    await api.db.update(users).set({ suspendedAt: null }).where(eq(users.id, teacherId))
  })

  it('an unpublished class only for its own teacher', async () => {
    const c = await teacherClass()
    await api.db.update(classWorks).set({ title: '非公開の理科実験' }).where(eq(classWorks.id, c.id))
    await fillAllRuby(api.db)
    await api.db.update(classWorks).set({ isPublished: false }).where(eq(classWorks.id, c.id))
    expect(await furigana(`class_ids=${c.id}`)).toEqual({})
    expect(await furigana(`class_ids=${c.id}`, SUBS.parent)).toEqual({})
    expect(await furigana(`class_ids=${c.id}`, SUBS.teacher)).toHaveProperty('非公開の理科実験')
    await api.db.update(classWorks).set({ isPublished: true }).where(eq(classWorks.id, c.id))
  })

  it('an announcement only for members with a reservation in its class, and its teacher', async () => {
    const parentId = await api.userId(SUBS.parent)
    const [a] = await api.db
      .select({ id: classAnnouncements.id, title: classAnnouncements.title, teacherId: classWorks.teacherId })
      .from(classAnnouncements)
      .innerJoin(classWorks, eq(classWorks.id, classAnnouncements.classWorkId))
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.classWorkId, classWorks.id))
      .innerJoin(purchases, eq(purchases.scheduleId, classWorkSchedules.id))
      .where(and(eq(purchases.userId, parentId), eq(purchases.status, 'reserved')))
      .limit(1)
    expect(a).toBeDefined()
    const [teacher] = await api.db.select({ sub: users.sub }).from(users).where(eq(users.id, a!.teacherId))
    const query = `announcement_ids=${a!.id}`
    expect(await furigana(query, SUBS.parent)).toHaveProperty(a!.title)
    expect(await furigana(query, teacher!.sub)).toHaveProperty(a!.title)
    expect(await furigana(query)).toEqual({})
    // A member with no reservation in that class.
    const [stranger] = await api.db
      .select({ sub: users.sub })
      .from(users)
      .where(
        and(
          ne(users.id, a!.teacherId),
          sql`not exists (select 1 from ${purchases} p join ${classWorkSchedules} s on s.id = p.schedule_id join ${classAnnouncements} an on an.class_work_id = s.class_work_id where p.user_id = ${users.id} and an.id = ${a!.id})`,
        ),
      )
      .limit(1)
    expect(await furigana(query, stranger!.sub)).toEqual({})
  })

  it('refuses malformed and oversized id lists with a Japanese message', async () => {
    for (const q of [
      'class_ids=abc',
      'class_ids=1,,2',
      'user_ids=-1',
      `class_ids=${Array.from({ length: 61 }, (_, i) => i + 1).join(',')}`,
    ]) {
      const res = await api.call('GET', `/v1/furigana?${q}`)
      expect(res.status, q).toBe(400)
      expect(res.body.message).toMatch(/[ぁ-ん]/)
    }
    expect(await furigana('class_ids=999999')).toEqual({})
  })
})

describe('the furigana setting', () => {
  it('is kept on the member’s profile', async () => {
    const on = await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { furigana: true })
    expect(on.status).toBe(200)
    expect(User.parse(on.body).furigana).toBe(true)
    expect(User.parse((await api.as(SUBS.parent, 'GET', '/v1/users/me')).body).furigana).toBe(true)
    const off = await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { furigana: false })
    expect(User.parse(off.body).furigana).toBe(false)
    expect((await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { furigana: 'yes' })).status).toBe(400)
  })
  it('has a write of its own that changes no public page: updated_at stays, search caches are kept; bad input changes nothing', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    const row = async () =>
      (await api.db
        .select()
        .from(users)
        .where(eq(users.id, teacherId))
        .then((r) => r[0]))!
    const before = await row()
    const on = await api.as(SUBS.teacher, 'PUT', '/v1/users/me/furigana', { furigana: true })
    expect([on.status, on.body]).toEqual([200, { furigana: true }])
    expect(User.parse((await api.as(SUBS.teacher, 'GET', '/v1/users/me')).body).furigana).toBe(true)
    // A teacher's lastmod in the sitemap, and every instance's caches, stay as they were.
    expect((await row()).updatedAt).toEqual(before.updatedAt)
    expect(changesSearchResults('PUT', '/v1/users/me/furigana')).toBe(false)
    expect(changesSearchResults('PATCH', '/v1/users/me')).toBe(true)

    for (const body of [{ furigana: 'yes' }, {}, { furigana: false, nickname: 'x' }, null]) {
      const res = await api.as(SUBS.teacher, 'PUT', '/v1/users/me/furigana', body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.message).toMatch(/[ぁ-んァ-ン一-龯]/)
    }
    expect((await row()).furigana).toBe(true)
    // Nobody else's setting can be written: a visitor is refused, a member without a profile too.
    expect((await api.call('PUT', '/v1/users/me/furigana', { body: { furigana: false } })).status).toBe(401)
    expect((await api.as(SUBS.newUser, 'PUT', '/v1/users/me/furigana', { furigana: false })).status).toBe(404)
    expect((await row()).furigana).toBe(true)
    await api.as(SUBS.teacher, 'PUT', '/v1/users/me/furigana', { furigana: false })
  })
})

describe('a crowd of edits while the job reads', () => {
  it('teachers editing titles while three jobs read at once: every class ends with the reading of its own title', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    const mine = await api.db
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(and(eq(classWorks.teacherId, teacherId), eq(classWorks.isPublished, true)))
    const titles = ['英語で遊ぼう', '算数の時間', '理科の実験教室', '漢字を覚えよう', '音楽を楽しむ']
    const edits = mine.flatMap(({ id }, i) =>
      [0, 1, 2].map((round) => async () => {
        const title = `${titles[(i + round) % titles.length]}（第${round + 1}版）`
        const res = await api.as(SUBS.teacher, 'PATCH', `/v1/teachers/class_works/${id}`, { title })
        expect(res.status, JSON.stringify(res.body)).toBe(200)
      }),
    )
    const readers = [0, 1, 2].map(() => async () => {
      for (let k = 0; k < 4; k++) await fillRuby(api.db)
    })
    await Promise.all([...edits, ...readers].map((run) => run()))
    await fillAllRuby(api.db)

    const rows = await api.db
      .select({ id: classWorks.id, title: classWorks.title, ruby: classWorks.ruby })
      .from(classWorks)
      .where(eq(classWorks.teacherId, teacherId))
    for (const row of rows.filter((r) => mine.some((m) => m.id === r.id))) {
      expect(row.ruby, `class ${row.id}`).not.toBeNull()
      expect(rubyText(row.ruby!.title!), `class ${row.id}`).toBe(row.title)
    }
    expect(await rubyBacklog(api.db)).toBe(0)
  })
})

describe('the job runner on the demo content', () => {
  it('leaves no row without ruby and no classes with a stale reading', async () => {
    const stale = await api.db
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(
        and(
          eq(classWorks.isPublished, true),
          sql`${classWorks.ruby} is not null`,
          ne(classWorks.ruby, sql`'{}'::jsonb`),
        ),
      )
    expect(stale.length).toBeGreaterThan(0)
    for (const { id } of stale.slice(0, 20)) {
      const [row] = await api.db.select().from(classWorks).where(eq(classWorks.id, id))
      for (const [field, ruby] of Object.entries(row!.ruby ?? {})) {
        expect(rubyText(ruby)).toBe((row as unknown as Record<string, string>)[field])
      }
    }
  })
})
