import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { changesSearchResults } from '../../app/api/search-invalidation'
import { currentPageReads, type PageReads, trackPageReads } from '../../app/db/page-reads'
import { rooms } from '../../app/db/schema'
import { type ApiClient, type ApiClientOptions, createApiClient } from '../../app/server/api-client/client'
import { fakeBus } from '../support/fake-bus'

type ApiClientEvents = ApiClientOptions['events']

import { ApiError } from '../../app/server/api-client/errors'
import { type ApiTransport, httpTransport, inProcessTransport } from '../../app/server/api-client/transport'
import { setupApi, type TestApi } from './support/api'
import { SUBS, tokenFor } from './support/tokens'

/** Collects what the client logs, so that tests can check failures are reported (spec §8). */
function recorder() {
  const lines: string[] = []
  const logger = {
    error: (...args: unknown[]) => lines.push(`error ${args.map(String).join(' ')}`),
    warn: (...args: unknown[]) => lines.push(`warn ${args.map(String).join(' ')}`),
  }
  return { lines, logger }
}

let api: TestApi
let client: ApiClient
let log: ReturnType<typeof recorder>
let parent: string
beforeAll(async () => {
  api = await setupApi()
  log = recorder()
  client = createApiClient(() => inProcessTransport(async () => api.app), { logger: log.logger })
  parent = await tokenFor(SUBS.parent)
})
afterAll(async () => {
  await api?.close()
})

