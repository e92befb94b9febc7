import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EventBus, SubscribeHooks } from '../db/events'
import { encodeMemberEvents, MEMBER_EVENTS_CHANNEL } from './live-events.server'
import {
  createLiveHub,
  type LiveHub,
  liveEventsResponse,
  MAX_STREAMS_PER_MEMBER,
  type MemberResolver,
  sseComment,
  sseMessage,
  TooManyStreamsError,
} from './live-stream.server'

/** An in-memory bus that counts subscriptions and lets a test drop and restore its "connection". */
function fakeBus() {
  const subs = new Set<{ handler: (p: string) => void; hooks: SubscribeHooks }>()
  const log: string[] = []
  let fail = false
  const bus: EventBus = {
    kind: 'local',
    async publish(channel, payload = '') {
      for (const s of subs) if (channel === MEMBER_EVENTS_CHANNEL) s.handler(payload)
    },
    async subscribe(channel, handler, hooks = {}) {
      if (fail) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
      log.push(`subscribe ${channel}`)
      const entry = { handler, hooks }
      subs.add(entry)
      hooks.onReady?.()
      return async () => {
        log.push(`unsubscribe ${channel}`)
        subs.delete(entry)
      }
    },
    async close() {},
  }
  return {
    bus,
    log,
    get subscribers() {
      return subs.size
    },
    failSubscribe(value: boolean) {
      fail = value
    },
    async send(
      userIds: number[],
      type: 'message' | 'notice' | 'announcement' | 'reservation',
      data?: object,
    ) {
      for (const p of encodeMemberEvents(userIds, type, data as Record<string, unknown>))
        await bus.publish(MEMBER_EVENTS_CHANNEL, p)
    },
    drop() {
      for (const s of subs) s.hooks.onLost?.()
    },
    restore() {
      for (const s of subs) s.hooks.onReady?.()
    },
  }
}

/** Reads a stream's text as it arrives. */
function reader(stream: ReadableStream<Uint8Array>) {
  const r = stream.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let done = false
  const pump = (async () => {
    for (;;) {
      const chunk = await r.read()
      if (chunk.done) break
      text += decoder.decode(chunk.value, { stream: true })
    }
    done = true
  })()
  return {
    get text() {
      return text
    },
    get done() {
      return done
    },
    ended: pump,
    /** The events received so far, parsed. */
    events() {
      return text
        .split('\n\n')
        .filter((block) => block.split('\n').some((l) => l.startsWith('event:')))
        .map((block) => {
          const field = (name: string) =>
            block
              .split('\n')
              .find((l) => l.startsWith(`${name}: `))
              ?.slice(name.length + 2)
          return { id: field('id'), event: field('event'), data: field('data') }
        })
    },
    cancel: () => r.cancel(),
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0))
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await tick()
  expect(check()).toBe(true)
}

describe('SSE framing', () => {
  it('writes fields in order and ends with a blank line', () => {
    expect(sseMessage({ id: 'a.1', event: 'message', data: '{"roomId":3}' })).toBe(
      'id: a.1\nevent: message\ndata: {"roomId":3}\n\n',
    )
    expect(sseMessage({ retry: 3000.7, data: '' })).toBe('retry: 3000\ndata: \n\n')
  })

  it('splits multi-line data over data lines and keeps line breaks out of single-line fields', () => {
    expect(sseMessage({ data: 'one\ntwo\r\nthree\rfour' })).toBe(
      'data: one\ndata: two\ndata: three\ndata: four\n\n',
    )
    expect(sseMessage({ id: 'x\ny\0', event: 'a\r\nb' })).toBe('id: xy\nevent: ab\n\n')
  })

  it('writes comments', () => {
    expect(sseComment()).toBe(':\n\n')
    expect(sseComment('hi\nthere')).toBe(': hithere\n\n')
  })
})

