import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ClassWorkCardList,
  ClassWorkDetail,
  ClassWorkSearchResult,
  CloseToStartList,
} from '../../app/contract/v1/class-works'
import { Article, ArticlePage, RelatedArticles } from '../../app/contract/v1/magazine'
import { MasterList, masterKinds } from '../../app/contract/v1/master'
import { TEACHER_CLASSES_PER_PAGE, TeacherProfile } from '../../app/contract/v1/teachers'
import { countQueries } from '../../app/db/query-count'
import { classWorkSchedules, classWorks, magazineArticles, users } from '../../app/db/schema'
import { summarizeSchedules } from '../../app/lib/schedule-summary'
import { setupApi, type TestApi } from './support/api'
import { SUBS } from './support/tokens'

let api: TestApi
beforeAll(async () => {
  api = await setupApi()
})
afterAll(async () => {
  await api?.close()
})

const search = async (body: Record<string, unknown>) => {
  const res = await api.call('POST', '/v1/class_works/search', { body })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return ClassWorkSearchResult.parse(res.body)
}

/** The spec §3 summary of schedule rows, computed here with the lib's reference function. */
function specSummary(
  rows: { startedAt: Date; endedAt: Date; purchasedCount: number; isCanceled: boolean }[],
) {
  const s = summarizeSchedules(
    rows.map((r) => ({
      started_at: r.startedAt,
      ended_at: r.endedAt,
      purchased_count: r.purchasedCount,
      is_canceled: r.isCanceled,
    })),
    api.now,
  )
  return { times_held: s.timesHeld, counts_purchased: s.countsPurchased, has_reservation: s.hasReservation }
}

const publishedCount = async () => {
  const [row] = await api.db
    .select({ n: sql<number>`count(*)::int` })
    .from(classWorks)
    .where(eq(classWorks.isPublished, true))
  return Number(row!.n)
}

describe('master lists', () => {
  it.each(masterKinds)('GET /v1/master/%s is ordered by sort_order', async (kind) => {
    const res = await api.call('GET', `/v1/master/${kind}`)
    expect(res.status).toBe(200)
    const list = MasterList.parse(res.body)
    expect(list.length).toBeGreaterThan(0)
    expect(list.map((m) => m.sort_order)).toEqual([...list.map((m) => m.sort_order)].sort((a, b) => a - b))
  })

  it('has the product’s categories and every target grade', async () => {
    const categories = MasterList.parse((await api.call('GET', '/v1/master/categories')).body)
    expect(categories.map((c) => c.name)).toEqual(
      expect.arrayContaining(['プログラミング', '英語', '陶芸', '将棋・囲碁']),
    )
    const grades = MasterList.parse((await api.call('GET', '/v1/master/target_grades')).body)
    expect(grades.map((g) => g.name)).toEqual(
      expect.arrayContaining(['未就学児', '小学1年', '小学6年', '中学3年', '高校3年', '大学生']),
    )
    expect(grades).toHaveLength(14)
  })
})

describe('class lists', () => {
  it('new arrivals: published classes, newest first, limit honoured', async () => {
    const res = await api.call('GET', '/v1/class_works/new_arrivals_by_class?limit=5')
    expect(res.status).toBe(200)
    const list = ClassWorkCardList.parse(res.body)
    expect(list).toHaveLength(5)
    const created = list.map((c) => c.created_at)
    expect(created).toEqual([...created].sort().reverse())
    expect((await api.call('GET', '/v1/class_works/new_arrivals_by_class')).body).toHaveLength(12)
  })

  it.each(['0', '51', 'abc', '-1', '1e2'])('rejects limit=%s with 400', async (limit) => {
    const res = await api.call('GET', `/v1/class_works/new_arrivals_by_class?limit=${limit}`)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('invalid_request')
  })

  it('close to starts: upcoming, not canceled, soonest first', async () => {
    const res = await api.call('GET', '/v1/class_works/close_to_starts?limit=20')
    const list = CloseToStartList.parse(res.body)
    expect(list).toHaveLength(20)
    for (const row of list) {
      expect(new Date(row.schedule.started_at).getTime()).toBeGreaterThanOrEqual(api.now.getTime())
      expect(row.schedule.is_canceled).toBe(false)
    }
    const starts = list.map((r) => r.schedule.started_at)
    expect(starts).toEqual([...starts].sort())
  })

  it('close to starts by class: one row per class, ordered by the next start', async () => {
    const list = ClassWorkCardList.parse(
      (await api.call('GET', '/v1/class_works/close_to_starts_by_class?limit=30')).body,
    )
    expect(new Set(list.map((c) => c.id)).size).toBe(list.length)
    const starts = list.map((c) => c.next_schedule!.started_at)
    expect(starts).toEqual([...starts].sort())
  })
})