describe('in-process transport against the real API', () => {
  it('getMe: skipped without a token; 200, 404 unregistered and 401 come back as statuses', async () => {
    expect(await client.getMe(undefined)).toBeUndefined()
    expect(await client.getMe('')).toBeUndefined()
    const me = await client.getMe(parent)
    expect(me.status).toBe(200)
    expect(me.data?.sub).toBe(SUBS.parent)
    expect(await client.getMe(await tokenFor(SUBS.newUser))).toMatchObject({
      status: 404,
      code: 'unregistered',
    })
    expect(await client.getMe('invalid')).toMatchObject({ status: 401, code: 'unauthorized' })
  })

  it('authenticated calls are skipped (undefined) without a token', async () => {
    const calls = [
      client.getDeepMe(undefined),
      client.listFollowings(undefined),
      client.getOrganizationDeepMe(null),
      client.listOrgUsers(undefined),
      client.getInvitationCode(undefined),
      client.listClassAnnouncements(undefined),
      client.listRooms(undefined),
      client.listRoomMessages(undefined, 1),
      client.listDestinations(undefined, 'teachers'),
      client.listMyClassWorks(undefined),
      client.listScheduleStudents(undefined, 1),
      client.updateMe(undefined, { nickname: 'x' }),
    ]
    for (const result of await Promise.all(calls)) expect(result).toBeUndefined()
  })

  it('authenticated calls parse their responses with the contract', async () => {
    const owner = await tokenFor(SUBS.owner)
    const teacher = await tokenFor(SUBS.teacher)
    expect((await client.getDeepMe(parent)).learners).toHaveLength(2)
    expect(await client.listFollowings(parent)).toHaveLength(3)
    expect((await client.getOrganizationDeepMe(owner)).my_role).toBe('owner')
    expect(await client.listOrgUsers(owner)).toHaveLength(4)
    expect((await client.getInvitationCode(owner)).invitation_code).toBe('MIRAI-7K3Q')
    expect((await client.listClassAnnouncements(parent)).length).toBeGreaterThan(0)
    const roomList = await client.listRooms(parent)
    expect(roomList).toHaveLength(4)
    expect((await client.listRoomMessages(parent, roomList[0]!.id)).length).toBeGreaterThan(0)
    // The demo's long room pages back with `before`.
    const long = roomList.find((r) => r.partner.nickname === 'だいすけ先生')!
    const newest = await client.listRoomMessages(parent, long.id)
    expect(newest).toHaveLength(200)
    const older = await client.listRoomMessages(parent, long.id, newest[0]!.id)
    expect(older).toHaveLength(40)
    expect(older.at(-1)!.id).not.toBe(newest[0]!.id)
    expect(new Date(older.at(-1)!.created_at) < new Date(newest[0]!.created_at)).toBe(true)
    expect((await client.listDestinations(parent, 'teachers')).length).toBeGreaterThan(0)
    const drafts = await client.listMyClassWorks(teacher, { isPublished: false })
    expect(drafts.every((c) => !c.is_published)).toBe(true)
    const all = await client.listMyClassWorks(teacher)
    expect(all.length).toBeGreaterThan(drafts.length)
    const withNext = all.find((c) => c.next_schedule)!
    expect(Array.isArray(await client.listScheduleStudents(teacher, withNext.next_schedule!.id))).toBe(true)
  })

  it('an error status throws ApiError with the API’s code and Japanese message', async () => {
    const emilyRoom = (
      await api.db
        .select()
        .from(rooms)
        .where(eq(rooms.teacherId, await api.userId(SUBS.emily)))
    )[0]!
    const owner = await tokenFor(SUBS.owner)
    await expect(client.listRoomMessages(owner, emilyRoom.id)).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
    })
    await expect(client.getInvitationCode(parent)).rejects.toBeInstanceOf(ApiError)
    const invalid = await client
      .registerUser(await tokenFor(SUBS.newUser), {
        nickname: '',
        name: 'x',
        name_kana: 'エックス',
        role: 'parent',
        agreed_to_terms: true,
      })
      .catch((e: unknown) => e)
    expect(invalid).toBeInstanceOf(ApiError)
    expect(invalid).toMatchObject({
      status: 400,
      code: 'invalid_request',
      message: '入力内容に誤りがあります',
    })
    expect((invalid as ApiError).issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: ['nickname'] })]),
    )
  })

  it('registers and updates through the client', async () => {
    const token = await tokenFor(SUBS.newUser)
    const user = await client.registerUser(token, {
      nickname: 'ひな',
      name: '田中 陽菜',
      name_kana: 'タナカ ヒナ',
      role: 'parent',
      profession_id: 1,
      agreed_to_terms: true,
    })
    expect(user.sub).toBe(SUBS.newUser)
    expect((await client.updateMe(token, { nickname: 'ひなた' })).nickname).toBe('ひなた')
  })

  it('public calls parse their responses', async () => {
    expect((await client.getMaster('categories'))!.length).toBe(11)
    expect(await client.listNewArrivalsByClass(3)).toHaveLength(3)
    expect(await client.listCloseToStarts(4)).toHaveLength(4)
    expect(await client.listCloseToStartsByClass(5)).toHaveLength(5)
    const found = await client.searchClassWorks({ q: 'えいご', sort: 'price_asc' })
    expect(found!.total).toBeGreaterThan(0)
    const detail = await client.getClassWork(found!.items[0]!.id)
    expect(detail!.summary).toBeDefined()
    expect((await client.getTeacher(detail!.teacher.id))!.id).toBe(detail!.teacher.id)
    expect((await client.listTeacherClassWorks(detail!.teacher.id))!.length).toBeGreaterThan(0)
    const articles = await client.listMagazineArticles({ tag: '英語' })
    expect(articles!.total).toBeGreaterThan(0)
    expect((await client.getMagazineArticle(articles!.items[0]!.id))!.body).toBeTruthy()
  })

  it('public calls return undefined on failure; a 404 is not an error worth logging', async () => {
    const before = log.lines.length
    expect(await client.getClassWork(999_999)).toBeUndefined()
    expect(await client.getClassWork(Number.NaN)).toBeUndefined()
    expect(log.lines.length).toBe(before)
    expect(await client.searchClassWorks({ page: 0 })).toBeUndefined()
    expect(log.lines.slice(before).join('\n')).toContain('POST /v1/class_works/search → 400')
  })
})

