import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addFavorite, follow } from '../../app/api/services/follows'
import { sitemapEntries } from '../../app/api/services/sitemap'
import { ClassWorkDetail } from '../../app/contract/v1/class-works'
import { FavoriteList, FavoriteState, FollowState } from '../../app/contract/v1/follows'
import { MagazineFacets } from '../../app/contract/v1/magazine'
import { SitemapEntries } from '../../app/contract/v1/sitemap'
import { TeacherProfile } from '../../app/contract/v1/teachers'
import { FollowingList } from '../../app/contract/v1/users'
import type { Db } from '../../app/db/client'
import { classWorks, favorites, follows, magazineArticles, users } from '../../app/db/schema'
import { type ApiClient, createApiClient } from '../../app/server/api-client/client'
import { ApiError } from '../../app/server/api-client/errors'
import { inProcessTransport } from '../../app/server/api-client/transport'
import { setupApi, type TestApi } from './support/api'
import { loadMasters, postClass } from './support/classes'
import { whileHeld } from './support/locks'
import { insertMembers } from './support/people'
import { SUBS, tokenFor } from './support/tokens'

let api: TestApi
/** A teacher the demo parent does not follow (ゆい先生), and one the parent follows (けんた先生). */
let freeTeacher: number
let followedTeacher: number
let teacherSelf: number
let member: number
let published: number
let unpublished: number

beforeAll(async () => {
  api = await setupApi()
  freeTeacher = await api.userId('seed|teacher-ito')
  followedTeacher = await api.userId(SUBS.teacher)
  teacherSelf = followedTeacher
  member = await api.userId(SUBS.member01)
  const parentId = await api.userId(SUBS.parent)
  const favored = await api.db
    .select({ id: favorites.classWorkId })
    .from(favorites)
    .where(eq(favorites.userId, parentId))
  const favoredIds = new Set(favored.map((f) => f.id))
  const pub = await api.db
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(eq(classWorks.isPublished, true))
  published = pub.find((c) => !favoredIds.has(c.id))!.id
  const [unpub] = await api.db
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(eq(classWorks.isPublished, false))
    .limit(1)
  unpublished = unpub!.id
})
afterAll(async () => {
  await api?.close()
})

const followPath = (id: number | string) => `/v1/users/followings/${id}`
const favoritePath = (id: number | string) => `/v1/users/favorites/${id}`

describe('authentication', () => {
  const calls: [string, string][] = [
    ['GET', followPath(1)],
    ['POST', followPath(1)],
    ['DELETE', followPath(1)],
    ['GET', '/v1/users/favorites'],
    ['GET', favoritePath(1)],
    ['POST', favoritePath(1)],
    ['DELETE', favoritePath(1)],
  ]
  it.each(calls)('%s %s without a token → 401 with WWW-Authenticate', async (method, path) => {
    const res = await api.call(method, path)
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('unauthorized')
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
  })
  it.each(calls)('%s %s with a bad token → 401', async (method, path) => {
    expect((await api.call(method, path, { token: 'not-a-token' })).status).toBe(401)
  })
  it.each(calls)('%s %s by a signed-in person without a profile → 404 unregistered', async (method, path) => {
    const res = await api.as(SUBS.newUser, method, path)
    expect(res.status).toBe(404)
    expect(res.body.code).toBe('unregistered')
  })
})

