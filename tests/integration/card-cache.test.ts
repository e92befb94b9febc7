/**
 * Search cards kept between searches (app/api/card-cache.ts, docs/decisions/0054), through two /v1 instances on one
 * database, each with its own bus (PostgreSQL: LISTEN/NOTIFY on connections of its own). A kept card is proved in
 * use by a change made behind the API's back that it does not show; every write through /v1 shows at once on its
 * own instance and within a second on the other; a job's publish empties both; a card's next lesson moves on
 * when it starts; with the database away a search answers 503, not kept cards; and a crowd booking through both
 * instances leaves both showing the seats the database holds.
 */
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiApp } from '../../app/api/app'
import { CARD_CACHE_TTL_MS } from '../../app/api/card-cache'
import { SEARCH_INVALIDATE_CHANNEL } from '../../app/api/search-invalidation'
import { type ClassWorkCard, ClassWorkSearchResult } from '../../app/contract/v1/class-works'
import { type Database, openDatabase } from '../../app/db/client'
import { createLocalEventBus, createPostgresEventBus, type EventBus } from '../../app/db/events'
import { classWorkSchedules, classWorks, purchases } from '../../app/db/schema'
import { type CallResult, callerOf, setupApi, type TestApi } from './support/api'
import { loadMasters, type Masters, postClass, postSchedule } from './support/classes'
import { insertMembers, insertTeacher } from './support/people'
import { testAuth, tokenFor } from './support/tokens'

const HOUR = 3_600_000
const pgUrl = process.env.TEST_DATABASE_URL