describe('in-process requests', () => {
  it('carry the Content-Length an HTTP client sends, counted in bytes; multipart bodies are left to FormData', async () => {
    const seen: Request[] = []
    const transport = inProcessTransport(async () => ({
      fetch: (request: Request) => {
        seen.push(request)
        return Response.json({})
      },
    }))
    const body = { q: '英語のクラス', page: 1 }
    await transport({ method: 'POST', path: '/v1/class_works/search', body })
    expect(seen[0]!.headers.get('content-length')).toBe(
      String(new TextEncoder().encode(JSON.stringify(body)).length),
    )
    expect(Number(seen[0]!.headers.get('content-length'))).toBe((await seen[0]!.arrayBuffer()).byteLength)
    await transport({ method: 'GET', path: '/v1/master/categories' })
    expect(seen[1]!.headers.has('content-length')).toBe(false)
    const form = new FormData()
    form.set('file', new Blob(['x']), 'x.png')
    await transport({ method: 'POST', path: '/v1/uploads', form })
    expect(seen[2]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/)
    expect(seen[2]!.headers.has('content-length')).toBe(false)
    // Spec §7: authenticated calls send the bearer token and a JSON content type, reads included.
    await transport({ method: 'GET', path: '/v1/users/me', token: 'a-token' })
    expect(seen[3]!.headers.get('authorization')).toBe('Bearer a-token')
    expect(seen[3]!.headers.get('content-type')).toBe('application/json')
  })

  it('over the API body limit are refused with 413: their length is counted in bytes, not characters', async () => {
    const transport = inProcessTransport(async () => api.app)
    const res = await transport({
      method: 'POST',
      path: '/v1/class_works/search',
      body: { q: 'あ'.repeat(30_000) },
    })
    expect(res.status).toBe(413)
    expect(res.data).toMatchObject({ code: 'payload_too_large' })
  })
})

describe('responses that break the contract', () => {
  const broken: ApiTransport = async () => ({ status: 200, data: { unexpected: true } })

  it('authenticated calls throw ApiError 502, public calls log and return undefined, getMe reports 502', async () => {
    const rec = recorder()
    const c = createApiClient(() => broken, { logger: rec.logger })
    await expect(c.listRooms('token')).rejects.toMatchObject({ status: 502, code: 'invalid_response' })
    expect(await c.getMaster('categories')).toBeUndefined()
    expect(await c.getMe('token')).toMatchObject({ status: 502, code: 'invalid_response' })
    expect(rec.lines.filter((l) => l.includes('does not match the contract'))).toHaveLength(3)
  })
})

describe('calendar feeds', () => {
  it("never write the feed's secret token to the log, whatever goes wrong", async () => {
    const token = 'c'.repeat(43)
    const answers: ApiTransport[] = [
      async () => ({ status: 503, data: { code: 'database_unavailable', message: 'x' } }),
      async () => ({ status: 500, data: { code: 'internal_error', message: 'x' } }),
      async () => ({ status: 400, data: { code: 'invalid_request', message: 'x' } }),
      async () => ({ status: 200, data: { unexpected: true } }),
      async () => {
        throw new Error('connection refused')
      },
    ]
    const rec = recorder()
    for (const answer of answers) {
      const c = createApiClient(() => answer, { logger: rec.logger })
      await c.getCalendarFeed(token).catch(() => undefined)
    }
    expect(rec.lines).toHaveLength(answers.length)
    for (const line of rec.lines) {
      expect(line).toContain('/v1/calendar_feeds/{token}')
      expect(line).not.toContain(token)
    }
  })
})