describe('following a teacher', () => {
  it('POST follows (200), and repeating it changes nothing', async () => {
    const before = FollowState.parse((await api.as(SUBS.parent, 'GET', followPath(freeTeacher))).body)
    expect(before.is_following).toBe(false)
    const first = await api.as(SUBS.parent, 'POST', followPath(freeTeacher))
    expect(first.status).toBe(200)
    expect(FollowState.parse(first.body)).toEqual({
      teacher_id: freeTeacher,
      is_following: true,
      follower_count: before.follower_count + 1,
    })
    const again = await api.as(SUBS.parent, 'POST', followPath(freeTeacher))
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    const rows = await api.db
      .select()
      .from(follows)
      .where(and(eq(follows.followerId, await api.userId(SUBS.parent)), eq(follows.teacherId, freeTeacher)))
    expect(rows).toHaveLength(1)
  })

  it('the follow shows in GET /v1/users/followings and the teacher’s follower count', async () => {
    const list = FollowingList.parse((await api.as(SUBS.parent, 'GET', '/v1/users/followings')).body)
    expect(list.map((f) => f.id)).toContain(freeTeacher)
    const state = FollowState.parse((await api.as(SUBS.parent, 'GET', followPath(freeTeacher))).body)
    const profile = TeacherProfile.parse((await api.call('GET', `/v1/teachers/${freeTeacher}`)).body)
    expect(profile.follower_count).toBe(state.follower_count)
  })

  it('DELETE unfollows (200), and repeating it changes nothing', async () => {
    const before = FollowState.parse((await api.as(SUBS.parent, 'GET', followPath(freeTeacher))).body)
    expect(before.is_following).toBe(true)
    const first = await api.as(SUBS.parent, 'DELETE', followPath(freeTeacher))
    expect(first.status).toBe(200)
    expect(FollowState.parse(first.body)).toEqual({
      teacher_id: freeTeacher,
      is_following: false,
      follower_count: before.follower_count - 1,
    })
    const again = await api.as(SUBS.parent, 'DELETE', followPath(freeTeacher))
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
  })

  it('GET reports an existing follow from the seed', async () => {
    const state = FollowState.parse((await api.as(SUBS.parent, 'GET', followPath(followedTeacher))).body)
    expect(state.is_following).toBe(true)
    expect(state.follower_count).toBeGreaterThanOrEqual(1)
  })

  it('concurrent follows of the same teacher leave one row', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, () => api.as(SUBS.owner, 'POST', followPath(freeTeacher))),
    )
    for (const r of results) expect(r.status).toBe(200)
    const rows = await api.db
      .select()
      .from(follows)
      .where(and(eq(follows.followerId, await api.userId(SUBS.owner)), eq(follows.teacherId, freeTeacher)))
    expect(rows).toHaveLength(1)
    expect((await api.as(SUBS.owner, 'DELETE', followPath(freeTeacher))).status).toBe(200)
  })

  it('a teacher cannot follow themself (422), nor unfollow themself', async () => {
    for (const method of ['POST', 'DELETE']) {
      const res = await api.as(SUBS.teacher, method, followPath(teacherSelf))
      expect(res.status).toBe(422)
      expect(res.body.code).toBe('cannot_follow_self')
    }
  })

  it('someone who is not a teacher, or nobody, cannot be followed (404)', async () => {
    for (const target of [member, 99_999_999]) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await api.as(SUBS.parent, method, followPath(target))
        expect(res.status, `${method} ${target}`).toBe(404)
        expect(res.body.code).toBe('not_found')
      }
    }
  })

  it.each(['abc', '0', '-1', '1.5', '1e3', '9999999999'])('a malformed id (%s) is 400', async (bad) => {
    expect((await api.as(SUBS.parent, 'POST', followPath(bad))).status).toBe(400)
    expect((await api.as(SUBS.parent, 'POST', favoritePath(bad))).status).toBe(400)
  })
})