describe('live hub', () => {
  let hub: LiveHub | undefined
  afterEach(async () => {
    await hub?.closeAll()
    hub = undefined
    vi.useRealTimers()
  })

  it('subscribes to the bus once and fans each event out to the streams of the members it names', async () => {
    const bus = fakeBus()
    hub = createLiveHub({ getBus: async () => bus.bus })
    const a1 = reader(await hub.open(1))
    const a2 = reader(await hub.open(1))
    const b = reader(await hub.open(2))
    expect(bus.log).toEqual([`subscribe ${MEMBER_EVENTS_CHANNEL}`])
    expect(hub.stats()).toEqual({ streams: 3, users: 2, subscribed: true })

    await bus.send([1], 'message', { roomId: 4 })
    await bus.send([2, 3], 'reservation')
    await until(() => a1.events().length === 2 && a2.events().length === 2 && b.events().length === 2)
    expect(a1.events().map((e) => e.event)).toEqual(['ready', 'message'])
    expect(a1.events()[1]!.data).toBe('{"roomId":4}')
    expect(a2.events().map((e) => e.event)).toEqual(['ready', 'message'])
    expect(b.events().map((e) => [e.event, e.data])).toEqual([
      ['ready', '{}'],
      ['reservation', '{}'],
    ])
    // Every event has an id (so the browser sends Last-Event-ID when it reconnects), each one its own.
    const ids = [...a1.events(), ...b.events()].map((e) => e.id)
    expect(ids.every((id) => id && /^[0-9a-f]{8}\.[0-9a-z]+$/.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    // The first bytes tell the browser how long to wait before reconnecting.
    expect(a1.text).toMatch(/^retry: \d+\n/)
  })

  it('sends sync at once to a reconnect (Last-Event-ID), not to a first connection', async () => {
    const bus = fakeBus()
    hub = createLiveHub({ getBus: async () => bus.bus })
    const first = reader(await hub.open(1))
    const again = reader(await hub.open(1, { lastEventId: 'abcd0123.5' }))
    await until(() => again.events().length === 2)
    expect(again.events().map((e) => e.event)).toEqual(['ready', 'sync'])
    await tick()
    expect(first.events().map((e) => e.event)).toEqual(['ready'])
  })

  it('tells every stream to sync when the bus comes back after losing its connection', async () => {
    const bus = fakeBus()
    hub = createLiveHub({ getBus: async () => bus.bus })
    const s = reader(await hub.open(1))
    bus.restore() // a ready without a loss first: nothing to say
    bus.drop()
    bus.restore()
    await until(() => s.events().length === 2)
    expect(s.events().map((e) => e.event)).toEqual(['ready', 'sync'])
  })

  it('lets go of the bus when the last client disconnects, and subscribes again for the next', async () => {
    const bus = fakeBus()
    hub = createLiveHub({ getBus: async () => bus.bus })
    const a = reader(await hub.open(1))
    const b = reader(await hub.open(2))
    await a.cancel()
    await tick()
    expect(hub.stats()).toEqual({ streams: 1, users: 1, subscribed: true })
    await b.cancel()
    await until(() => bus.subscribers === 0)
    expect(hub.stats()).toEqual({ streams: 0, users: 0, subscribed: false })
    expect(bus.log).toEqual([`subscribe ${MEMBER_EVENTS_CHANNEL}`, `unsubscribe ${MEMBER_EVENTS_CHANNEL}`])
    // Nothing reaches a stream that is gone (and nothing throws).
    await bus.send([1, 2], 'message')
    const c = reader(await hub.open(1))
    expect(bus.subscribers).toBe(1)
    await bus.send([1], 'notice')
    await until(() => c.events().length === 2)
    expect(c.events()[1]!.event).toBe('notice')
  })

  it('closes the stream when the request is aborted', async () => {
    const bus = fakeBus()
    hub = createLiveHub({ getBus: async () => bus.bus })
    const controller = new AbortController()
    const s = reader(await hub.open(1, { signal: controller.signal }))
    controller.abort()
    await s.ended
    await until(() => bus.subscribers === 0)
    expect(hub.stats().streams).toBe(0)
  })

  it('writes a heartbeat comment, and ends a stream past its lifetime', async () => {
    vi.useFakeTimers()
    let now = 0
    const bus = fakeBus()
    hub = createLiveHub({
      getBus: async () => bus.bus,
      heartbeatMs: 25_000,
      lifetimeMs: 60_000,
      now: () => now,
      random: () => 0.5, // the lifetime as it is
    })
    const s = reader(await hub.open(1))
    await vi.advanceTimersByTimeAsync(0)
    const before = s.text
    now = 25_000
    await vi.advanceTimersByTimeAsync(25_000)
    expect(s.text.slice(before.length)).toBe(':\n\n')
    now = 60_000
    await vi.advanceTimersByTimeAsync(50_000)
    await s.ended
    expect(s.done).toBe(true)
    expect(hub.stats().streams).toBe(0)
  })

  it('spreads the ends of streams opened together over ±20 % of the lifetime', async () => {
    vi.useFakeTimers()
    let now = 0
    const bus = fakeBus()
    const draws = [0, 0.25, 0.5, 0.75, 0.999]
    hub = createLiveHub({
      getBus: async () => bus.bus,
      heartbeatMs: 1_000,
      lifetimeMs: 100_000,
      now: () => now,
      random: () => draws.shift() ?? 0.5,
    })
    const streams: ReturnType<typeof reader>[] = []
    for (let n = 0; n < 5; n++) streams.push(reader(await hub.open(n + 1)))
    await vi.advanceTimersByTimeAsync(0)
    const endedAt = async (t: number) => {
      now = t
      await vi.advanceTimersByTimeAsync(1_000)
      return streams.filter((s) => s.done).length
    }
    expect(await endedAt(79_000)).toBe(0)
    expect(await endedAt(81_000)).toBe(1) // 80 s
    expect(await endedAt(91_000)).toBe(2) // 90 s
    expect(await endedAt(101_000)).toBe(3) // 100 s
    expect(await endedAt(111_000)).toBe(4) // 110 s
    expect(await endedAt(120_000)).toBe(5) // just under 120 s
  })

  it(`keeps at most ${MAX_STREAMS_PER_MEMBER} streams of one member: the next is refused, open ones and others untouched`, async () => {
    const bus = fakeBus()
    hub = createLiveHub({ getBus: async () => bus.bus })
    const other = reader(await hub.open(2))
    const mine = []
    for (let n = 0; n < MAX_STREAMS_PER_MEMBER; n++) mine.push(reader(await hub.open(1)))
    await expect(hub.open(1)).rejects.toBeInstanceOf(TooManyStreamsError)
    expect(mine.every((s) => !s.done)).toBe(true)
    expect(other.done).toBe(false)
    expect(hub.stats()).toMatchObject({ streams: MAX_STREAMS_PER_MEMBER + 1, users: 2 })
    // One closes: a new one is taken again.
    await mine[0]!.cancel()
    reader(await hub.open(1))
  })

  it('ends a stream at the next heartbeat once its session is gone (logout elsewhere, suspension)', async () => {
    vi.useFakeTimers()
    const bus = fakeBus()
    const alive = new Set(['s1', 's2'])
    hub = createLiveHub({
      getBus: async () => bus.bus,
      heartbeatMs: 25_000,
      sessionsAlive: async (ids) => new Set(ids.filter((id) => alive.has(id))),
    })
    const one = reader(await hub.open(1, { sessionId: 's1' }))
    const two = reader(await hub.open(1, { sessionId: 's2' }))
    await vi.advanceTimersByTimeAsync(25_000)
    expect([one.done, two.done]).toEqual([false, false])
    alive.delete('s1')
    await vi.advanceTimersByTimeAsync(25_000)
    await one.ended
    expect([one.done, two.done]).toEqual([true, false])
    expect(hub.stats().streams).toBe(1)
  })

  it('ends every stream on shutdown and refuses new ones', async () => {
    const bus = fakeBus()
    hub = createLiveHub({ getBus: async () => bus.bus })
    const a = reader(await hub.open(1))
    const b = reader(await hub.open(2))
    await hub.closeAll()
    await Promise.all([a.ended, b.ended])
    expect(bus.subscribers).toBe(0)
    await expect(hub.open(1)).rejects.toThrow(/shutting down/)
  })

  it('rejects a stream when the bus cannot be subscribed, and tries again for the next one', async () => {
    const bus = fakeBus()
    hub = createLiveHub({ getBus: async () => bus.bus })
    bus.failSubscribe(true)
    await expect(hub.open(1)).rejects.toThrow(/ECONNREFUSED/)
    expect(hub.stats()).toEqual({ streams: 0, users: 0, subscribed: false })
    bus.failSubscribe(false)
    reader(await hub.open(1))
    expect(hub.stats().subscribed).toBe(true)
  })
})

describe('GET /events', () => {
  const origin = 'http://localhost:3000'
  const request = (headers: Record<string, string> = {}) =>
    new Request(`${origin}/events`, { headers: { 'sec-fetch-site': 'same-origin', ...headers } })

  function deps(userId: number | null | undefined) {
    const bus = fakeBus()
    const hub = createLiveHub({ getBus: async () => bus.bus })
    const resolveMember: MemberResolver = vi.fn(async () =>
      typeof userId === 'number' ? { userId } : userId,
    )
    return { hub, resolveMember, bus }
  }

  it('streams text/event-stream, uncached, to a signed-in member', async () => {
    const d = deps(42)
    const res = await liveEventsResponse(request({ 'last-event-id': 'x.1' }), d)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/event-stream')
    expect(res.headers.get('cache-control')).toBe('no-store')
    const s = reader(res.body!)
    await d.bus.send([42], 'announcement')
    await until(() => s.events().length === 3)
    expect(s.events().map((e) => e.event)).toEqual(['ready', 'sync', 'announcement'])
    await d.hub.closeAll()
    await s.ended
  })

  it('answers 429 with a Japanese message past the streams one member may hold', async () => {
    const d = deps(7)
    for (let n = 0; n < MAX_STREAMS_PER_MEMBER; n++) reader(await d.hub.open(7))
    const res = await liveEventsResponse(request(), d)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('60')
    expect((await res.json()).code).toBe('too_many_streams')
    await d.hub.closeAll()
  })

  it('answers 401 with a Japanese message when signed out, 403 without a profile', async () => {
    const out = await liveEventsResponse(request(), deps(undefined))
    expect(out.status).toBe(401)
    expect(out.headers.get('cache-control')).toBe('no-store')
    expect(await out.json()).toEqual({ code: 'unauthorized', message: 'ログインが必要です' })
    const unregistered = await liveEventsResponse(request(), deps(null))
    expect(unregistered.status).toBe(403)
    expect((await unregistered.json()).code).toBe('unregistered')
  })

  it('refuses other origins before looking at the session', async () => {
    const refused: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
    ]
    for (const headers of refused) {
      const d = deps(42)
      const res = await liveEventsResponse(request(headers), d)
      expect(res.status).toBe(403)
      expect((await res.json()).code).toBe('cross_origin')
      expect(d.resolveMember).not.toHaveBeenCalled()
    }
    // A client that says nothing about where it comes from (curl) still needs the cookie.
    const res = await liveEventsResponse(new Request(`${origin}/events`), deps(undefined))
    expect(res.status).toBe(401)
  })

  it('answers 503 with Retry-After while the database or the bus is away', async () => {
    const down: MemberResolver = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    }
    const d = deps(1)
    const res = await liveEventsResponse(request(), { hub: d.hub, resolveMember: down })
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBeTruthy()
    d.bus.failSubscribe(true)
    const res2 = await liveEventsResponse(request(), d)
    expect(res2.status).toBe(503)
    expect((await res2.json()).code).toBe('live_unavailable')
  })
})
