import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { timeout } from 'hono/timeout'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeBus } from '../../tests/support/fake-bus'
import { RequestTimedOutError } from './errors'
import {
  changesSearchResults,
  SEARCH_BUS_RETRY_MS,
  SEARCH_INVALIDATE_CHANNEL,
  searchInvalidation,
  searchInvalidationListener,
} from './search-invalidation'

describe('changesSearchResults', () => {
  it('keeps search caches for reads and for writes that cannot change a search', () => {
    expect(changesSearchResults('GET', '/v1/teachers/class_works')).toBe(false)
    expect(changesSearchResults('POST', '/v1/class_works/search')).toBe(false)
    expect(changesSearchResults('POST', '/v1/users/favorites')).toBe(false)
    expect(changesSearchResults('PATCH', '/v1/teachers/class_works/3')).toBe(true)
    expect(changesSearchResults('POST', '/v1/purchases')).toBe(true)
    // A member leaving takes their classes out of the organisation, whose name the cards show.
    expect(changesSearchResults('POST', '/v1/org_users/invitation_code/regenerate')).toBe(false)
    expect(changesSearchResults('POST', '/v1/org_users/leave')).toBe(true)
  })
})

describe('searchInvalidation', () => {
  /**
   * The API's order: the request timeout outside, the invalidation inside, then a write that waits for `gate` and
   * ends as `end` says. A short timeout answers 503 while the gate is shut (no race with the clock).
   */
  function appWith(
    fake: ReturnType<typeof fakeBus>,
    end: 'ok' | 'refused',
    options: { timeoutMs: number; gate?: Promise<void> },
  ) {
    const app = new Hono()
    app.use(
      '*',
      timeout(options.timeoutMs, () => new RequestTimedOutError()),
    )
    app.use('*', searchInvalidation(fake.events, undefined, { error: () => {} }))
    app.post('/v1/teachers/class_works/:id', async (c) => {
      await options.gate
      if (end === 'refused') throw new HTTPException(409)
      return c.json({ ok: true })
    })
    app.onError((err, c) => c.json({}, err instanceof HTTPException ? err.status : 500))
    return app
  }
  const post = (app: Hono) => app.request('/v1/teachers/class_works/3', { method: 'POST' })
  const gated = () => {
    let open = () => {}
    const gate = new Promise<void>((resolve) => {
      open = resolve
    })
    return { gate, open }
  }

  it('tells every instance once a write succeeded; not after a refusal', async () => {
    const fake = fakeBus()
    expect((await post(appWith(fake, 'ok', { timeoutMs: 5_000 }))).status).toBe(200)
    expect(fake.published).toEqual([`${SEARCH_INVALIDATE_CHANNEL} /v1/teachers/class_works/3`])
    const refused = fakeBus()
    expect((await post(appWith(refused, 'refused', { timeoutMs: 5_000 }))).status).toBe(409)
    expect(refused.published).toEqual([])
  })

  it('a write answered 503 by the timeout that commits later still tells every instance, once it has', async () => {
    const fake = fakeBus()
    const { gate, open } = gated()
    expect((await post(appWith(fake, 'ok', { timeoutMs: 20, gate }))).status).toBe(503)
    // Not yet: the write has not finished.
    expect(fake.published).toEqual([])
    open()
    await vi.waitFor(() =>
      expect(fake.published).toEqual([`${SEARCH_INVALIDATE_CHANNEL} /v1/teachers/class_works/3`]),
    )
  })

  it('a write answered 503 by the timeout that then fails tells no one', async () => {
    const fake = fakeBus()
    const { gate, open } = gated()
    expect((await post(appWith(fake, 'refused', { timeoutMs: 20, gate }))).status).toBe(503)
    open()
    await gate
    // The handler throws in the microtasks after the gate opens; the middleware's end follows within them.
    await new Promise((r) => setTimeout(r, 50))
    expect(fake.published).toEqual([])
  })
})

describe('searchInvalidationListener', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('subscribes once for concurrent callers and listens from the subscription being ready', async () => {
    const fake = fakeBus()
    const onInvalid = vi.fn()
    const listener = searchInvalidationListener(fake.events, onInvalid, { onFailed: () => {} })
    expect(listener.listening()).toBe(false)
    expect(await Promise.all([listener.ensure(), listener.ensure(), listener.ensure()])).toEqual([
      true,
      true,
      true,
    ])
    expect(fake.subscribed.mock.calls).toEqual([[SEARCH_INVALIDATE_CHANNEL]])
    expect(listener.listening()).toBe(true)
    // Ready empties the cache: messages sent before it were not heard.
    expect(onInvalid).toHaveBeenCalledTimes(1)
    fake.deliver()
    expect(onInvalid).toHaveBeenCalledTimes(2)
  })

  it('stops listening when the subscription is lost, empties the cache, and listens again once ready', async () => {
    const fake = fakeBus()
    const onInvalid = vi.fn()
    const listener = searchInvalidationListener(fake.events, onInvalid, { onFailed: () => {} })
    await listener.ensure()
    fake.lose()
    expect(listener.listening()).toBe(false)
    expect(onInvalid).toHaveBeenCalledTimes(2)
    // The bus subscribes again by itself: no second subscription from here.
    expect(await listener.ensure()).toBe(false)
    fake.ready()
    expect(listener.listening()).toBe(true)
    expect(onInvalid).toHaveBeenCalledTimes(3)
    expect(fake.subscriptions()).toBe(1)
  })

  it('reports a failed subscription, and tries again only after SEARCH_BUS_RETRY_MS', async () => {
    vi.useFakeTimers({ now: new Date('2026-12-05T10:00:00Z') })
    const fake = fakeBus({ refuse: true })
    const failures: unknown[] = []
    const listener = searchInvalidationListener(fake.events, () => {}, {
      onFailed: (err) => failures.push(err),
    })
    expect(await listener.ensure()).toBe(false)
    expect(failures).toHaveLength(1)
    vi.advanceTimersByTime(SEARCH_BUS_RETRY_MS - 1)
    expect(await listener.ensure()).toBe(false)
    expect(fake.subscriptions()).toBe(1)
    vi.advanceTimersByTime(2)
    expect(await listener.ensure()).toBe(false)
    expect(fake.subscriptions()).toBe(2)
    expect(listener.listening()).toBe(false)
  })

  it('subscribes through `run` (the BFF leaves the asking request out of it)', async () => {
    const fake = fakeBus()
    const run = vi.fn((subscribe: () => Promise<boolean>) => subscribe())
    const listener = searchInvalidationListener(fake.events, () => {}, { onFailed: () => {}, run })
    await listener.ensure()
    await listener.ensure()
    expect(run).toHaveBeenCalledTimes(1)
  })
})