describe('favorite classes', () => {
  it('POST adds a favorite (200), idempotently; the class card counts it', async () => {
    const detail = ClassWorkDetail.parse((await api.call('GET', `/v1/class_works/${published}`)).body)
    const first = await api.as(SUBS.parent, 'POST', favoritePath(published))
    expect(first.status).toBe(200)
    expect(FavoriteState.parse(first.body)).toEqual({
      class_work_id: published,
      is_favorite: true,
      favorite_count: detail.favorite_count + 1,
    })
    const again = await api.as(SUBS.parent, 'POST', favoritePath(published))
    expect(again.body).toEqual(first.body)
    const after = ClassWorkDetail.parse((await api.call('GET', `/v1/class_works/${published}`)).body)
    expect(after.favorite_count).toBe(detail.favorite_count + 1)
    expect(
      FavoriteState.parse((await api.as(SUBS.parent, 'GET', favoritePath(published))).body).is_favorite,
    ).toBe(true)
  })

  it('GET /v1/users/favorites lists published favorites, newest first', async () => {
    const list = FavoriteList.parse((await api.as(SUBS.parent, 'GET', '/v1/users/favorites')).body)
    expect(list[0]!.class_work.id).toBe(published)
    expect(list.length).toBe(6)
    const dates = list.map((f) => f.favorited_at)
    expect(dates).toEqual([...dates].sort().reverse())
    expect(FavoriteList.parse((await api.as(SUBS.owner, 'GET', '/v1/users/favorites')).body)).toEqual([])
  })

  it('DELETE removes it (200), idempotently', async () => {
    const first = await api.as(SUBS.parent, 'DELETE', favoritePath(published))
    expect(first.status).toBe(200)
    expect(FavoriteState.parse(first.body).is_favorite).toBe(false)
    const again = await api.as(SUBS.parent, 'DELETE', favoritePath(published))
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
  })

  it('an unpublished or unknown class cannot be favorited (404)', async () => {
    for (const target of [unpublished, 99_999_999]) {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const res = await api.as(SUBS.parent, method, favoritePath(target))
        expect(res.status, `${method} ${target}`).toBe(404)
      }
    }
  })

  it('a class deleted while it is being favorited is 404, not a bad request (PostgreSQL)', async () => {
    const cls = (await postClass(api, await loadMasters(api), SUBS.teacher, { is_published: true })).body as {
      id: number
    }
    const res = await whileHeld(
      api,
      async (tx) => {
        await tx.delete(classWorks).where(eq(classWorks.id, cls.id))
      },
      () => api.as(SUBS.parent, 'POST', favoritePath(cls.id)),
    )
    expect([res.status, res.body.code]).toEqual([404, 'not_found'])
  })

  it('a favorite of a class unpublished later is hidden from the list and can still be removed', async () => {
    const parentId = await api.userId(SUBS.parent)
    const countOnMyPage = async () =>
      (await api.as(SUBS.parent, 'GET', '/v1/users/deep_me')).body.favorite_count as number
    const before = await countOnMyPage()
    await api.db.insert(favorites).values({ userId: parentId, classWorkId: unpublished })
    const list = FavoriteList.parse((await api.as(SUBS.parent, 'GET', '/v1/users/favorites')).body)
    expect(list.map((f) => f.class_work.id)).not.toContain(unpublished)
    // My Page counts what the list shows.
    expect(await countOnMyPage()).toBe(before)
    const res = await api.as(SUBS.parent, 'DELETE', favoritePath(unpublished))
    expect(res.status).toBe(200)
    expect(res.body.is_favorite).toBe(false)
    const rows = await api.db
      .select()
      .from(favorites)
      .where(and(eq(favorites.userId, parentId), eq(favorites.classWorkId, unpublished)))
    expect(rows).toEqual([])
  })
})