describe('POST /v1/class_works/search', () => {
  it('returns every published class, paged by 20, newest first by default', async () => {
    const total = await publishedCount()
    expect(total).toBeGreaterThanOrEqual(60)
    const first = await search({})
    expect(first.total).toBe(total)
    expect(first.items).toHaveLength(20)
    expect(first.total_pages).toBe(Math.ceil(total / 20))
    const last = await search({ page: first.total_pages })
    expect(last.items.length).toBe(total - 20 * (first.total_pages - 1))
    const beyond = await search({ page: first.total_pages + 1 })
    expect(beyond.items).toEqual([])
  })

  it('treats hiragana and katakana, full-width and half-width alike', async () => {
    const katakana = await search({ q: 'プログラミング' })
    const hiragana = await search({ q: 'ぷろぐらみんぐ' })
    const halfWidth = await search({ q: 'ﾌﾟﾛｸﾞﾗﾐﾝｸﾞ' })
    expect(katakana.total).toBeGreaterThan(0)
    expect(hiragana.items.map((c) => c.id)).toEqual(katakana.items.map((c) => c.id))
    expect(halfWidth.items.map((c) => c.id)).toEqual(katakana.items.map((c) => c.id))
    const python = await search({ q: 'ＰＹＴＨＯＮ' })
    expect(python.items.map((c) => c.title)).toEqual(
      expect.arrayContaining(['Python入門 ～タートルで図形を描こう～']),
    )
  })

  it('finds two-character words and teacher nicknames; all terms must match', async () => {
    const pottery = await search({ q: '陶芸' })
    expect(pottery.total).toBeGreaterThanOrEqual(6)
    const byTeacher = await search({ q: 'とうこ先生' })
    expect(byTeacher.total).toBeGreaterThan(0)
    for (const c of byTeacher.items) expect(c.teacher.nickname).toBe('とうこ先生')
    const both = await search({ q: '陶芸　親子' })
    expect(both.total).toBeGreaterThan(0)
    expect(both.total).toBeLessThan(pottery.total)
    expect((await search({ q: 'そんなクラスはありません' })).total).toBe(0)
  })

  it('filters by category, grade, style and price', async () => {
    const byCategory = await search({ category: 11 })
    expect(byCategory.total).toBeGreaterThan(0)
    for (const c of byCategory.items) expect(c.category.id).toBe(11)
    const byGrade = await search({ grade: 14 })
    expect(byGrade.total).toBeGreaterThan(0)
    for (const c of byGrade.items) expect(c.target_grades.map((g) => g.id)).toContain(14)
    const byStyle = await search({ style: 1 })
    for (const c of byStyle.items) expect(c.class_style.id).toBe(1)
    const free = await search({ price_max: 0 })
    expect(free.total).toBeGreaterThan(0)
    for (const c of free.items) expect(c.price).toBe(0)
    const mid = await search({ price_min: 1000, price_max: 2000 })
    for (const c of mid.items) expect(c.price).toBeGreaterThanOrEqual(1000)
    for (const c of mid.items) expect(c.price).toBeLessThanOrEqual(2000)
  })

  it('filters by a date range of schedules (Tokyo days)', async () => {
    const day = new Date(api.now.getTime() + 9 * 3_600_000).toISOString().slice(0, 10)
    const later = new Date(api.now.getTime() + 9 * 3_600_000 + 7 * 86_400_000).toISOString().slice(0, 10)
    const week = await search({ from: day, to: later })
    expect(week.total).toBeGreaterThan(0)
    expect(week.total).toBeLessThan(await publishedCount())
    const none = await search({ from: '2000-01-01', to: '2000-01-02' })
    expect(none.total).toBe(0)
  })

  it('sorts by price, start and popularity', async () => {
    const asc = (await search({ sort: 'price_asc' })).items.map((c) => c.price)
    expect(asc).toEqual([...asc].sort((a, b) => a - b))
    const desc = (await search({ sort: 'price_desc' })).items.map((c) => c.price)
    expect(desc).toEqual([...desc].sort((a, b) => b - a))
    const start = (await search({ sort: 'start' })).items.map((c) => c.next_schedule?.started_at ?? '9999')
    expect(start).toEqual([...start].sort())
    const popular = await search({ sort: 'popular' })
    expect(popular.items).toHaveLength(20)
  })

  it.each([
    [{ page: 'x' }],
    [{ page: 0 }],
    [{ category: 'プログラミング' }],
    [{ sort: 'random' }],
    [{ from: '2025-13-01' }],
    [{ q: 'あ'.repeat(101) }],
    // The database would refuse these itself (no year 0; no NUL in text): refused here, with the field named.
    [{ from: '0001-01-01' }],
    [{ to: '9999-12-31' }],
    [{ q: '英\u0000語' }],
    [{ price_min: -1 }],
    [{ unknown: 1 }],
  ])('rejects %j with 400', async (body) => {
    const res = await api.call('POST', '/v1/class_works/search', { body })
    expect(res.status).toBe(400)
    expect(res.body).toMatchObject({ code: 'invalid_request', message: '入力内容に誤りがあります' })
  })

  it('refuses a reversed price or date range with a message on the field, instead of answering nothing', async () => {
    const cases = [
      [{ price_min: 5000, price_max: 1000 }, 'price_max', '料金の上限は下限以上で指定してください'],
      [
        { from: '2026-12-10', to: '2026-12-01' },
        'to',
        '終了日は開始日と同じか、それより後の日付を指定してください',
      ],
    ] as const
    for (const [body, field, message] of cases) {
      const res = await api.call('POST', '/v1/class_works/search', { body })
      expect(res.status).toBe(400)
      expect(res.body.issues).toEqual([expect.objectContaining({ path: [field], message })])
    }
    // Equal ends are one day or one price.
    const oneDay = await api.call('POST', '/v1/class_works/search', {
      body: { from: '2026-12-01', to: '2026-12-01' },
    })
    expect(oneDay.status).toBe(200)
  })

  it('rejects malformed JSON and other media types with 4xx', async () => {
    const bad = await api.call('POST', '/v1/class_works/search', {
      rawBody: '{"q":',
      headers: { 'content-type': 'application/json' },
    })
    expect(bad.status).toBe(400)
    const text = await api.call('POST', '/v1/class_works/search', {
      rawBody: 'q=x',
      headers: { 'content-type': 'text/plain' },
    })
    expect(text.status).toBe(415)
    const huge = await api.call('POST', '/v1/class_works/search', { body: { q: 'x'.repeat(100_000) } })
    expect(huge.status).toBe(413)
  })
})

