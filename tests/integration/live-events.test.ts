/**
 * Live updates across instances: instance A publishes a member event on its bus, instance B's `GET /events`
 * stream (its own bus, its own hub) passes it on to that member within a second. On PostgreSQL the buses are
 * LISTEN/NOTIFY on connections of their own; a disconnect lets go of B's subscription (UNLISTEN).
 */
import { randomBytes } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLocalEventBus, createPostgresEventBus, type EventBus } from '../../app/db/events'
import { sessions, users } from '../../app/db/schema'
import { createSessionStore, sessionRowId } from '../../app/server/auth/session.server'
import { publishMemberEventOn } from '../../app/server/live-events.server'
import {
  createLiveHub,
  type LiveEventsDeps,
  type LiveHub,
  liveEventsResponse,
  liveSessionIds,
  sessionMemberResolver,
} from '../../app/server/live-stream.server'
import { TEST_ISSUER } from './support/constants'
import { adminClient, databaseUrlFor, openTestDatabase, type TestDatabase } from './support/test-db'
import { SUBS } from './support/tokens'

const pgUrl = process.env.TEST_DATABASE_URL
const ORIGIN = 'http://localhost:3000'

let database: TestDatabase
let url: string | undefined
let store: ReturnType<typeof createSessionStore>

const newBus = (): EventBus => (url ? createPostgresEventBus(url) : createLocalEventBus())

beforeAll(async () => {
  database = await openTestDatabase()
  if (pgUrl) {
    const rows = (await database.db.execute(sql`select current_database() as name`)) as unknown as {
      name: string
    }[]
    url = databaseUrlFor(pgUrl, rows[0]!.name)
  }
  store = createSessionStore({
    secret: 'integration-test-session-secret-0123456789abcdef',
    isProduction: false,
    getDb: async () => database.db,
    issuer: TEST_ISSUER,
  })
})
afterAll(async () => {
  await database?.close()
})

/** A signed-in browser's cookie header for a demo subject (a real session row). */
async function cookieFor(sub: string): Promise<string> {
  const now = Date.now()
  const header = await store.sessionCookie(
    {
      sid: randomBytes(32).toString('base64url'),
      accessToken: 'not.used.here',
      accessTokenExpiresAt: now + 3_600_000,
      claims: { sub },
      checkedAt: now,
      createdAt: now,
    },
    'vitest',
  )
  return header.split(';')[0]!
}

async function userIdOf(sub: string): Promise<number> {
  const [row] = await database.db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.issuer, TEST_ISSUER), eq(users.sub, sub)))
  return row!.id
}

/** Reads a stream's events as they arrive. */
function events(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const received: { event: string; data: string; id: string; at: number }[] = []
  let buffer = ''
  const ended = (async () => {
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }))
      if (chunk.done) return
      buffer += decoder.decode(chunk.value, { stream: true })
      let end = buffer.indexOf('\n\n')
      while (end >= 0) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const field = (name: string) =>
          block
            .split('\n')
            .find((l) => l.startsWith(`${name}: `))
            ?.slice(name.length + 2) ?? ''
        if (field('event'))
          received.push({ event: field('event'), data: field('data'), id: field('id'), at: Date.now() })
        end = buffer.indexOf('\n\n')
      }
    }
  })()
  return { received, ended, cancel: () => reader.cancel() }
}

