/**
 * Rate limits answer 429 with Retry-After and a Japanese message, count in the database (so instances count
 * together), and never let the refused action happen.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiApp } from '../../app/api/app'
import { markInProcess } from '../../app/api/in-process'
import { consume, isLimited, RateLimitedError, reset } from '../../app/db/rate-limit'
import { messages } from '../../app/db/schema'
import { LIMITS, RATE_LIMITED_MESSAGE } from '../../app/lib/limits'
import { createApiClient } from '../../app/server/api-client/client'
import { ApiError } from '../../app/server/api-client/errors'
import { inProcessTransport } from '../../app/server/api-client/transport'
import { refuseImageUploadOverLimit } from '../../app/server/upload-limit.server'
import { setupApi, type TestApi } from './support/api'
import { accessToken, SUBS, testAuth } from './support/tokens'

let api: TestApi
let roomId: number

beforeAll(async () => {
  api = await setupApi()
  const teacherId = await api.userId(SUBS.teacher)
  const room = await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: teacherId })
  expect(room.status).toBeLessThan(300)
  roomId = room.body.id
})
afterAll(async () => {
  await api?.close()
})

const silent = { error: () => {}, warn: () => {} }

const messageCount = async () =>
  (await api.db.select({ id: messages.id }).from(messages).where(eq(messages.roomId, roomId))).length

/** A second API instance on the same database (another process in production). */
const secondInstance = () =>
  createApiApp({ getDb: async () => api.db, auth: testAuth, now: () => api.now, events: null })

