/**
 * Two app instances renewing one session at once (docs/decisions/0016): each has its own in-process renewal map,
 * so with a provider that rotates refresh tokens one refresh succeeds and the other is refused (invalid_grant).
 * The refused one must wait for the other's tokens instead of deleting the session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAuthFlow, type LogoutInfo, onLogout } from '../../app/server/auth/flow.server'
import { type OidcClient, OidcRequestError, type TokenSet } from '../../app/server/auth/oidc.server'
import { createSessionStore, type SessionData, type SessionStore } from '../../app/server/auth/session.server'
import { openTestDatabase, type TestDatabase } from './support/test-db'

let database: TestDatabase
let store: SessionStore
const loggedOut: LogoutInfo[] = []
let unsubscribe: () => void

beforeAll(async () => {
  database = await openTestDatabase()
  store = createSessionStore({
    secret: 'integration-test-session-secret-0123456789abcdef',
    isProduction: false,
    getDb: async () => database.db,
    issuer: 'https://idp.test/',
  })
  unsubscribe = onLogout((info) => void loggedOut.push(info))
})
afterAll(async () => {
  unsubscribe?.()
  await database?.close()
})

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A provider that rotates refresh tokens: RT1 is good once (answering after 50 ms), then refused. */
function rotatingProvider(options: { alwaysRefuse?: boolean } = {}) {
  const calls: string[] = []
  let used = false
  const client = {
    async refresh(refreshToken: string): Promise<TokenSet> {
      calls.push(refreshToken)
      if (options.alwaysRefuse || refreshToken !== 'RT1' || used) {
        throw new OidcRequestError('invalid_grant', { description: 'Unknown or invalid refresh token.' })
      }
      used = true
      await sleep(50)
      return { accessToken: 'AT2', accessTokenExpiresAt: Date.now() + 3_600_000, refreshToken: 'RT2' }
    },
  } as unknown as OidcClient
  return { client, calls }
}

/** Two instances: same database, same provider, separate processes' worth of state. */
function instances(client: OidcClient) {
  return [1, 2].map(() =>
    createAuthFlow({ siteOrigin: 'http://localhost', store, client: async () => client, quiet: true }),
  )
}

let n = 0
/** A signed-in session whose access token expires in 30 s (inside the 60 s renewal margin). */
async function expiringSession(): Promise<{ data: SessionData; request: () => Request }> {
  n++
  const data: SessionData = {
    sid: `race-session-${n}-${Math.random().toString(36).slice(2)}`,
    accessToken: 'AT1',
    accessTokenExpiresAt: Date.now() + 30_000,
    refreshToken: 'RT1',
    claims: { sub: `member-${n}` },
    checkedAt: Date.now(),
    createdAt: Date.now(),
  }
  const header = await store.sessionCookie(data, 'Mozilla/5.0')
  const cookie = header.split(';')[0]!
  return { data, request: () => new Request('http://localhost/mypage', { headers: { cookie } }) }
}