describe('master lists', () => {
  it('are reused for a few minutes, while failures are thrown and asked again', async () => {
    let calls = 0
    const list = [{ id: 1, name: 'プログラミング', sort_order: 10 }]
    const counting: ApiTransport = async () => {
      calls++
      return { status: 200, data: list }
    }
    const c = createApiClient(() => counting, { logger: recorder().logger })
    expect(await c.getMaster('categories')).toEqual(list)
    expect(await c.getMaster('categories')).toEqual(list)
    expect(calls).toBe(1)
    await c.getMaster('target_grades')
    expect(calls).toBe(2)

    let failing = 0
    const down: ApiTransport = async () => {
      failing++
      return { status: 503, data: { code: 'unavailable', message: '利用できません' } }
    }
    const d = createApiClient(() => down, { logger: recorder().logger })
    // The API away is not "no such list": the page must say unavailable (503), and the next call asks again.
    await expect(d.getMaster('categories')).rejects.toMatchObject({ status: 503, code: 'unavailable' })
    await expect(d.getMaster('categories')).rejects.toMatchObject({ status: 503 })
    expect(failing).toBe(2)
  })
})

describe('class search results', () => {
  /** The real API in this process, counting the searches that reach it. */
  function countingClient(options: { searchResultsTtlMs?: number } = {}) {
    const calls = { search: 0 }
    const real = inProcessTransport(async () => api.app)
    const transport: ApiTransport = async (request) => {
      if (request.path === '/v1/class_works/search') calls.search++
      return real(request)
    }
    // This process only: the cross-instance bus is tested in events.test.ts (other tests' writes would
    // otherwise empty these caches whenever their messages arrive).
    const c = createApiClient(() => transport, { logger: recorder().logger, events: null, ...options })
    return { calls, c }
  }

  it('an identical search is answered from memory, whatever the order of its fields; others ask the API', async () => {
    const { calls, c } = countingClient()
    const first = await c.searchClassWorks({ q: '英語', sort: 'price_asc' })
    expect(first!.total).toBeGreaterThan(0)
    expect(await c.searchClassWorks({ sort: 'price_asc', q: '英語', category: undefined })).toBe(first)
    expect(calls.search).toBe(1)
    // Concurrent identical searches share one call.
    const [a, b] = await Promise.all([c.searchClassWorks({ q: '陶芸' }), c.searchClassWorks({ q: '陶芸' })])
    expect(a).toBe(b)
    expect(calls.search).toBe(2)
    await c.searchClassWorks({ q: '英語', sort: 'price_desc' })
    await c.searchClassWorks({ q: '英語', sort: 'price_asc', page: 2 })
    expect(calls.search).toBe(4)
  })

  it('a write that can change results empties it, even a failed one; favorites and messages keep it', async () => {
    const { calls, c } = countingClient()
    const found = await c.searchClassWorks({ q: 'えいご' })
    const classId = found!.items[0]!.id
    // Favorites are not part of search results (the call carries no token).
    await c.addFavorite(parent, classId)
    await c.removeFavorite(parent, classId)
    await c.searchClassWorks({ q: 'えいご' })
    expect(calls.search).toBe(1)
    // A profile edit can change a teacher's card; it empties the cache even when the API refuses it.
    await expect(c.updateMe(parent, { nickname: '' })).rejects.toMatchObject({ status: 400 })
    await c.searchClassWorks({ q: 'えいご' })
    expect(calls.search).toBe(2)
    await c.updateMe(parent, { nickname: 'ママ' })
    await c.searchClassWorks({ q: 'えいご' })
    expect(calls.search).toBe(3)
  })

  it('a write that ends while a search is under way: the search is asked again afterwards', async () => {
    let finish!: () => void
    const gate = new Promise<void>((resolve) => {
      finish = resolve
    })
    let searches = 0
    const real = inProcessTransport(async () => api.app)
    const slow: ApiTransport = async (request) => {
      if (request.path === '/v1/class_works/search' && ++searches === 1) await gate
      return real(request)
    }
    const c = createApiClient(() => slow, { logger: recorder().logger, events: null })
    const inFlight = c.searchClassWorks({ q: '将棋' })
    await c.updateMe(parent, { nickname: 'ママ' })
    finish()
    await inFlight
    await c.searchClassWorks({ q: '将棋' })
    expect(searches).toBe(2)
  })

  it('publishes search_invalidate after writes that can change results; a message from any instance empties it', async () => {
    const fake = fakeBus()
    let searches = 0
    const real = inProcessTransport(async () => api.app)
    const c = createApiClient(
      () => async (request) => {
        if (request.path === '/v1/class_works/search') searches++
        return real(request)
      },
      { logger: recorder().logger, events: async () => fake.bus },
    )
    await c.searchClassWorks({ q: '英語' })
    await c.searchClassWorks({ q: '英語' })
    expect(searches).toBe(1)
    await c.addFavorite(parent, 1).catch(() => {})
    // A member's own settings leave every instance's public caches alone (a loop of them would keep the site
    // uncached).
    expect(changesSearchResults('PUT', '/v1/users/notification_settings')).toBe(false)
    expect(changesSearchResults('POST', '/v1/users/calendar/regenerate')).toBe(false)
    // So does the furigana toggle, which the BFF sends to its own path.
    expect(await c.setFurigana(parent, true)).toEqual({ furigana: true })
    await c.setFurigana(parent, false)
    await c.searchClassWorks({ q: '英語' })
    expect(searches).toBe(1)
    await c.updateMe(parent, { nickname: 'ママ' })
    await vi.waitFor(() => expect(fake.published).toEqual(['search_invalidate /v1/users/me']))
    // Cleared locally at once, without waiting for the message.
    await c.searchClassWorks({ q: '英語' })
    expect(searches).toBe(2)
    // Another instance wrote.
    fake.deliver('/v1/teachers/class_works/1')
    await c.searchClassWorks({ q: '英語' })
    expect(searches).toBe(3)
    // The bus dropped: messages may be missed, so nothing is answered from memory until it is back.
    fake.lose()
    await c.searchClassWorks({ q: '英語' })
    await c.searchClassWorks({ q: '英語' })
    expect(searches).toBe(5)
    fake.ready()
    await c.searchClassWorks({ q: '英語' })
    await c.searchClassWorks({ q: '英語' })
    expect(searches).toBe(6)
    expect(fake.subscribed.mock.calls).toEqual([['search_invalidate']])
  })

  it('without a bus (the database away) searches still work, straight from the API', async () => {
    const fake = fakeBus({ refuse: true })
    let searches = 0
    const real = inProcessTransport(async () => api.app)
    const log = recorder()
    const c = createApiClient(
      () => async (request) => {
        if (request.path === '/v1/class_works/search') searches++
        return real(request)
      },
      { logger: log.logger, events: async () => fake.bus },
    )
    expect((await c.searchClassWorks({ q: '英語' }))?.total).toBeGreaterThan(0)
    expect((await c.searchClassWorks({ q: '英語' }))?.total).toBeGreaterThan(0)
    expect(searches).toBe(2)
    // Tried once, then left alone for a while (no connection attempt per search).
    expect(fake.subscriptions()).toBe(1)
    expect(log.lines.join('\n')).toContain('search cache off')
  })

  it('failures are not kept; results expire; 0 turns it off', async () => {
    const { calls, c } = countingClient({ searchResultsTtlMs: 20 })
    expect(await c.searchClassWorks({ page: 0 })).toBeUndefined()
    expect(await c.searchClassWorks({ page: 0 })).toBeUndefined()
    expect(calls.search).toBe(2)
    await c.searchClassWorks({ q: '将棋' })
    await new Promise((resolve) => setTimeout(resolve, 40))
    await c.searchClassWorks({ q: '将棋' })
    expect(calls.search).toBe(4)

    const off = countingClient({ searchResultsTtlMs: 0 })
    await off.c.searchClassWorks({ q: '将棋' })
    await off.c.searchClassWorks({ q: '将棋' })
    expect(off.calls.search).toBe(2)
  })
})

