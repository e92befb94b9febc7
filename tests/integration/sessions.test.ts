/**
 * The session store on a real database: the cookie is an opaque id, tokens are encrypted at rest, and a member
 * can only see and end their own sessions.
 */
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sessions } from '../../app/db/schema'
import {
  createSessionStore,
  SESSION_CHECK_EXPIRY_MS,
  type SessionData,
  sessionRowId,
} from '../../app/server/auth/session.server'
import { openTestDatabase, type TestDatabase } from './support/test-db'

let database: TestDatabase
let now = Date.now()
const store = () =>
  createSessionStore({
    secret: 'integration-test-session-secret-0123456789abcdef',
    isProduction: false,
    getDb: async () => database.db,
    issuer: 'https://idp.test/',
    now: () => now,
  })

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => {
  await database?.close()
})

let n = 0
function session(sub: string): SessionData {
  n++
  return {
    sid: `opaque-session-id-${n}-${Math.random().toString(36).slice(2)}`,
    accessToken: `access.token.${n}`,
    accessTokenExpiresAt: now + 3600_000,
    refreshToken: `refresh-${n}`,
    claims: { sub, email: `${sub}@manabi.example` },
    checkedAt: now,
    createdAt: now,
  }
}
const cookieValue = (header: string) => decodeURIComponent(header.split(';')[0]!.split('=')[1]!)

describe('session store', () => {
  it('sets an opaque cookie and keeps the tokens encrypted', async () => {
    const s = store()
    const data = session('alice')
    const header = await s.sessionCookie(data, 'Mozilla/5.0 (iPhone)')
    expect(cookieValue(header)).toBe(data.sid)
    expect(header).toContain('HttpOnly')
    const [row] = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionRowId(data.sid)))
    expect(row!.tokens).not.toContain('access.token')
    expect(row!.tokens).not.toContain('refresh-')
    expect(row!.id).not.toBe(data.sid)
    const request = new Request('http://localhost/', { headers: { cookie: header.split(';')[0]! } })
    expect(await s.readSession(request)).toMatchObject({
      accessToken: data.accessToken,
      refreshToken: 'refresh-1',
    })
  })

  it('ends at once when its row is deleted, and after its day', async () => {
    const s = store()
    const data = session('bob')
    await s.sessionCookie(data, 'ua')
    expect(await s.loadSession(data.sid)).toBeDefined()
    expect(await s.loadSession(data.sid, now + SESSION_CHECK_EXPIRY_MS + 1)).toBeUndefined()
    await s.deleteSession(data.sid)
    expect(await s.loadSession(data.sid)).toBeUndefined()
    // A renewal racing the logout cannot bring it back.
    expect(await s.renewedSessionCookie({ ...data, accessToken: 'renewed' })).toBeUndefined()
    expect(await s.loadSession(data.sid)).toBeUndefined()
  })

  it('lists and ends only the member’s own sessions', async () => {
    const s = store()
    const mine = [session('carol'), session('carol'), session('carol')]
    for (const d of mine) await s.sessionCookie(d, 'Chrome')
    const theirs = session('dave')
    await s.sessionCookie(theirs, 'Firefox')

    const list = await s.listSessions('carol', mine[0]!.sid)
    expect(list).toHaveLength(3)
    expect(list.filter((x) => x.current)).toHaveLength(1)

    // Another member's session id: nothing happens.
    const foreign = await s.deleteSessionsOf('carol', { id: sessionRowId(theirs.sid) })
    expect(foreign.deleted).toBe(0)
    expect(await s.loadSession(theirs.sid)).toBeDefined()

    const one = await s.deleteSessionsOf('carol', { id: sessionRowId(mine[2]!.sid) })
    expect(one).toEqual({ deleted: 1, refreshTokens: [mine[2]!.refreshToken] })
    const others = await s.deleteSessionsOf('carol', { allExcept: mine[0]!.sid })
    expect(others.deleted).toBe(1)
    expect(await s.loadSession(mine[0]!.sid)).toBeDefined()
    expect(await s.loadSession(mine[1]!.sid)).toBeUndefined()
    expect(await s.loadSession(theirs.sid)).toBeDefined()
  })

  it('a new login sweeps expired sessions', async () => {
    const s = store()
    const old = session('erin')
    await s.sessionCookie(old, 'ua')
    now += SESSION_CHECK_EXPIRY_MS + 1000
    await s.sessionCookie(session('erin'), 'ua')
    const rows = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionRowId(old.sid)))
    expect(rows).toHaveLength(0)
  })
})