async function send(app: { fetch(r: Request): Response | Promise<Response> }, token: string, body: string) {
  const res = await app.fetch(
    new Request(`http://api.test/v1/rooms/${roomId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ body }),
    }),
  )
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() }
}

describe('messages per member', () => {
  it('40 messages at once across two instances: the limit is delivered, the rest get 429 and are not stored', async () => {
    const token = await accessToken(SUBS.parent)
    const before = await messageCount()
    const apps = [api.app, secondInstance()]
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => send(apps[i % 2]!, token, `こんにちは ${i}`)),
    )
    const limit = LIMITS.messagesPerMember.points
    const sent = results.filter((r) => r.status === 201)
    const refused = results.filter((r) => r.status === 429)
    expect(sent.length + refused.length).toBe(40)
    // A few of the first may have been used by the room's other tests in this file: never more than the limit.
    expect(sent.length).toBeLessThanOrEqual(limit)
    expect(sent.length).toBeGreaterThan(0)
    expect(await messageCount()).toBe(before + sent.length)
    for (const r of refused) {
      expect(r.body).toEqual({ code: 'rate_limited', message: RATE_LIMITED_MESSAGE })
      expect(Number(r.retryAfter)).toBeGreaterThan(0)
      expect(Number(r.retryAfter)).toBeLessThanOrEqual(LIMITS.messagesPerMember.durationS)
    }
    // The BFF's client carries the wait on to the browser (setRefusalStatus sends it as Retry-After).
    const client = createApiClient(() => inProcessTransport(async () => api.app), { logger: silent })
    const refusal = await client.sendMessage(token, roomId, 'もう一度').catch((e: unknown) => e)
    expect(refusal).toBeInstanceOf(ApiError)
    expect(refusal).toMatchObject({ status: 429, code: 'rate_limited', message: RATE_LIMITED_MESSAGE })
    const wait = (refusal as ApiError).retryAfterS ?? 0
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(LIMITS.messagesPerMember.durationS)
    // Another member is not affected.
    const other = await api.as(SUBS.teacher, 'POST', `/v1/rooms/${roomId}/messages`, { body: 'はい' })
    expect(other.status).toBe(201)
  })
})

describe('refused sends', () => {
  it('are given back: sends refused as not theirs do not use up the limit for the member’s real messages', async () => {
    const token = await accessToken(SUBS.member01)
    for (let i = 0; i <= LIMITS.messagesPerMember.points; i++)
      expect((await send(api.app, token, `${i}`)).status).toBe(404)
    const teacherId = await api.userId(SUBS.teacher)
    const opened = await api.as(SUBS.member01, 'POST', '/v1/rooms', {
      partner_id: teacherId,
      body: 'はじめまして',
    })
    expect([200, 201]).toContain(opened.status)
  })
})

describe('calls per access token', () => {
  it('past the limit every authenticated call is 429, whatever the route or instance', async () => {
    const limited = { apiPerToken: { points: 5, durationS: 60 } }
    const a = createApiApp({
      getDb: async () => api.db,
      auth: testAuth,
      now: () => api.now,
      events: null,
      limits: limited,
    })
    const b = createApiApp({
      getDb: async () => api.db,
      auth: testAuth,
      now: () => api.now,
      events: null,
      limits: limited,
    })
    const token = await accessToken(SUBS.owner)
    const statuses: number[] = []
    for (let i = 0; i < 8; i++) {
      const res = await (i % 2 ? a : b).fetch(
        new Request('http://api.test/v1/users/me', { headers: { authorization: `Bearer ${token}` } }),
      )
      statuses.push(res.status)
      if (res.status === 429) expect(res.headers.get('retry-after')).toBeTruthy()
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429])
    // The BFF's own in-process calls (page renders, server functions) are not counted as API-client traffic.
    const inProcess = await a.fetch(
      markInProcess(
        new Request('http://internal/v1/users/me', { headers: { authorization: `Bearer ${token}` } }),
      ),
    )
    expect(inProcess.status).toBe(200)
    // Writes too, with a JSON body (the BFF's transport) or a multipart one, whose request the body limit rebuilds.
    const write = await inProcessTransport(async () => a)({
      method: 'POST',
      path: '/v1/users/me/learners',
      token,
      body: {},
    })
    expect(write.status).not.toBe(429)
    const form = new FormData()
    form.set('file', new Blob(['x'], { type: 'image/png' }), 'x.png')
    const upload = await a.fetch(
      markInProcess(
        new Request('http://internal/v1/users/me/learners', {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          body: form,
        }),
      ),
    )
    expect(upload.status).not.toBe(429)
    // The same multipart call from an API client is counted.
    const outside = await a.fetch(
      new Request('http://api.test/v1/users/me/learners', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      }),
    )
    expect(outside.status).toBe(429)
    // Public calls carry no token and are not counted per token.
    expect((await a.fetch(new Request('http://api.test/v1/master/categories'))).status).toBe(200)
  })
})

describe('calls per access token, however the token is spelt', () => {
  it('padding or another last character of the signature (the same token to a verifier) shares the counter', async () => {
    const app = createApiApp({
      getDb: async () => api.db,
      auth: testAuth,
      now: () => api.now,
      events: null,
      limits: { apiPerToken: { points: 3, durationS: 60 } },
    })
    // A token of its own (a fresh counter): other tests here spend the parent's usual one.
    const token = await accessToken(SUBS.parent, { jti: `spelling-${Math.random()}` })
    const [head, body, sig] = token.split('.') as [string, string, string]
    // The last character of an RS256 signature carries 2 bits of 6: these spell the same bytes.
    const last = sig.at(-1)!
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const value = alphabet.indexOf(last)
    const twin = alphabet[(value & ~0b1111) | ((value + 1) & 0b1111)]!
    const spellings = [token, `${token}==`, `${head}.${body}.${sig.slice(0, -1)}${twin}`, `${token}=`]
    const statuses: number[] = []
    for (const spelling of spellings) {
      const res = await app.fetch(
        new Request('http://api.test/v1/users/me', { headers: { authorization: `Bearer ${spelling}` } }),
      )
      statuses.push(res.status)
    }
    expect(statuses.slice(0, 3).every((s) => s !== 429)).toBe(true)
    expect(statuses[3]).toBe(429)
  })
})

describe('the limiter', () => {
  it('counts, refuses with the seconds left, and forgets on reset', async () => {
    const limit = { points: 3, durationS: 30 }
    const key = `test-${Math.random()}`
    for (let i = 0; i < 3; i++) await consume(api.db, 'passwordPerAccount', key, limit)
    expect(await isLimited(api.db, 'passwordPerAccount', key, limit)).toBeGreaterThan(0)
    const error = await consume(api.db, 'passwordPerAccount', key, limit).catch((e) => e)
    expect(error).toBeInstanceOf(RateLimitedError)
    expect(error.retryAfterS).toBeGreaterThan(0)
    expect(error.retryAfterS).toBeLessThanOrEqual(30)
    await reset(api.db, 'passwordPerAccount', key, limit)
    expect(await isLimited(api.db, 'passwordPerAccount', key, limit)).toBe(0)
    await consume(api.db, 'passwordPerAccount', key, limit)
  })
})

describe('image uploads per member', () => {
  it('counts each upload before its bytes are decoded: the 31st in an hour is refused in Japanese, for that member only', async () => {
    const [a, b] = [await api.userId(SUBS.teacher), await api.userId(SUBS.parent)]
    const { points } = LIMITS.imageUploadsPerMember
    for (let i = 0; i < points; i++) expect(await refuseImageUploadOverLimit(a, api.db)).toBeUndefined()
    const refused = await refuseImageUploadOverLimit(a, api.db)
    expect(refused?.message).toBe(RATE_LIMITED_MESSAGE)
    expect(refused?.retryAfterS).toBeGreaterThan(0)
    expect(await refuseImageUploadOverLimit(b, api.db)).toBeUndefined()
  })
})