describe('public pages and lists (docs/decisions/0026)', () => {
  /** The real API in this process, counting the GETs that reach it by path. */
  function counting(options: { publicResultsTtlMs?: number } = {}) {
    const calls = new Map<string, number>()
    const real = inProcessTransport(async () => api.app)
    const transport: ApiTransport = async (request) => {
      if (request.method === 'GET') calls.set(request.path, (calls.get(request.path) ?? 0) + 1)
      return real(request)
    }
    const c = createApiClient(() => transport, { logger: recorder().logger, events: null, ...options })
    return { count: (path: string) => calls.get(path) ?? 0, c }
  }

  it('a class page, a teacher page and the home lists are answered from memory until a write empties them', async () => {
    const { count, c } = counting()
    const [card] = (await c.listNewArrivalsByClass(1))!
    const path = `/v1/class_works/${card!.id}`
    const first = await c.getClassWork(card!.id)
    expect(await c.getClassWork(card!.id)).toBe(first)
    await c.listNewArrivalsByClass(1)
    await c.getTeacher(card!.teacher.id)
    await c.getTeacher(card!.teacher.id)
    expect([
      count(path),
      count('/v1/class_works/new_arrivals_by_class'),
      count(`/v1/teachers/${card!.teacher.id}`),
    ]).toEqual([1, 1, 1])
    // A profile edit (any write that can change public pages) empties every entry.
    await c.updateMe(parent, { nickname: 'ママ' })
    await c.getClassWork(card!.id)
    await c.listNewArrivalsByClass(1)
    expect([count(path), count('/v1/class_works/new_arrivals_by_class')]).toEqual([2, 2])
    // Unknown ids are not kept.
    expect(await c.getClassWork(999_999)).toBeUndefined()
    expect(await c.getClassWork(999_999)).toBeUndefined()
    expect(count('/v1/class_works/999999')).toBe(2)
  })

  it('a list stops being answered from memory when the first lesson it shows starts', async () => {
    const real = inProcessTransport(async () => api.app)
    const cards = (await createApiClient(() => real, { events: null }).listNewArrivalsByClass(1))!
    let calls = 0
    let startsIn = 80
    const c = createApiClient(
      () => async () => {
        calls++
        const now = Date.now()
        return {
          status: 200,
          data: cards.map((card) => ({
            ...card,
            next_schedule: card.next_schedule && {
              ...card.next_schedule,
              started_at: new Date(now + startsIn).toISOString(),
              ended_at: new Date(now + startsIn + 3_600_000).toISOString(),
            },
          })),
        }
      },
      { logger: recorder().logger, events: null },
    )
    await c.listNewArrivalsByClass(1)
    await c.listNewArrivalsByClass(1)
    expect(calls).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 120))
    startsIn = 3_600_000
    await c.listNewArrivalsByClass(1)
    await c.listNewArrivalsByClass(1)
    expect(calls).toBe(2)
  })

  it('a message from another instance (a job freed a seat) empties it too; 0 turns it off', async () => {
    const fake = fakeBus()
    let calls = 0
    const real = inProcessTransport(async () => api.app)
    const c = createApiClient(
      () => async (request) => {
        if (request.path === '/v1/magazine_articles/facets') calls++
        return real(request)
      },
      { logger: recorder().logger, events: fake.events },
    )
    await c.getMagazineFacets()
    await c.getMagazineFacets()
    expect(calls).toBe(1)
    fake.deliver('job:payments.expire_hold')
    await c.getMagazineFacets()
    expect(calls).toBe(2)

    const off = counting({ publicResultsTtlMs: 0 })
    await off.c.getMagazineFacets()
    await off.c.getMagazineFacets()
    expect(off.count('/v1/magazine_articles/facets')).toBe(2)
  })
})

