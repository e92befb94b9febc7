import { eq, sql } from 'drizzle-orm'
import { type ApiDeps, createApiApp } from '../../../app/api/app'
import type { ApiApp } from '../../../app/api/openapi'
import { users } from '../../../app/db/schema'
import { currentReceiptIssuer } from '../../../app/payments/runtime.server'
import { TEST_ISSUER } from './constants'
import { openTestDatabase, type TestDatabase } from './test-db'
import { testAuth, tokenFor } from './tokens'

export interface CallResult {
  status: number
  headers: Headers
  // Tests read JSON loosely and then check it against the contract schemas.
  // biome-ignore lint/suspicious/noExplicitAny: see above
  body: any
}

export interface TestApi {
  db: TestDatabase['db']
  database: TestDatabase
  now: Date
  app: ApiApp
  call(
    method: string,
    path: string,
    init?: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> },
  ): Promise<CallResult>
  /** Calls with a fresh access token of `sub`. */
  as(sub: string, method: string, path: string, body?: unknown): Promise<CallResult>
  /**
   * Reserves as `sub` and, for a paid class, pays the held seat with the embedded provider's test card (issue 17):
   * the answer of POST /v1/purchases, or after paying, the purchase as reserved.
   */
  book(sub: string, body: { schedule_id: number; learner_id?: number | null }): Promise<CallResult>
  userId(sub: string): Promise<number>
  count(table: string): Promise<number>
  close(): Promise<void>
}

/** TestApi.call on any /v1 app (a second instance, say). */
export function callerOf(app: { fetch(request: Request): Response | Promise<Response> }): TestApi['call'] {
  return async (method, path, init = {}) => {
    const headers = new Headers(init.headers)
    if (init.token) headers.set('authorization', `Bearer ${init.token}`)
    let body: string | undefined = init.rawBody
    if (init.body !== undefined) {
      body = JSON.stringify(init.body)
      if (!headers.has('content-type')) headers.set('content-type', 'application/json')
    }
    const res = await app.fetch(new Request(`http://api.test${path}`, { method, headers, body }))
    const text = await res.text()
    let json: unknown
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = text
    }
    return { status: res.status, headers: res.headers, body: json }
  }
}

/** The /v1 app on this file's own database, with access tokens checked against the test key; `deps` add to it. */
export async function setupApi(deps: Omit<ApiDeps, 'getDb' | 'auth'> = {}): Promise<TestApi> {
  const database = await openTestDatabase()
  const app = createApiApp({
    getDb: async () => database.db,
    auth: testAuth,
    now: () => database.now,
    ...deps,
  })
  const call = callerOf(app)
  return {
    db: database.db,
    database,
    now: database.now,
    app,
    call,
    as: async (sub, method, path, body) => call(method, path, { token: await tokenFor(sub), body }),
    book: async (sub, body) => bookWith(call, await tokenFor(sub), body),
    userId: async (sub) => {
      const [u] = await database.db
        .select({ id: users.id })
        .from(users)
        .where(sql`${users.issuer} = ${TEST_ISSUER} and ${eq(users.sub, sub)}`)
      if (!u) throw new Error(`no user ${sub}`)
      return u.id
    },
    count: async (table) => {
      const [row] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(sql`${sql.identifier(table)}`)
      return Number(row?.n ?? 0)
    },
    close: () => database.close(),
  }
}

/** Who the app issues receipts as in tests: what a payment service outside a request records (the default). */
export const TEST_RECEIPT_ISSUER = currentReceiptIssuer()

/** The embedded provider's card that always pays. */
export const TEST_CARD = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' }

/** Reserves with `token` and pays a held seat with the test card; see TestApi.book. */
export async function bookWith(
  call: TestApi['call'],
  token: string,
  body: { schedule_id: number; learner_id?: number | null },
): Promise<CallResult> {
  const held = await call('POST', '/v1/purchases', { token, body })
  if (held.status !== 201 || held.body.status !== 'pending') return held
  const paid = await call('POST', `/v1/payments/${held.body.payment.id}/confirm`, {
    token,
    body: { card: TEST_CARD },
  })
  if (paid.status !== 200) return paid
  return { ...paid, status: 201, body: paid.body.purchase }
}