describe('GET /v1/class_works/{id}', () => {
  it('returns a published class with schedules and the spec §3 summary', async () => {
    const [row] = await api.db
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(
        and(
          eq(classWorks.isPublished, true),
          eq(classWorks.title, 'はじめてのScratch（スクラッチ）でゲームづくり'),
        ),
      )
    const res = await api.call('GET', `/v1/class_works/${row!.id}`)
    expect(res.status).toBe(200)
    const detail = ClassWorkDetail.parse(res.body)
    expect(detail.description).toContain('【授業の流れ】')
    expect(detail.teacher.nickname).toBe('けんた先生')
    expect(JSON.stringify(res.body)).not.toContain('meeting_url')
    const all = await api.db
      .select()
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.classWorkId, row!.id))
    expect(detail.summary).toEqual(specSummary(all))
    expect(detail.summary.times_held).toBeGreaterThan(0)
  })

  it('hides unpublished classes and unknown ids (404), rejects bad ids (400)', async () => {
    const [hidden] = await api.db
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(eq(classWorks.isPublished, false))
    expect((await api.call('GET', `/v1/class_works/${hidden!.id}`)).status).toBe(404)
    const unknown = await api.call('GET', '/v1/class_works/999999')
    expect(unknown.status).toBe(404)
    expect(unknown.body.code).toBe('not_found')
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999', '1e3', `${'9'.repeat(500)}`]) {
      const res = await api.call('GET', `/v1/class_works/${bad}`)
      expect(res.status, bad).toBe(400)
    }
  })

  it('tells unknown (404), unpublished (404) and taken down (410) apart with one statement', async () => {
    const [draft] = await api.db
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(and(eq(classWorks.isPublished, false), isNull(classWorks.hiddenAt)))
    const statements = async (path: string) => {
      const { result, counter } = countQueries(() => api.call('GET', path))
      return { status: (await result).status, statements: counter.queries }
    }
    expect(await statements('/v1/class_works/999999')).toEqual({ status: 404, statements: 1 })
    expect(await statements(`/v1/class_works/${draft!.id}`)).toEqual({ status: 404, statements: 1 })
    // Taken down by an operator: unpublished with hidden_at (as reports.ts hides it).
    await api.db.update(classWorks).set({ hiddenAt: api.now }).where(eq(classWorks.id, draft!.id))
    try {
      expect(await statements(`/v1/class_works/${draft!.id}`)).toEqual({ status: 410, statements: 1 })
    } finally {
      await api.db.update(classWorks).set({ hiddenAt: null }).where(eq(classWorks.id, draft!.id))
    }
  })
})