describe("a page's reads (docs/decisions/0033)", () => {
  const client = (events: ApiClientEvents = null) =>
    createApiClient(() => inProcessTransport(async () => api.app), { logger: recorder().logger, events })
  const checked = (reads: PageReads) => reads.checks.map((stillCurrent) => stillCurrent())

  it('cached reads are recorded with checks that hold until a write empties the cache', async () => {
    const c = client()
    const reads = await trackPageReads(async () => {
      const [card] = (await c.listNewArrivalsByClass(1))!
      await c.getClassWork(card!.id)
      await c.getClassWork(card!.id) // the same entry again: a second check
      await c.getMaster('categories')
      return currentPageReads()!
    })
    expect(reads.live).toBe(false)
    expect(checked(reads)).toEqual([true, true, true, true])
    // Another request filling the same entries does not touch this request's record.
    const again = await trackPageReads(async () => {
      await c.listNewArrivalsByClass(1)
      return currentPageReads()!
    })
    expect(again).toMatchObject({ live: false, checks: [expect.any(Function)] })
    await c.updateMe(parent, { nickname: 'ママ' })
    // The class entries are gone; the master list is not emptied by writes (it changes only with a deploy).
    expect(checked(reads)).toEqual([false, false, false, true])
  })

  it('a read no cache answers makes the request live: a member call, an unknown id, the cache off', async () => {
    const c = client()
    const live = (run: () => Promise<unknown>) =>
      trackPageReads(async () => {
        await run()
        return currentPageReads()!.live
      })
    expect(await live(() => c.getMagazineFacets())).toBe(false)
    expect(await live(() => c.getMe(parent))).toBe(true)
    expect(await live(() => c.getClassWork(999_999))).toBe(false) // a failed read: its check fails instead
    const failed = await trackPageReads(async () => {
      await c.getClassWork(999_999)
      return currentPageReads()!
    })
    expect(checked(failed)).toEqual([false])
    const off = createApiClient(() => inProcessTransport(async () => api.app), {
      logger: recorder().logger,
      events: null,
      publicResultsTtlMs: 0,
    })
    expect(await live(() => off.getMagazineFacets())).toBe(true)
    // A statement made by the request itself, outside any cached read.
    expect(
      await live(async () => {
        await api.db.select().from(rooms).limit(1)
      }),
    ).toBe(true)
  })

  it('a result whose cache entry expires stops being current', async () => {
    const c = createApiClient(() => inProcessTransport(async () => api.app), {
      logger: recorder().logger,
      events: null,
      publicResultsTtlMs: 50,
    })
    const reads = await trackPageReads(async () => {
      await c.getMagazineFacets()
      return currentPageReads()!
    })
    expect(checked(reads)).toEqual([true])
    await new Promise((resolve) => setTimeout(resolve, 80))
    expect(checked(reads)).toEqual([false])
  })
})