async function within(ms: number, check: () => boolean | Promise<boolean>): Promise<number> {
  const start = Date.now()
  for (;;) {
    if (await check()) return Date.now() - start
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe(`GET /events across instances (${pgUrl ? 'PostgreSQL LISTEN/NOTIFY' : 'in-process bus'})`, () => {
  let busA: EventBus
  let busB: EventBus
  let hubB: LiveHub
  let deps: LiveEventsDeps
  beforeAll(() => {
    busA = newBus()
    busB = newBus()
    hubB = createLiveHub({ getBus: async () => busB })
    deps = {
      hub: hubB,
      resolveMember: sessionMemberResolver({ store: () => store, getDb: async () => database.db }),
    }
  })
  afterAll(async () => {
    await hubB?.closeAll()
    await busA?.close()
    await busB?.close()
  })

  const connect = async (cookie: string | undefined, headers: Record<string, string> = {}) =>
    liveEventsResponse(
      new Request(`${ORIGIN}/events`, {
        headers: { 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}), ...headers },
      }),
      deps,
    )

  it('refuses a visitor (401) and a signed-in person without a profile (403)', async () => {
    const visitor = await connect(undefined)
    expect(visitor.status).toBe(401)
    expect(await visitor.json()).toEqual({ code: 'unauthorized', message: 'ログインが必要です' })
    const unregistered = await connect(await cookieFor(SUBS.newUser))
    expect(unregistered.status).toBe(403)
    expect(hubB.stats().streams).toBe(0)
  })

  it('refuses a suspended account’s session (a sign-in that raced the suspension): 401, no stream', async () => {
    const cookie = await cookieFor(SUBS.member01)
    const suspend = (at: Date | null) =>
      database.db.update(users).set({ suspendedAt: at }).where(eq(users.sub, SUBS.member01))
    await suspend(new Date())
    try {
      expect((await connect(cookie)).status).toBe(401)
      expect(hubB.stats().streams).toBe(0)
    } finally {
      await suspend(null)
    }
  })

  it('an event published on A reaches the member’s stream on B within 1 s, and no one else’s', async () => {
    const parentId = await userIdOf(SUBS.parent)
    const teacherId = await userIdOf(SUBS.teacher)
    const parentCookie = await cookieFor(SUBS.parent)
    const res = await connect(parentCookie)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    const parent = events(res.body!)
    const teacher = events((await connect(await cookieFor(SUBS.teacher))).body!)
    await within(2_000, () => parent.received.length > 0 && teacher.received.length > 0)
    expect(parent.received.map((e) => e.event)).toEqual(['ready'])
    expect(hubB.stats()).toEqual({ streams: 2, users: 2, subscribed: true })

    const sentAt = Date.now()
    await publishMemberEventOn(busA, [parentId], 'message', { roomId: 1 })
    await within(1_000, () => parent.received.some((e) => e.event === 'message'))
    const message = parent.received.find((e) => e.event === 'message')!
    expect(message.at - sentAt).toBeLessThan(1_000)
    expect(message.data).toBe('{"roomId":1}')
    expect(message.id).toMatch(/^[0-9a-f]{8}\.[0-9a-z]+$/)

    // A marker for the teacher: everything published before it has been delivered when it arrives.
    await publishMemberEventOn(busA, [teacherId], 'reservation')
    await within(1_000, () => teacher.received.some((e) => e.event === 'reservation'))
    expect(teacher.received.map((e) => e.event)).toEqual(['ready', 'reservation'])
    expect(parent.received.map((e) => e.event)).toEqual(['ready', 'message'])

    // A reconnect (Last-Event-ID) is told to refetch at once: nothing was kept for it.
    const again = events((await connect(parentCookie, { 'last-event-id': message.id })).body!)
    await within(1_000, () => again.received.length >= 2)
    expect(again.received.map((e) => e.event)).toEqual(['ready', 'sync'])

    await parent.cancel()
    await teacher.cancel()
    await again.cancel()
    await within(1_000, () => !hubB.stats().subscribed)
  })

  it('a disconnect unsubscribes: B stops listening once its last stream is gone', async () => {
    const parentId = await userIdOf(SUBS.parent)
    const listening = async () => {
      if (!pgUrl) return hubB.stats().subscribed
      // B's bus connection: LISTENing while a stream is open, UNLISTENed after the last one closed.
      const admin = adminClient(pgUrl)
      try {
        const name = new URL(url!).pathname.slice(1)
        const rows = await admin<{ query: string }[]>`
          select query from pg_stat_activity
          where datname = ${name} and query ilike '%listen "member_events"%' order by backend_start desc`
        return rows.some((r) => /^listen/i.test(r.query))
      } finally {
        await admin.end()
      }
    }
    const stream = events((await connect(await cookieFor(SUBS.parent))).body!)
    await within(1_000, () => stream.received.length > 0)
    expect(hubB.stats().subscribed).toBe(true)
    expect(await listening()).toBe(true)

    await stream.cancel()
    await stream.ended
    await within(1_000, () => hubB.stats().streams === 0 && !hubB.stats().subscribed)
    await within(2_000, async () => !(await listening()))

    // Published after the disconnect: nothing is delivered, and the next stream subscribes again.
    await publishMemberEventOn(busA, [parentId], 'notice')
    const next = events((await connect(await cookieFor(SUBS.parent))).body!)
    await within(1_000, () => next.received.length > 0)
    expect(await listening()).toBe(true)
    await publishMemberEventOn(busA, [parentId], 'announcement')
    await within(1_000, () => next.received.some((e) => e.event === 'announcement'))
    expect(next.received.map((e) => e.event)).toEqual(['ready', 'announcement'])
    await next.cancel()
  })

  it('ends every stream cleanly on shutdown', async () => {
    const hub = createLiveHub({ getBus: async () => busB })
    const shutdownDeps = { ...deps, hub }
    const res = await liveEventsResponse(
      new Request(`${ORIGIN}/events`, { headers: { cookie: await cookieFor(SUBS.parent) } }),
      shutdownDeps,
    )
    const stream = events(res.body!)
    await within(1_000, () => stream.received.length > 0)
    await hub.closeAll()
    await stream.ended
    const refused = await liveEventsResponse(
      new Request(`${ORIGIN}/events`, { headers: { cookie: await cookieFor(SUBS.parent) } }),
      shutdownDeps,
    )
    expect(refused.status).toBe(503)
  })
})

describe('a stream ends with its session', () => {
  it('once the session row is gone (signed out on another device, suspended) or past its end, the next heartbeat ends its stream', async () => {
    const bus = newBus()
    const hub = createLiveHub({
      getBus: async () => bus,
      heartbeatMs: 100,
      sessionsAlive: liveSessionIds(async () => database.db),
    })
    const deps: LiveEventsDeps = {
      hub,
      resolveMember: sessionMemberResolver({ store: () => store, getDb: async () => database.db }),
    }
    try {
      const open = async (cookie: string) =>
        events(
          (
            await liveEventsResponse(
              new Request(`${ORIGIN}/events`, { headers: { 'sec-fetch-site': 'same-origin', cookie } }),
              deps,
            )
          ).body!,
        )
      const ended = await cookieFor(SUBS.parent)
      const kept = await cookieFor(SUBS.parent)
      const gone = await open(ended)
      const stays = await open(kept)
      await within(2_000, () => hub.stats().streams === 2)
      const endedId = sessionRowId(decodeURIComponent(ended.split('=')[1]!))
      const deleted = await database.db.delete(sessions).where(eq(sessions.id, endedId)).returning()
      expect(deleted).toHaveLength(1)
      await within(2_000, () => hub.stats().streams === 1)
      await gone.ended
      // A session past its end (its row not yet swept) ends its stream too.
      const expiredId = sessionRowId(decodeURIComponent(kept.split('=')[1]!))
      await database.db
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1_000) })
        .where(eq(sessions.id, expiredId))
      await within(2_000, () => hub.stats().streams === 0)
      await stays.ended
    } finally {
      await hub.closeAll()
      await bus.close()
    }
  })
})