describe('teachers', () => {
  it('GET /v1/teachers/{id} shows the public profile only', async () => {
    const id = await api.userId(SUBS.teacher)
    const res = await api.call('GET', `/v1/teachers/${id}`)
    expect(res.status).toBe(200)
    const teacher = TeacherProfile.parse(res.body)
    expect(teacher).toMatchObject({ nickname: 'けんた先生', name: '佐藤 健太' })
    expect(teacher.follower_count).toBeGreaterThan(0)
    expect(JSON.stringify(res.body)).not.toMatch(/email|sub|@manabi/)
  })

  it('shows an organisation member’s organisation', async () => {
    const res = await api.call('GET', `/v1/teachers/${await api.userId(SUBS.emily)}`)
    expect(TeacherProfile.parse(res.body).organization?.name).toBe('株式会社みらいキッズアカデミー')
  })

  it('GET /v1/teachers/{id}/class_works lists published classes only', async () => {
    const id = await api.userId(SUBS.teacher)
    const list = ClassWorkCardList.parse((await api.call('GET', `/v1/teachers/${id}/class_works`)).body)
    const [row] = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(classWorks)
      .where(and(eq(classWorks.teacherId, id), eq(classWorks.isPublished, true)))
    expect(list).toHaveLength(Number(row!.n))
    for (const c of list) expect(c.teacher.id).toBe(id)
  })

  it('pages a teacher with many classes (24 a page, newest first) and sums their schedules in one row', async () => {
    const id = await api.userId(SUBS.teacher)
    const [template] = await api.db.select().from(classWorks).where(eq(classWorks.teacherId, id)).limit(1)
    // 60 more published classes, one a minute apart, and one unpublished that never shows.
    const { id: _omit, searchTitle: _t, ratingHalves: _h, ratingScore: _s, ...base } = template!
    await api.db.insert(classWorks).values([
      ...Array.from({ length: 60 }, (_, i) => ({
        ...base,
        title: `ページ送りの確認 ${i + 1}`,
        isPublished: true,
        createdAt: new Date(api.now.getTime() + (i + 1) * 60_000),
      })),
      { ...base, title: '非公開', isPublished: false, createdAt: new Date(api.now.getTime() + 3_600_000) },
    ])
    const profile = TeacherProfile.parse((await api.call('GET', `/v1/teachers/${id}`)).body)
    const total = profile.class_work_count
    const pages: number[][] = []
    for (let page = 1; page <= Math.ceil(total / TEACHER_CLASSES_PER_PAGE); page++) {
      const res = await api.call('GET', `/v1/teachers/${id}/class_works${page > 1 ? `?page=${page}` : ''}`)
      expect(res.status).toBe(200)
      pages.push(ClassWorkCardList.parse(res.body).map((c) => c.id))
    }
    expect(pages[0]).toHaveLength(TEACHER_CLASSES_PER_PAGE)
    const all = pages.flat()
    expect(all).toHaveLength(total)
    expect(new Set(all).size).toBe(total)
    const first = ClassWorkCardList.parse((await api.call('GET', `/v1/teachers/${id}/class_works`)).body)
    expect(first[0]?.title).toBe('ページ送りの確認 60')
    // Past the last page: an empty list. A bad page number: 400, nothing else.
    const past = await api.call('GET', `/v1/teachers/${id}/class_works?page=${pages.length + 1}`)
    expect(past.status).toBe(200)
    expect(past.body).toEqual([])
    for (const bad of ['0', '-1', 'abc', '10000', '1.5'])
      expect((await api.call('GET', `/v1/teachers/${id}/class_works?page=${bad}`)).status, bad).toBe(400)

    // The profile's summary is spec §3's over every schedule of the teacher's published classes.
    const schedules = await api.db
      .select()
      .from(classWorkSchedules)
      .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
      .where(and(eq(classWorks.teacherId, id), eq(classWorks.isPublished, true)))
    expect(profile.summary).toEqual(specSummary(schedules.map((r) => r.class_work_schedules)))
    expect(profile.summary.times_held).toBeGreaterThan(0)
  })

  it('a member who is not a teacher has no public page', async () => {
    const parent = await api.userId(SUBS.parent)
    expect((await api.call('GET', `/v1/teachers/${parent}`)).status).toBe(404)
    expect((await api.call('GET', `/v1/teachers/${parent}/class_works`)).status).toBe(404)
    expect((await api.call('GET', '/v1/teachers/999999')).status).toBe(404)
    expect((await api.call('GET', '/v1/teachers/abc')).status).toBe(400)
  })

  it('users are not teachers when unmarked', async () => {
    const [u] = await api.db.select().from(users).where(eq(users.sub, SUBS.parent))
    expect(u!.isTeacher).toBe(false)
  })
})

