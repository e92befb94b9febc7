/**
 * The database away: every /v1 route answers 503 with Retry-After and a Japanese message (never 500, never a
 * hang past the timeouts), and the API recovers by itself when the database is back. The connection-level cases
 * run on PostgreSQL, where a server can really go away.
 */
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_REQUEST_TIMEOUT_MS, createApiApp } from '../../app/api/app'
import {
  DatabaseError,
  isDatabaseUnavailable,
  openDatabase,
  PG_CONNECT_TIMEOUT_S,
  PG_STATEMENT_TIMEOUT_MS,
} from '../../app/db/client'
import { setupApi, type TestApi } from './support/api'
import { accessToken, SUBS, testAuth } from './support/tokens'

const routes: [string, string, unknown?][] = [
  ['GET', '/v1/master/categories'],
  ['GET', '/v1/class_works/1'],
  ['GET', '/v1/class_works/new_arrivals_by_class'],
  ['POST', '/v1/class_works/search', { q: '英語' }],
  ['GET', '/v1/teachers/1'],
  ['GET', '/v1/magazine_articles'],
  ['GET', '/v1/users/me'],
  ['GET', '/v1/rooms'],
  ['POST', '/v1/purchases', { schedule_id: 1 }],
  ['GET', '/v1/destinations?q=%E3%81%AF'],
  ['GET', '/v1/sitemap_entries?page=2'],
  ['GET', '/v1/admin/suspensions?page=2'],
  ['PATCH', '/v1/users/me', { avatar_url: `/uploads/avatars/${'e'.repeat(32)}.webp` }],
  ['GET', '/v1/payments/1/receipt'],
  ['POST', '/v1/org_users/leave'],
  ['POST', '/v1/org_users/2/transfer_ownership'],
  ['DELETE', '/v1/org_users/2'],
]

async function callAll(app: ReturnType<typeof createApiApp>) {
  const token = await accessToken(SUBS.parent)
  const out: { route: string; status: number; retryAfter: string | null; body: unknown }[] = []
  for (const [method, path, body] of routes) {
    const res = await app.fetch(
      new Request(`http://api.test${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    )
    out.push({
      route: `${method} ${path}`,
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: await res.json(),
    })
  }
  return out
}

describe('the database cannot be opened', () => {
  it('every route answers 503 with Retry-After and a Japanese message', async () => {
    const app = createApiApp({
      getDb: () => Promise.reject(new DatabaseError('Could not connect to PostgreSQL')),
      auth: testAuth,
    })
    for (const r of await callAll(app)) {
      expect(r.status, r.route).toBe(503)
      expect(r.retryAfter, r.route).toBe('5')
      expect(r.body, r.route).toEqual({
        code: 'database_unavailable',
        message: 'ただいまサービスを利用できません',
      })
    }
  })
})

describe('the database stops answering', () => {
  it('a request is answered 503 after API_REQUEST_TIMEOUT_MS instead of hanging', async () => {
    const app = createApiApp({ getDb: () => new Promise(() => {}), auth: testAuth })
    const began = Date.now()
    const res = await app.fetch(new Request('http://api.test/v1/class_works/1'))
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('5')
    expect((await res.json()).code).toBe('database_unavailable')
    expect(Date.now() - began).toBeGreaterThanOrEqual(API_REQUEST_TIMEOUT_MS - 50)
    expect(Date.now() - began).toBeLessThan(API_REQUEST_TIMEOUT_MS + 2000)
  })
})

describe('isDatabaseUnavailable', () => {
  it('knows connection, shutdown, resource and timeout failures, and nothing else', () => {
    const withCode = (code: string) => Object.assign(new Error(code), { code })
    for (const code of [
      'ECONNREFUSED',
      'CONNECT_TIMEOUT',
      'CONNECTION_CLOSED',
      '08006',
      '57P01',
      '57014',
      '53300',
    ])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true)
    expect(isDatabaseUnavailable(new Error('x', { cause: withCode('57P01') }))).toBe(true)
    for (const code of ['23505', '22P02', '40001', '42703'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(false)
    expect(isDatabaseUnavailable(new Error('plain'))).toBe(false)
  })
})

const pgUrl = process.env.TEST_DATABASE_URL

describe.skipIf(!pgUrl)('PostgreSQL goes away and comes back', () => {
  let api: TestApi
  beforeAll(async () => {
    api = await setupApi()
  })
  afterAll(async () => {
    await api?.close()
  })

  it('a server that does not answer fails within the connect timeout, as DatabaseError', async () => {
    const began = Date.now()
    const error = await openDatabase({ databaseUrl: 'postgres://manabi:manabi@127.0.0.1:1/none' }).catch(
      (e) => e,
    )
    expect(error).toBeInstanceOf(DatabaseError)
    expect(Date.now() - began).toBeLessThan(PG_CONNECT_TIMEOUT_S * 1000 + 2000)
  })

  it('a statement stuck past the statement timeout is cut and counts as unavailable', async () => {
    // The app's own connection settings (the test databases turn the timeout off for bulk loads).
    const app = await openDatabase({ databaseUrl: pgUrl!, migrate: false })
    const began = Date.now()
    const error = await app.db.execute(sql`select pg_sleep(30)`).catch((e) => e)
    await app.close()
    expect(isDatabaseUnavailable(error)).toBe(true)
    expect(Date.now() - began).toBeLessThan(PG_STATEMENT_TIMEOUT_MS + 3000)
  })

  it('connections killed by the server: 503 (or a retry), then service again without a restart', async () => {
    const before = await api.call('GET', '/v1/class_works/1')
    expect(before.status).toBe(200)
    // Every connection of this database is terminated, as in a failover or a server restart.
    await api.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
    )
    const statuses: number[] = []
    for (let i = 0; i < 5; i++) {
      const r = await api.call('GET', '/v1/class_works/1')
      statuses.push(r.status)
      if (r.status === 503) expect(r.headers.get('retry-after')).toBe('5')
    }
    expect(
      statuses.every((s) => s === 200 || s === 503),
      statuses.join(','),
    ).toBe(true)
    expect(statuses.at(-1)).toBe(200)
  })
})
