/**
 * A retried write (network hiccup, double tap) with the same Idempotency-Key is applied once: the repeat gets the
 * first answer and changes nothing, also when the repeats arrive at once (on PostgreSQL truly concurrently).
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_REQUEST_TIMEOUT_MS, createApiApp } from '../../app/api/app'
import { idempotencyKeys, messages, rateLimits } from '../../app/db/schema'
import { setupApi, type TestApi } from './support/api'
import { accessToken, SUBS, testAuth } from './support/tokens'

let api: TestApi
let roomId: number

beforeAll(async () => {
  api = await setupApi()
  const room = await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: await api.userId(SUBS.teacher) })
  roomId = room.body.id
})
afterAll(async () => {
  await api?.close()
})

const count = async () =>
  (await api.db.select({ id: messages.id }).from(messages).where(eq(messages.roomId, roomId))).length

async function send(token: string, key: string | undefined, body: string, app = api.app) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  }
  if (key !== undefined) headers['idempotency-key'] = key
  const res = await app.fetch(
    new Request(`http://api.test/v1/rooms/${roomId}/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ body }),
    }),
  )
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: await res.json() }
}

describe('Idempotency-Key on /v1 writes', () => {
  it('a repeat gets the first answer and sends nothing twice', async () => {
    const token = await accessToken(SUBS.parent)
    const before = await count()
    const first = await send(token, 'key-repeat-1', '二度押し')
    const second = await send(token, 'key-repeat-1', '二度押し')
    expect(first.status).toBe(201)
    expect(second).toMatchObject({ status: 201, replayed: 'true', body: first.body })
    expect(await count()).toBe(before + 1)
    // A new key is a new message.
    expect((await send(token, 'key-repeat-2', '二度押し')).status).toBe(201)
    expect(await count()).toBe(before + 2)
  })

  it('10 repeats at once, through two instances, give one message', async () => {
    const token = await accessToken(SUBS.parent)
    const other = createApiApp({
      getDb: async () => api.db,
      auth: testAuth,
      now: () => api.now,
      events: null,
      limits: false,
    })
    const before = await count()
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => send(token, 'key-burst', '同時', i % 2 ? other : api.app)),
    )
    expect(await count()).toBe(before + 1)
    const created = results.filter((r) => r.status === 201)
    expect(created.length + results.filter((r) => r.status === 409).length).toBe(10)
    for (const r of created) expect(r.body.id).toBe(created[0]!.body.id)
  })

  it('the same key with another request is 422 and changes nothing; another user’s key is theirs', async () => {
    const token = await accessToken(SUBS.parent)
    await send(token, 'key-reuse', 'はじめ')
    const before = await count()
    const reused = await send(token, 'key-reuse', 'ちがう本文')
    expect(reused.status).toBe(422)
    expect(reused.body.code).toBe('idempotency_key_reused')
    expect(await count()).toBe(before)
    const teacher = await accessToken(SUBS.teacher)
    expect((await send(teacher, 'key-reuse', 'ちがう本文')).status).toBe(201)
  })

  it('a refused write is replayed as refused; a bad key is 400', async () => {
    const token = await accessToken(SUBS.parent)
    const bad = await send(token, 'k'.repeat(201), 'x')
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('invalid_idempotency_key')
    const empty = await send(token, 'key-empty', '   ')
    expect(empty.status).toBe(400)
    expect((await send(token, 'key-empty', '   ')).status).toBe(400)
  })

  it('a first attempt that failed on our side (5xx) lets the retry run', async () => {
    const token = await accessToken(SUBS.parent)
    let failNext = true
    const flaky = createApiApp({
      getDb: async () => {
        if (failNext) {
          failNext = false
          throw Object.assign(new Error('connection reset'), { code: 'ECONNRESET' })
        }
        return api.db
      },
      auth: testAuth,
      now: () => api.now,
      events: null,
      limits: false,
    })
    const before = await count()
    // The first getDb() (the idempotency claim itself) fails: 503, nothing claimed or stored.
    expect((await send(token, 'key-flaky', 'もう一度', flaky)).status).toBe(503)
    expect((await send(token, 'key-flaky', 'もう一度', flaky)).status).toBe(201)
    expect(await count()).toBe(before + 1)
  })

  it('a write that outlives the request timeout (503) and then commits is not run again by a retry with its key', async () => {
    const token = await accessToken(SUBS.parent)
    let calls = 0
    let finished!: () => void
    const done = new Promise<void>((resolve) => {
      finished = resolve
    })
    const slow = createApiApp({
      getDb: async () => {
        // The idempotency claim first; the route's own read then waits past the timeout (a lock, a slow disk).
        if (++calls === 2) {
          // Long enough that a retry sent at the 503, which waits up to 2 s for the key, finds it still running.
          await new Promise((r) => setTimeout(r, API_REQUEST_TIMEOUT_MS + 4_000))
          setTimeout(finished, 500)
        }
        return api.db
      },
      auth: testAuth,
      now: () => api.now,
      events: null,
      limits: false,
    })
    const before = await count()
    const first = await send(token, 'key-slow', 'おそい', slow)
    expect(first.status).toBe(503)
    // While the write still runs, a retry is told so (and may be retried).
    const early = await send(token, 'key-slow', 'おそい', slow)
    expect([early.status, early.body.code]).toEqual([409, 'idempotency_in_progress'])
    await done // the write went on …
    await expect.poll(count, { timeout: 10_000 }).toBe(before + 1) // … and committed
    // Once it has, a retry is told it was done (its answer is lost), not "in progress" for the key's whole day.
    await expect
      .poll(async () => (await send(token, 'key-slow', 'おそい', slow)).body.code, { timeout: 5_000 })
      .toBe('idempotency_completed')
    const retry = await send(token, 'key-slow', 'おそい', slow)
    expect([retry.status, retry.body.message]).toEqual([
      422,
      '同じリクエストはすでに処理されました。最新の状態を確認してください',
    ])
    expect(retry.replayed).toBe('true')
    expect(await count()).toBe(before + 1)
  }, 30_000)

  it('a write whose body arrives after the request timeout (503) and is then refused as invalid is replayed as refused, not as done', async () => {
    const token = await accessToken(SUBS.parent)
    const before = await count()
    const text = JSON.stringify({ text: 'body ではない' })
    const post = (body: BodyInit) =>
      api.app.fetch(
        new Request(`http://api.test/v1/rooms/${roomId}/messages`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': 'key-slow-body',
          },
          body,
          duplex: 'half',
        } as RequestInit),
      )
    const slowBody = new ReadableStream<Uint8Array>({
      async start(controller) {
        await new Promise((r) => setTimeout(r, API_REQUEST_TIMEOUT_MS + 500))
        controller.enqueue(new TextEncoder().encode(text))
        controller.close()
      },
    })
    expect((await post(slowBody)).status).toBe(503)
    // The body arrives, the key is claimed and the refusal recorded (waited for, not guessed at).
    await expect
      .poll(
        async () =>
          (
            await api.db
              .select({ status: idempotencyKeys.status })
              .from(idempotencyKeys)
              .where(eq(idempotencyKeys.key, 'key-slow-body'))
          )[0]?.status ?? null,
        { timeout: 10_000 },
      )
      .not.toBeNull()
    // The refusal threw (it did not return its 400), so the key keeps it: not "done" for a write that never ran.
    const retry = await post(text)
    expect([retry.status, retry.headers.get('idempotent-replayed'), (await retry.json()).code]).toEqual([
      400,
      'true',
      'invalid_request',
    ])
    expect(await count()).toBe(before)
  }, 20_000)

  it('a write refused for now (429: wait and retry) runs when retried with its key, not replayed as refused', async () => {
    const token = await accessToken(SUBS.teacher)
    const limited = createApiApp({
      getDb: async () => api.db,
      auth: testAuth,
      now: () => api.now,
      events: null,
      limits: { messagesPerMember: { points: 1, durationS: 1 } },
    })
    const room = await api.as(SUBS.teacher, 'POST', '/v1/rooms', { partner_id: await api.userId(SUBS.emily) })
    await api.db.delete(rateLimits) // what earlier tests counted
    const post = (key: string) =>
      limited.fetch(
        new Request(`http://api.test/v1/rooms/${room.body.id}/messages`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': key,
          },
          body: JSON.stringify({ body: '上限のテスト' }),
        }),
      )
    expect((await post('key-limit-1')).status).toBe(201)
    const refused = await post('key-limit-2')
    expect(refused.status).toBe(429)
    await new Promise((r) => setTimeout(r, Number(refused.headers.get('retry-after') ?? 1) * 1000 + 200))
    const retried = await post('key-limit-2')
    expect(retried.status).toBe(201)
    expect(retried.headers.get('idempotent-replayed')).toBeNull()
  })
})