describe('session renewal racing across instances (rotating refresh tokens)', () => {
  it('both instances get the renewed token and the session keeps RT2 when one refresh is refused', async () => {
    const { client, calls } = rotatingProvider()
    const [x, y] = instances(client)
    const { data, request } = await expiringSession()

    const cleared: string[] = []
    const results = await Promise.all(
      [x!, y!].map((flow) =>
        flow.getSessionAccessToken(request(), {
          onSetCookie: (h) => {
            if (/Max-Age=0/.test(h)) cleared.push(h)
          },
        }),
      ),
    )

    expect(calls).toEqual(['RT1', 'RT1'])
    for (const result of results) {
      expect(result).toBeDefined()
      expect(result!.accessToken).toBe('AT2')
      expect(result!.claims.sub).toBe(data.claims.sub)
    }
    expect(cleared).toEqual([])
    expect(await store.loadSession(data.sid)).toMatchObject({ accessToken: 'AT2', refreshToken: 'RT2' })
    expect(loggedOut.filter((i) => i.sessionId === data.sid)).toEqual([])
  })

  it('still ends the session when the refresh is refused and no newer tokens appear', async () => {
    const { client, calls } = rotatingProvider({ alwaysRefuse: true })
    const [x, y] = instances(client)
    const { data, request } = await expiringSession()

    const cleared: string[] = []
    const started = performance.now()
    const results = await Promise.all(
      [x!, y!].map((flow) =>
        flow.getSessionAccessToken(request(), { onSetCookie: (h) => void cleared.push(h) }),
      ),
    )
    const elapsed = performance.now() - started

    expect(calls).toEqual(['RT1', 'RT1'])
    expect(results).toEqual([undefined, undefined])
    expect(cleared).toEqual([
      expect.stringMatching(/^manabi_session=; Path=\/; Max-Age=0/),
      expect.stringMatching(/^manabi_session=; Path=\/; Max-Age=0/),
    ])
    expect(await store.loadSession(data.sid)).toBeUndefined()
    expect(loggedOut.some((i) => i.sessionId === data.sid && i.reason === 'renewal_refused')).toBe(true)
    // The wait for another instance's renewal is bounded.
    expect(elapsed).toBeLessThan(5_000)
  })

  it('a request renewing while the session is logged out does not go on with the fresh token', async () => {
    // The provider answers after 50 ms; the member logs out (here or from another device) meanwhile.
    const { client } = rotatingProvider()
    const revoked: string[] = []
    const [x] = instances({
      ...client,
      revoke: async (token: string) => void revoked.push(token),
    } as unknown as OidcClient)
    const { data, request } = await expiringSession()
    const headers: string[] = []
    const renewing = x!.getSessionAccessToken(request(), { onSetCookie: (h) => void headers.push(h) })
    await sleep(10)
    await store.deleteSession(data.sid)
    expect(await renewing).toBeUndefined()
    expect(headers).toEqual([expect.stringMatching(/^manabi_session=; Path=\/; Max-Age=0/)])
    // The row stays gone: the renewal did not bring it back.
    expect(await store.loadSession(data.sid)).toBeUndefined()
    expect(loggedOut.some((i) => i.sessionId === data.sid && i.reason === 'logout')).toBe(true)
    // The refresh token issued to nobody is revoked at the provider.
    expect(revoked).toEqual(['RT2'])
  })

  it('stores the renewed tokens when the refreshed ID token cannot be checked: the spent refresh token is not kept', async () => {
    const { client } = rotatingProvider()
    const refresh = client.refresh.bind(client)
    const withIdToken = {
      ...client,
      refresh: async (token: string) => ({ ...(await refresh(token)), idToken: 'id.token.here' }),
      verifyIdToken: async () => {
        throw new Error('JWKS fetch timed out')
      },
    } as unknown as OidcClient
    const [x] = instances(withIdToken)
    const { data, request } = await expiringSession()
    const renewed = await x!.getSessionAccessToken(request())
    expect(renewed).toMatchObject({ accessToken: 'AT2', claims: data.claims })
    expect(await store.loadSession(data.sid)).toMatchObject({ accessToken: 'AT2', refreshToken: 'RT2' })
  })

  it('the conditional delete keeps a row renewed meanwhile', async () => {
    const { data } = await expiringSession()
    // Another instance stores RT2 before the refused one gives up.
    await store.renewedSessionCookie({ ...data, accessToken: 'AT2', refreshToken: 'RT2' })
    expect(await store.deleteSessionIfRefreshToken(data.sid, 'RT1')).toBe(false)
    expect(await store.loadSession(data.sid)).toMatchObject({ refreshToken: 'RT2' })
    expect(await store.deleteSessionIfRefreshToken(data.sid, 'RT2')).toBe(true)
    expect(await store.loadSession(data.sid)).toBeUndefined()
  })
})