describe('magazine', () => {
  it('lists published articles, newest first; scheduled ones stay hidden', async () => {
    const res = await api.call('GET', '/v1/magazine_articles')
    expect(res.status).toBe(200)
    const page = ArticlePage.parse(res.body)
    expect(page.total).toBeGreaterThanOrEqual(12)
    for (const a of page.items)
      expect(new Date(a.published_at).getTime()).toBeLessThanOrEqual(api.now.getTime())
    const dates = page.items.map((a) => a.published_at)
    expect(dates).toEqual([...dates].sort().reverse())
    const second = ArticlePage.parse((await api.call('GET', '/v1/magazine_articles?page=2')).body)
    expect(second.items.length).toBe(page.total - 12)
  })

  it('searches by keyword (kana folded), category and tag', async () => {
    const kw = ArticlePage.parse(
      (await api.call('GET', `/v1/magazine_articles?q=${encodeURIComponent('ぷろぐらみんぐ')}`)).body,
    )
    expect(kw.total).toBeGreaterThan(0)
    const cat = ArticlePage.parse(
      (await api.call('GET', `/v1/magazine_articles?category=${encodeURIComponent('先生インタビュー')}`))
        .body,
    )
    expect(cat.total).toBeGreaterThan(0)
    for (const a of cat.items) expect(a.category).toBe('先生インタビュー')
    const tag = ArticlePage.parse(
      (await api.call('GET', `/v1/magazine_articles?tag=${encodeURIComponent('英語')}`)).body,
    )
    expect(tag.total).toBeGreaterThan(0)
    for (const a of tag.items) expect(a.tags).toContain('英語')
    // A control character is refused with the field named, not passed to the database (which refuses a NUL).
    for (const field of ['q', 'category', 'tag']) {
      const bad = await api.call('GET', `/v1/magazine_articles?${field}=%00`)
      expect(bad.status, field).toBe(400)
      expect(bad.body.issues).toEqual([expect.objectContaining({ path: [field] })])
    }
  })

  it('GET /v1/magazine_articles/{id} returns the body; scheduled and unknown are 404', async () => {
    const page = ArticlePage.parse((await api.call('GET', '/v1/magazine_articles')).body)
    const res = await api.call('GET', `/v1/magazine_articles/${page.items[0]!.id}`)
    expect(Article.parse(res.body).body).toContain('<')
    const [future] = await api.db
      .select({ id: magazineArticles.id })
      .from(magazineArticles)
      .where(gt(magazineArticles.publishedAt, api.now))
    expect((await api.call('GET', `/v1/magazine_articles/${future!.id}`)).status).toBe(404)
    expect((await api.call('GET', '/v1/magazine_articles/999999')).status).toBe(404)
    expect((await api.call('GET', '/v1/magazine_articles?page=abc')).status).toBe(400)
  })
})

