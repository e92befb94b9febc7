import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApiApp } from '../../app/api/app'
import { User } from '../../app/contract/v1/users'
import { setupApi, type TestApi } from './support/api'
import { TEST_AUDIENCE } from './support/constants'
import { accessToken, hs256Token, SUBS, testJwks, tokenFor, unsignedToken } from './support/tokens'

let api: TestApi
beforeAll(async () => {
  api = await setupApi()
})
afterAll(async () => {
  await api?.close()
})

/** Every call that needs a signed-in member, with a body where it needs one. */
const authenticated: [string, string, unknown?][] = [
  ['GET', '/v1/users/me'],
  ['GET', '/v1/users/deep_me'],
  ['GET', '/v1/users/followings'],
  ['GET', '/v1/organizations/deep_me'],
  ['GET', '/v1/org_users'],
  ['GET', '/v1/org_users/invitation_code'],
  ['GET', '/v1/class_announcements'],
  ['GET', '/v1/rooms'],
  ['GET', '/v1/rooms/1/messages'],
  ['GET', '/v1/rooms/unread_count'],
  ['GET', '/v1/rooms?partner_id=1'],
  ['GET', '/v1/destinations?candidate=teachers'],
  ['GET', '/v1/teachers/my_class_works'],
  ['GET', '/v1/teachers/my_class_work_schedules/1/students'],
  ['PATCH', '/v1/users/me', { nickname: 'だれか' }],
  ['POST', '/v1/users', { nickname: 'だれか' }],
]

describe('bearer access token', () => {
  it.each(authenticated)(
    '%s %s without a token → 401 with WWW-Authenticate: Bearer',
    async (method, path, body) => {
      const res = await api.call(method, path, { body })
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /)
      expect(res.body).toEqual({ code: 'unauthorized', message: expect.any(String) })
    },
  )

  const badTokens: [string, () => Promise<string> | string][] = [
    ['garbage', () => 'not-a-jwt'],
    ['signed by an unknown key', () => tokenFor(SUBS.parent, { foreignKey: true })],
    ['expired beyond the 60 s leeway', () => tokenFor(SUBS.parent, { expiresIn: -120 })],
    ['for another audience', () => tokenFor(SUBS.parent, { audience: 'https://other.example/v1' })],
    ['from another issuer', () => tokenFor(SUBS.parent, { issuer: 'https://evil.example/' })],
    ['HS256', () => hs256Token(SUBS.parent)],
    ['alg none', () => unsignedToken(SUBS.parent)],
  ]
  it.each(badTokens)('a token %s → 401 invalid_token', async (_name, make) => {
    const res = await api.call('GET', '/v1/users/me', { token: await make() })
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  it('rejects a malformed Authorization header and an oversized token', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', `Bearer ${'a'.repeat(10_000)}`]) {
      const res = await api.call('GET', '/v1/users/me', { headers: { authorization: header } })
      expect(res.status, header.slice(0, 20)).toBe(401)
    }
  })

  it('takes the scheme name in any case (RFC 9110 §11.1): bearer, BEARER and Bearer alike', async () => {
    const token = await tokenFor(SUBS.parent)
    for (const scheme of ['bearer', 'BEARER', 'Bearer', 'bEaReR']) {
      const res = await api.call('GET', '/v1/users/me', { headers: { authorization: `${scheme} ${token}` } })
      expect(res.status, scheme).toBe(200)
      expect(User.parse(res.body).sub).toBe(SUBS.parent)
    }
  })

  it('accepts typ at+jwt (embedded provider) and JWT (Auth0), and a token expired within the leeway', async () => {
    for (const typ of ['at+jwt', 'JWT']) {
      const res = await api.call('GET', '/v1/users/me', { token: await tokenFor(SUBS.parent, { typ }) })
      expect(res.status).toBe(200)
      expect(User.parse(res.body).sub).toBe(SUBS.parent)
    }
    const res = await api.call('GET', '/v1/users/me', {
      token: await tokenFor(SUBS.parent, { expiresIn: -30 }),
    })
    expect(res.status).toBe(200)
  })

  it('looks users up by issuer and subject: the same sub from another issuer is someone else', async () => {
    // A second API trusting another issuer with the same keys: the demo parent is unregistered there.
    const other = createApiApp({
      getDb: async () => api.db,
      auth: () => ({ issuer: 'https://other-idp.example/', audience: TEST_AUDIENCE, jwks: testJwks }),
    })
    const token = await accessToken(SUBS.parent, {}, { issuer: 'https://other-idp.example/' })
    const res = await other.fetch(
      new Request('http://api.test/v1/users/me', { headers: { authorization: `Bearer ${token}` } }),
    )
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 'unregistered' })
  })

  it.each(authenticated.filter(([m, p]) => !(m === 'POST' && p === '/v1/users')))(
    '%s %s with a valid token but no profile → 404 unregistered',
    async (method, path, body) => {
      const res = await api.call(method, path, { token: await tokenFor(SUBS.newUser), body })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ code: 'unregistered', message: 'プロフィールが登録されていません' })
    },
  )

  it('answers 503 auth_unconfigured while no verifier is set', async () => {
    const app = createApiApp({ getDb: async () => api.db, auth: () => undefined })
    const res = await app.fetch(new Request('http://api.test/v1/users/me'))
    expect(res.status).toBe(503)
    expect(await res.json()).toMatchObject({ code: 'auth_unconfigured' })
    // Public calls do not need it.
    expect((await app.fetch(new Request('http://api.test/v1/master/categories'))).status).toBe(200)
  })
})