describe('sitemap entries', () => {
  it('lists published classes, teachers and published articles only', async () => {
    const res = await api.call('GET', '/v1/sitemap_entries')
    expect(res.status).toBe(200)
    const entries = SitemapEntries.parse(res.body)
    const classIds = new Set(entries.class_works.map((e) => e.id))
    expect(classIds.has(published)).toBe(true)
    expect(classIds.has(unpublished)).toBe(false)
    const publishedCount = await api.db
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(eq(classWorks.isPublished, true))
    expect(classIds.size).toBe(publishedCount.length)
    const teacherIds = entries.teachers.map((e) => e.id)
    expect(teacherIds).toContain(freeTeacher)
    expect(teacherIds).not.toContain(member)
    const teacherRows = await api.db.select({ id: users.id }).from(users).where(eq(users.isTeacher, true))
    expect(teacherIds).toHaveLength(teacherRows.length)
    const articles = await api.db.select().from(magazineArticles)
    const visible = articles.filter((a) => a.publishedAt.getTime() <= api.now.getTime())
    expect(entries.magazine_articles).toHaveLength(visible.length)
    // The demo fits one page: /sitemap.xml is the sitemap itself, not an index.
    expect([entries.page, entries.pages]).toEqual([1, 1])
  })

  it('a catalogue past one page is cut in id order into pages that join up, none twice', async () => {
    const whole = SitemapEntries.parse((await api.call('GET', '/v1/sitemap_entries')).body)
    const size = 7
    const first = await sitemapEntries(api.db, api.now, 1, size)
    const largest = Math.max(whole.class_works.length, whole.teachers.length, whole.magazine_articles.length)
    expect(first.pages).toBe(Math.ceil(largest / size))
    expect(first.pages).toBeGreaterThan(1)
    const joined: SitemapEntries = { ...first, class_works: [], teachers: [], magazine_articles: [] }
    for (let page = 1; page <= first.pages + 1; page++) {
      const got = await sitemapEntries(api.db, api.now, page, size)
      expect(got.page).toBe(page)
      for (const kind of ['class_works', 'teachers', 'magazine_articles'] as const) {
        expect(got[kind].length).toBeLessThanOrEqual(size)
        joined[kind].push(...got[kind])
      }
      if (page > first.pages)
        expect([got.class_works, got.teachers, got.magazine_articles]).toEqual([[], [], []])
    }
    const byId = (l: { id: number }[]) => l.map((e) => e.id).sort((a, b) => a - b)
    for (const kind of ['class_works', 'teachers', 'magazine_articles'] as const) {
      expect(
        joined[kind].map((e) => e.id),
        kind,
      ).toEqual(byId(joined[kind]))
      expect(byId(joined[kind]), kind).toEqual(byId(whole[kind]))
    }
    // Over the API: a page past the last is empty; a bad page is 400.
    const past = SitemapEntries.parse((await api.call('GET', '/v1/sitemap_entries?page=2')).body)
    expect([past.class_works, past.page, past.pages]).toEqual([[], 2, 1])
    for (const bad of ['0', 'abc', '1001', '1.5'])
      expect((await api.call('GET', `/v1/sitemap_entries?page=${bad}`)).status, bad).toBe(400)
  })
})

describe('magazine facets', () => {
  it('counts the categories and tags of published articles, most used first', async () => {
    const res = await api.call('GET', '/v1/magazine_articles/facets')
    expect(res.status).toBe(200)
    const facets = MagazineFacets.parse(res.body)
    const articles = (await api.db.select().from(magazineArticles)).filter(
      (a) => a.publishedAt.getTime() <= api.now.getTime(),
    )
    const count = (names: string[]) => {
      const m = new Map<string, number>()
      for (const n of names) m.set(n, (m.get(n) ?? 0) + 1)
      return m
    }
    const categories = count(articles.map((a) => a.category))
    const tags = count(articles.flatMap((a) => a.tags))
    expect(new Map(facets.categories.map((f) => [f.name, f.count]))).toEqual(categories)
    expect(new Map(facets.tags.map((f) => [f.name, f.count]))).toEqual(tags)
    const counts = facets.categories.map((f) => f.count)
    expect(counts).toEqual([...counts].sort((a, b) => b - a))
    // A listed category and tag filter the article list to exactly that many articles.
    const top = facets.tags[0]!
    const byTag = await api.call('GET', `/v1/magazine_articles?tag=${encodeURIComponent(top.name)}`)
    expect(byTag.body.total).toBe(top.count)
  })
})