describe('related articles', () => {
  it('ranks other published articles by shared tags, then the same category, never itself or a scheduled one', async () => {
    const all = ArticlePage.parse((await api.call('GET', '/v1/magazine_articles?page=1')).body).items
    const more = ArticlePage.parse((await api.call('GET', '/v1/magazine_articles?page=2')).body).items
    const published = [...all, ...more]
    const score = (a: { tags: string[]; category: string }, b: { tags: string[]; category: string }) =>
      a.tags.filter((t) => b.tags.includes(t)).length * 2 + (a.category === b.category ? 1 : 0)
    let checked = 0
    for (const article of published) {
      const res = await api.call('GET', `/v1/magazine_articles/${article.id}/related`)
      expect(res.status).toBe(200)
      const related = RelatedArticles.parse(res.body)
      expect(related.length).toBeLessThanOrEqual(3)
      expect(related.map((r) => r.id)).not.toContain(article.id)
      for (const r of related) {
        expect(score(r, article), `${r.title} for ${article.title}`).toBeGreaterThan(0)
        expect(new Date(r.published_at).getTime()).toBeLessThanOrEqual(api.now.getTime())
      }
      const scores = related.map((r) => score(r, article))
      expect(scores).toEqual([...scores].sort((x, y) => y - x))
      // Nothing better was left out.
      const best = Math.max(0, ...published.filter((o) => o.id !== article.id).map((o) => score(o, article)))
      if (best > 0) expect(scores[0]).toBe(best)
      checked += related.length > 0 ? 1 : 0
    }
    expect(checked).toBeGreaterThan(0)
  })

  it('is 404 for an unknown or scheduled article and 400 for a malformed id', async () => {
    const [future] = await api.db
      .select({ id: magazineArticles.id })
      .from(magazineArticles)
      .where(gt(magazineArticles.publishedAt, api.now))
    expect((await api.call('GET', `/v1/magazine_articles/${future!.id}/related`)).status).toBe(404)
    expect((await api.call('GET', '/v1/magazine_articles/999999/related')).status).toBe(404)
    expect((await api.call('GET', '/v1/magazine_articles/abc/related')).status).toBe(400)
  })
})

describe('documents', () => {
  it('serves OpenAPI 3.1 with every path', async () => {
    const res = await api.call('GET', '/v1/openapi.json')
    expect(res.status).toBe(200)
    expect(res.body.openapi).toBe('3.1.0')
    const paths = Object.keys(res.body.paths)
    for (const p of [
      '/v1/users/me',
      '/v1/users/deep_me',
      '/v1/organizations/deep_me',
      '/v1/org_users',
      '/v1/org_users/invitation_code',
      '/v1/users/followings',
      '/v1/class_announcements',
      '/v1/rooms',
      '/v1/rooms/{id}/messages',
      '/v1/destinations',
      '/v1/teachers/my_class_works',
      '/v1/teachers/my_class_work_schedules/{id}/students',
      '/v1/class_works/search',
      '/v1/class_works/{id}',
      '/v1/users',
    ]) {
      expect(paths).toContain(p)
    }
    expect(res.body.components.securitySchemes.bearerAuth.scheme).toBe('bearer')
  })

  it('marks every request body required: an optional one lets a request without a body skip its schema', async () => {
    const res = await api.call('GET', '/v1/openapi.json')
    const bodies = Object.entries(res.body.paths as Record<string, Record<string, { requestBody?: unknown }>>)
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ at: `${method} ${path}`, op })))
      .filter(({ op }) => op.requestBody)
    expect(bodies.length).toBeGreaterThan(20)
    expect(
      bodies
        .filter(({ op }) => (op.requestBody as { required?: boolean }).required !== true)
        .map((b) => b.at),
    ).toEqual([])
  })

  it('serves a self-contained reference page (no external scripts)', async () => {
    const res = await api.call('GET', '/v1/docs')
    expect(res.status).toBe(200)
    expect(res.body).toContain('/v1/class_works/search')
    expect(res.body).not.toMatch(/<script|https?:\/\/(?!api\.test)/)
  })

  it('answers unknown paths with a JSON 404', async () => {
    const res = await api.call('GET', '/v1/nothing/here')
    expect(res.status).toBe(404)
    expect(res.body).toEqual({ code: 'not_found', message: expect.any(String) })
  })
})