/** Polls `check` until it holds or `ms` pass (throws on timeout). */
async function within(ms: number, check: () => Promise<boolean>): Promise<void> {
  const start = Date.now()
  for (;;) {
    if (await check()) return
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

function ok(res: CallResult, status = 200) {
  if (res.status !== status) throw new Error(`${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

let api: TestApi
let masters: Masters
let second: Database | undefined
let busA: EventBus
let busB: EventBus
/** Instance B: its own /v1 app, card cache and bus (and on PostgreSQL its own connections). */
let callB: TestApi['call']
/** Both instances' clock. */
let clock: Date
const newBus = () =>
  pgUrl && api.database.url ? createPostgresEventBus(api.database.url) : createLocalEventBus()

beforeAll(async () => {
  // A's bus is made before A's first request; `busA` is read when the cache first subscribes.
  api = await setupApi({
    events: async () => busA,
    cardCacheTtlMs: CARD_CACHE_TTL_MS,
    now: () => clock,
  })
  clock = api.now
  busA = newBus()
  busB = newBus()
  if (api.database.url) second = await openDatabase({ databaseUrl: api.database.url, migrate: false })
  const b = createApiApp({
    getDb: async () => (second ?? api.database).db,
    auth: testAuth,
    now: () => clock,
    events: async () => busB,
    cardCacheTtlMs: CARD_CACHE_TTL_MS,
  })
  callB = callerOf(b)
  masters = await loadMasters(api)
})
afterAll(async () => {
  await busA?.close()
  await busB?.close()
  await second?.close()
  await api?.close()
})

type Call = TestApi['call']
const callA: Call = (...args) => api.call(...args)

/** Each class's teacher: every class has a new one, as a teacher gives one lesson at a time (0056). */
const teacherOf = new Map<number, string>()

/** A published class of a new teacher with a word of its own, and a schedule `hours` after the clock. */
async function searchableClass(capacity = 5, hours = [24]) {
  const word = `かーど${randomBytes(3).toString('hex')}`
  const teacher = await insertTeacher(api.db, 'card-teacher')
  const id = ok(
    await postClass(api, masters, teacher, { title: `${word} 教室`, capacity, is_published: true }),
    201,
  ).id as number
  teacherOf.set(id, teacher)
  const schedules: number[] = []
  for (const h of hours)
    schedules.push(ok(await postSchedule(api, teacher, id, new Date(clock.getTime() + h * HOUR)), 201).id)
  return { id, word, schedules }
}

async function cardOf(call: Call, word: string): Promise<ClassWorkCard | undefined> {
  const result = ClassWorkSearchResult.parse(
    ok(await call('POST', '/v1/class_works/search', { body: { q: word } })),
  )
  return result.items[0]
}

/** Changes a card's capacity behind the API's back (no write through /v1, nothing published). */
const setCapacity = (id: number, capacity: number) =>
  api.db.update(classWorks).set({ capacity }).where(eq(classWorks.id, id))

/** Waits until `call`'s instance answers the card from memory: a change behind its back does not show. */
async function expectKept(call: Call, id: number, word: string) {
  let capacity = 40
  await within(2_000, async () => {
    const seen = (await cardOf(call, word))?.capacity
    await setCapacity(id, ++capacity)
    return seen !== undefined && (await cardOf(call, word))?.capacity === seen
  })
}

/** The teacher's edit of a class's capacity through `call`'s /v1. */
const editCapacity = async (call: Call, id: number, capacity: number) =>
  ok(
    await call('PATCH', `/v1/teachers/class_works/${id}`, {
      token: await tokenFor(teacherOf.get(id)!),
      body: { capacity },
    }),
  )

const reserve = async (call: Call, sub: string, scheduleId: number) =>
  ok(
    await call('POST', '/v1/purchases', { token: await tokenFor(sub), body: { schedule_id: scheduleId } }),
    201,
  )

describe(`search cards kept between searches (${pgUrl ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('answers a card from memory once its bus is subscribed, and a write through its own /v1 shows at once', async () => {
    // An instance whose publishes reach no one, itself included: only its own clear can show its writes at once.
    const own = newBus()
    const callC = callerOf(
      createApiApp({
        getDb: async () => api.db,
        auth: testAuth,
        now: () => clock,
        events: async () => ({ ...own, publish: async () => {} }),
        cardCacheTtlMs: CARD_CACHE_TTL_MS,
      }),
    )
    try {
      const c = await searchableClass()
      await expectKept(callC, c.id, c.word)
      await editCapacity(callC, c.id, 9)
      expect((await cardOf(callC, c.word))?.capacity).toBe(9)
      const [parent] = await insertMembers(api.db, 'card-cache-own', 1)
      await reserve(callC, parent!, c.schedules[0]!)
      expect((await cardOf(callC, c.word))?.next_schedule?.purchased_count).toBe(1)
    } finally {
      await own.close()
    }
  })

  it('with the database away a search answers 503, not the cards it kept', async () => {
    let away = false
    const own = newBus()
    const callD = callerOf(
      createApiApp({
        getDb: async () => {
          if (away) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
          return api.db
        },
        auth: testAuth,
        now: () => clock,
        events: async () => own,
        cardCacheTtlMs: CARD_CACHE_TTL_MS,
      }),
    )
    try {
      const c = await searchableClass()
      await expectKept(callD, c.id, c.word)
      away = true
      const res = await callD('POST', '/v1/class_works/search', { body: { q: c.word } })
      expect(res.status).toBe(503)
      expect(res.body.code).toBe('database_unavailable')
      expect(res.headers.get('retry-after')).not.toBeNull()
    } finally {
      await own.close()
    }
  })

  it('a write through the other instance shows within a second: an edit, then a reservation', async () => {
    const c = await searchableClass()
    await expectKept(callA, c.id, c.word)
    await editCapacity(callB, c.id, 7)
    await within(1_000, async () => (await cardOf(callA, c.word))?.capacity === 7)
    const [parent] = await insertMembers(api.db, 'card-cache-other', 1)
    await reserve(callB, parent!, c.schedules[0]!)
    await within(1_000, async () => (await cardOf(callA, c.word))?.next_schedule?.purchased_count === 1)
  })

  it('a job’s publish (seats moved outside /v1) empties every instance’s cards', async () => {
    const c = await searchableClass()
    await expectKept(callA, c.id, c.word)
    await expectKept(callB, c.id, c.word)
    // Seats moved by a job: the job runner writes, then publishes (app/notifications/runtime.server.ts).
    await api.db
      .update(classWorkSchedules)
      .set({ purchasedCount: 3 })
      .where(eq(classWorkSchedules.id, c.schedules[0]!))
    await busB.publish(SEARCH_INVALIDATE_CHANNEL, 'job:payments.expire_hold')
    for (const call of [callA, callB])
      await within(1_000, async () => (await cardOf(call, c.word))?.next_schedule?.purchased_count === 3)
  })

  it('a kept card’s next lesson moves on when it starts, with no write', async () => {
    const start = clock
    try {
      const c = await searchableClass(5, [1, 2])
      await expectKept(callA, c.id, c.word)
      expect((await cardOf(callA, c.word))?.next_schedule?.id).toBe(c.schedules[0])
      clock = new Date(start.getTime() + HOUR) // the first lesson starts now: still the next one
      expect((await cardOf(callA, c.word))?.next_schedule?.id).toBe(c.schedules[0])
      clock = new Date(start.getTime() + HOUR + 1)
      expect((await cardOf(callA, c.word))?.next_schedule?.id).toBe(c.schedules[1])
    } finally {
      clock = start
    }
  })

  it('a crowd booking through both instances while both search: both show the seats the database holds', async () => {
    const c = await searchableClass(40)
    await expectKept(callA, c.id, c.word)
    await expectKept(callB, c.id, c.word)
    const members = await insertMembers(api.db, 'card-cache-crowd', 16)
    let booking = true
    const searching = [callA, callB].map(async (call) => {
      let n = 0
      while (booking) {
        await cardOf(call, c.word)
        n++
        // A turn of the event loop, as requests from a network give: the bookings' token checks finish there.
        await new Promise((resolve) => setImmediate(resolve))
      }
      return n
    })
    try {
      await Promise.all(members.map((sub, i) => reserve(i % 2 ? callA : callB, sub, c.schedules[0]!)))
    } finally {
      booking = false
    }
    expect(Math.min(...(await Promise.all(searching)))).toBeGreaterThan(0)
    const [held] = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(purchases)
      .where(eq(purchases.scheduleId, c.schedules[0]!))
    expect(held?.n).toBe(16)
    for (const call of [callA, callB])
      await within(1_000, async () => (await cardOf(call, c.word))?.next_schedule?.purchased_count === 16)
  })
})