describe('HTTP transport', () => {
  let server: ReturnType<typeof serve>
  let baseUrl: string
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
        baseUrl = `http://127.0.0.1:${info.port}`
        resolve()
      })
    })
  })
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  it('talks to the API over HTTP with the same results', async () => {
    const c = createApiClient(() => httpTransport(baseUrl), { logger: recorder().logger })
    expect((await c.getMe(parent)).data?.sub).toBe(SUBS.parent)
    // demo|new registered earlier in this file; the LINE user has no profile.
    expect(await c.getMe(await tokenFor(SUBS.line))).toMatchObject({ status: 404, code: 'unregistered' })
    expect((await c.searchClassWorks({ q: '陶芸' }))!.total).toBeGreaterThan(0)
    await expect(c.getInvitationCode(parent)).rejects.toMatchObject({ status: 404 })
  })

  it('hands a file (the sales CSV) over as bytes on both transports; its refusal is still an ApiError', async () => {
    const teacher = await tokenFor(SUBS.teacher)
    const request = {
      method: 'GET' as const,
      path: '/v1/teachers/sales.csv',
      query: { month: '2026-01' },
      bytes: true,
    }
    for (const transport of [httpTransport(baseUrl), inProcessTransport(async () => api.app)]) {
      const c = createApiClient(() => transport, { logger: recorder().logger })
      const bytes = await c.request(teacher, z.instanceof(Uint8Array), request)
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
      expect(new TextDecoder().decode(bytes.subarray(3))).toMatch(/^購入ID,/)
      await expect(c.request(parent, z.instanceof(Uint8Array), request)).rejects.toMatchObject({
        status: 403,
        code: 'not_teacher',
      })
    }
  })

  /** A server that answers `failures` times with `status` (and Retry-After: 7) before answering 200 []. */
  async function flaky(status: number, failures: number) {
    const seen: string[] = []
    const srv: Server = createServer((req: IncomingMessage, res) => {
      seen.push(req.method ?? '')
      res.setHeader('content-type', 'application/json')
      if (seen.length <= failures) {
        res.statusCode = status
        res.setHeader('retry-after', '7')
        res.end(JSON.stringify({ code: 'busy', message: '混み合っています' }))
      } else {
        res.end('[]')
      }
    })
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`
    return { url, seen, close: () => new Promise((resolve) => srv.close(resolve)) }
  }

  it.each([408, 409, 425, 429, 500, 502, 503, 504])('retries a GET answered %i', async (status) => {
    const s = await flaky(status, 2)
    const c = createApiClient(() => httpTransport(s.url, { retryDelayMs: 1 }), { logger: recorder().logger })
    expect(await c.listRooms('token')).toEqual([])
    expect(s.seen).toEqual(['GET', 'GET', 'GET'])
    await s.close()
  })

  it('does not retry a 400 or a POST', async () => {
    const s = await flaky(400, 1)
    const c = createApiClient(() => httpTransport(s.url, { retryDelayMs: 1 }), { logger: recorder().logger })
    await expect(c.listRooms('token')).rejects.toMatchObject({
      status: 400,
      code: 'busy',
      message: '混み合っています',
    })
    await s.close()
    const p = await flaky(503, 1)
    const cp = createApiClient(() => httpTransport(p.url, { retryDelayMs: 1 }), { logger: recorder().logger })
    await expect(cp.updateMe('token', { nickname: 'x' })).rejects.toMatchObject({ status: 503 })
    expect(await cp.searchClassWorks({})).toBeUndefined()
    expect(p.seen).toEqual(['PATCH', 'POST'])
    await p.close()
  })

  it('passes a limit’s Retry-After on with the refusal (the BFF sends it to the browser)', async () => {
    const limited = await flaky(429, 1)
    const c = createApiClient(() => httpTransport(limited.url, { retryDelayMs: 1 }), {
      logger: recorder().logger,
    })
    await expect(c.updateMe('token', { nickname: 'x' })).rejects.toMatchObject({
      status: 429,
      retryAfterS: 7,
    })
    await limited.close()
  })

  it('gives up on a server that does not answer in time or at all', async () => {
    const silent = createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`
    const c = createApiClient(() => httpTransport(url, { timeoutMs: 200, retries: 0 }), {
      logger: recorder().logger,
    })
    expect(await c.getMe('token')).toMatchObject({ status: 504 })
    await expect(c.getMaster('categories')).rejects.toMatchObject({
      status: 504,
      code: 'upstream_unavailable',
    })
    silent.closeAllConnections()
    await new Promise((resolve) => silent.close(resolve))
    const down = createApiClient(() => httpTransport(url, { retries: 0 }), { logger: recorder().logger })
    expect(await down.getMe('token')).toMatchObject({ status: 503, code: 'upstream_unavailable' })
    await expect(down.listRooms('token')).rejects.toMatchObject({ status: 503 })
  })
})