describe('BFF client', () => {
  let client: ApiClient
  beforeAll(() => {
    client = createApiClient(() => inProcessTransport(async () => api.app), {
      logger: { error: () => {}, warn: () => {} },
    })
  })

  it('skips the calls without a token', async () => {
    expect(await client.followTeacher(undefined, freeTeacher)).toBeUndefined()
    expect(await client.getFavoriteState(null, published)).toBeUndefined()
    expect(await client.listFavorites(undefined)).toBeUndefined()
  })

  it('follows, unfollows, favorites and unfavorites with parsed states', async () => {
    const token = await tokenFor(SUBS.parent)
    expect((await client.followTeacher(token, freeTeacher)).is_following).toBe(true)
    expect((await client.getFollowState(token, freeTeacher)).is_following).toBe(true)
    expect((await client.unfollowTeacher(token, freeTeacher)).is_following).toBe(false)
    expect((await client.addFavorite(token, published)).is_favorite).toBe(true)
    expect((await client.listFavorites(token)).map((f) => f.class_work.id)).toContain(published)
    expect((await client.removeFavorite(token, published)).is_favorite).toBe(false)
  })

  it('throws ApiError with the API’s status and code', async () => {
    const teacher = await tokenFor(SUBS.teacher)
    await expect(client.followTeacher(teacher, teacherSelf)).rejects.toMatchObject({
      status: 422,
      code: 'cannot_follow_self',
    })
    await expect(client.addFavorite(teacher, unpublished)).rejects.toBeInstanceOf(ApiError)
    await expect(client.addFavorite(teacher, 0)).rejects.toMatchObject({ status: 400 })
  })

  it('reads the sitemap entries publicly', async () => {
    const entries = await client.getSitemapEntries()
    expect(entries?.class_works.length).toBeGreaterThan(0)
  })
})

describe('a member keeps at most 200 favorites and 200 follows, and /follow lists every one', () => {
  /** `n` published free classes of the demo teacher that nobody has favorited. */
  async function newClasses(n: number, label: string) {
    const [template] = await api.db.select().from(classWorks).where(eq(classWorks.id, published))
    return (
      await api.db
        .insert(classWorks)
        .values(
          Array.from({ length: n }, (_, k) => ({
            teacherId: template!.teacherId,
            title: `${label} ${k}`,
            description: '説明',
            categoryId: template!.categoryId,
            classStyleId: template!.classStyleId,
            price: 0,
            capacity: 5,
            durationMinutes: 60,
            isPublished: true,
          })),
        )
        .returning({ id: classWorks.id })
    ).map((c) => c.id)
  }
  const favoriteRows = async (userId: number) =>
    (await api.db.select().from(favorites).where(eq(favorites.userId, userId))).length

  it('favorites: the 201st is refused (409) and changes nothing; the 200 are all listed', async () => {
    const [sub] = await insertMembers(api.db, 'many-favorites', 1)
    const userId = await api.userId(sub!)
    const made = await newClasses(202, 'お気に入り上限')
    // Added before the one the API adds now.
    const base = Date.now() - 60_000
    await api.db
      .insert(favorites)
      .values(made.slice(0, 199).map((id, n) => ({ userId, classWorkId: id, createdAt: new Date(base + n) })))
    expect((await api.as(sub!, 'POST', favoritePath(made[199]!))).status).toBe(200)
    const refused = await api.as(sub!, 'POST', favoritePath(made[200]!))
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      409,
      'too_many_favorites',
      'お気に入りに登録できるクラスは200件までです。お気に入りから外してから、もう一度お試しください',
    ])
    expect(await favoriteRows(userId)).toBe(200)
    const [refusedClass] = await api.db
      .select({ n: classWorks.favoriteCount })
      .from(classWorks)
      .where(eq(classWorks.id, made[200]!))
    expect(refusedClass!.n).toBe(0)
    // Repeating one already in the list still answers its state (idempotent at the cap).
    const again = FavoriteState.parse((await api.as(sub!, 'POST', favoritePath(made[0]!))).body)
    expect(again.is_favorite).toBe(true)
    const list = FavoriteList.parse((await api.as(sub!, 'GET', '/v1/users/favorites')).body)
    expect(list).toHaveLength(200)
    expect(list[0]!.class_work.id).toBe(made[199])
    // Counted as the list shows them: one unpublished by its teacher leaves room for another.
    await api.db.update(classWorks).set({ isPublished: false }).where(eq(classWorks.id, made[0]!))
    expect((await api.as(sub!, 'POST', favoritePath(made[200]!))).status).toBe(200)
    expect((await api.as(sub!, 'POST', favoritePath(made[201]!))).status).toBe(409)
  })

  it('a favorite added while another add of the same member is being committed still stops at 200 (PostgreSQL)', async () => {
    const [sub] = await insertMembers(api.db, 'crowd-favorites', 1)
    const userId = await api.userId(sub!)
    const made = await newClasses(200, 'お気に入り同時')
    await api.db.insert(favorites).values(made.slice(0, 198).map((id) => ({ userId, classWorkId: id })))
    // Another instance adds the 199th… and, while it commits, this one adds the 200th and then the 201st.
    const res = await whileHeld(
      api,
      async (tx) => {
        await addFavorite(tx as unknown as Db, userId, made[198]!)
        await tx.insert(favorites).values({ userId, classWorkId: made[199]! })
      },
      () => api.as(sub!, 'POST', favoritePath(published)),
    )
    expect([res.status, res.body.code]).toEqual([409, 'too_many_favorites'])
    expect(await favoriteRows(userId)).toBe(200)
  })

  /** A member following the first `following` of 201 verified teachers of their own. */
  async function followerOfMany(prefix: string, following: number) {
    const [sub] = await insertMembers(api.db, prefix, 1)
    const userId = await api.userId(sub!)
    const teacherSubs = await insertMembers(api.db, `${prefix}-teacher`, 201)
    await api.db
      .update(users)
      .set({ isTeacher: true, role: 'teacher', teacherVerifiedAt: new Date() })
      .where(inArray(users.sub, teacherSubs))
    const teachers = await Promise.all(teacherSubs.map((t) => api.userId(t)))
    await api.db
      .insert(follows)
      .values(teachers.slice(0, following).map((teacherId) => ({ followerId: userId, teacherId })))
    return { sub: sub!, userId, teachers }
  }

  it('follows: the 201st teacher is refused (409) and changes nothing; the 200 are all listed', async () => {
    const { sub, teachers } = await followerOfMany('many-follows', 200)
    const refused = await api.as(sub!, 'POST', followPath(teachers[200]!))
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      409,
      'too_many_follows',
      'フォローできる先生は200人までです。フォローを解除してから、もう一度お試しください',
    ])
    expect(FollowState.parse((await api.as(sub!, 'GET', followPath(teachers[200]!))).body)).toMatchObject({
      is_following: false,
      follower_count: 0,
    })
    expect(FollowState.parse((await api.as(sub!, 'POST', followPath(teachers[0]!))).body).is_following).toBe(
      true,
    )
    const list = FollowingList.parse((await api.as(sub!, 'GET', '/v1/users/followings')).body)
    expect(list).toHaveLength(200)
    // A suspended teacher leaves the list, and the count with it.
    await api.db.update(users).set({ suspendedAt: new Date() }).where(eq(users.id, teachers[0]!))
    expect((await api.as(sub!, 'POST', followPath(teachers[200]!))).status).toBe(200)
  })

  it('a follow added while another follow of the same member is being committed still stops at 200 (PostgreSQL)', async () => {
    const { sub, userId, teachers } = await followerOfMany('crowd-follows', 198)
    // Another instance follows the 199th… and, while it commits, this one follows the 200th and then the 201st.
    const res = await whileHeld(
      api,
      async (tx) => {
        await follow(tx as unknown as Db, userId, teachers[198]!)
        await tx.insert(follows).values({ followerId: userId, teacherId: teachers[199]! })
      },
      () => api.as(sub!, 'POST', followPath(teachers[200]!)),
    )
    expect([res.status, res.body.code]).toEqual([409, 'too_many_follows'])
    const rows = await api.db
      .select({ id: follows.teacherId })
      .from(follows)
      .where(eq(follows.followerId, userId))
    expect(rows).toHaveLength(200)
    const [refusedTeacher] = await api.db
      .select({ n: users.followerCount })
      .from(users)
      .where(eq(users.id, teachers[200]!))
    expect(refusedTeacher!.n).toBe(0)
  })
})
