/**
 * Password guessing against the embedded identity provider: past the limits (per account, per address) even the
 * right password is refused with 429 and Retry-After, in Japanese. Counters are the app's shared database ones.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { consume, giveBack, limitKey, reset } from '../../app/db/rate-limit'
import { createIdentityProvider, type IdentityProvider } from '../../app/idp/provider'
import { LIMITS } from '../../app/lib/limits'
import { createOidcClient, oidcSettingsForIdentityProvider } from '../../app/server/auth/oidc.server'
import { formAction } from './auth-harness'
import { openTestDatabase, type TestDatabase } from './support/test-db'

let database: TestDatabase
let idp: IdentityProvider
let server: Server
let origin: string
let dataDir: string
/** What the provider reported for the audit log (the app writes each as a sign_in_failed entry). */
const failures: { email: string; address: string; reason: string }[] = []

beforeAll(async () => {
  database = await openTestDatabase()
  dataDir = mkdtempSync(join(tmpdir(), 'manabi-idp-limit-'))
  server = createServer((req, res) => idp.handler(req, res))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  idp = createIdentityProvider({
    siteOrigin: origin,
    dataDir,
    secret: 'integration-test-session-secret-0123456789abcdef',
    persist: false,
    limiter: {
      consume: (name, key) => consume(database.db, name, limitKey(key)),
      reset: (name, key) => reset(database.db, name, limitKey(key)),
      giveBack: (name, key) => giveBack(database.db, name, limitKey(key)),
    },
    onSignInFailed: async (failure) => void failures.push(failure),
  })
})

afterAll(async () => {
  server?.closeAllConnections()
  await new Promise((r) => server?.close(r))
  await database?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

/** Opens the provider's login page for a new authorization request; returns where its password form posts. */
async function loginForm() {
  const client = createOidcClient(oidcSettingsForIdentityProvider(idp))
  const url = client.authorizationUrl({
    state: 'state-12345678',
    codeVerifier: 'v'.repeat(43),
    nonce: 'nonce-1234',
  })
  const cookies: string[] = []
  let next = url.href
  for (let hop = 0; hop < 5; hop++) {
    const res = await fetch(next, { redirect: 'manual', headers: { cookie: cookies.join('; ') } })
    for (const c of res.headers.getSetCookie()) cookies.push(c.split(';')[0]!)
    const location = res.headers.get('location')
    if (!location)
      return { action: new URL(formAction(await res.text(), 'name="password"'), origin).href, cookies }
    next = new URL(location, origin).href
  }
  throw new Error('no login page')
}

async function attempt(
  form: { action: string; cookies: string[] },
  email: string,
  password: string,
  address: string,
) {
  const res = await fetch(form.action, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: form.cookies.join('; '),
      'content-type': 'application/x-www-form-urlencoded',
      'x-real-ip': address,
    },
    body: new URLSearchParams({ email, password }).toString(),
  })
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.text() }
}

describe('password attempts', () => {
  it('30 wrong passwords for one account from many addresses, then the right one: 429 from the 6th on', async () => {
    const email = 'guess-me@manabi.example'
    await idp.accounts.signUp({ email, password: 'the-right-one-123' })
    const form = await loginForm()
    const statuses: number[] = []
    for (let i = 0; i < 30; i++)
      statuses.push((await attempt(form, email, `wrong-${i}`, `10.0.0.${i}`)).status)
    const limit = LIMITS.passwordPerAccount.points
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(400))
    expect(statuses.slice(limit)).toEqual(Array(30 - limit).fill(429))
    const right = await attempt(form, 'GUESS-ME@manabi.example', 'the-right-one-123', '10.0.1.1')
    expect(right.status).toBe(429)
    expect(Number(right.retryAfter)).toBeGreaterThan(0)
    expect(right.body).toContain('試行回数が多すぎます')
  })

  it('past the limit, refusals are reported for the audit log once a window, not once each (the log is append-only)', async () => {
    const email = 'flood-me@manabi.example'
    const form = await loginForm()
    for (let i = 0; i < 40; i++) await attempt(form, email, `wrong-${i}`, `10.9.0.${i}`)
    const mine = failures.filter((f) => f.email === email).map((f) => f.reason)
    expect(mine).toEqual([...Array(LIMITS.passwordPerAccount.points).fill('password'), 'rate_limited'])
  })

  it('members signing in with the right password from one shared address (a school) are not limited by it', async () => {
    const limit = LIMITS.passwordPerAddress.points
    const school = '203.0.113.99'
    for (let i = 0; i < limit + 5; i++) {
      const email = `pupil-${i}@manabi.example`
      await idp.accounts.signUp({ email, password: 'right-password-123' })
      const res = await attempt(await loginForm(), email, 'right-password-123', school)
      expect([302, 303], `sign-in ${i + 1}`).toContain(res.status)
    }
    // Guesses from it still meet the limit.
    const form = await loginForm()
    const statuses: number[] = []
    for (let i = 0; i < limit + 2; i++)
      statuses.push((await attempt(form, `pupil-${i}@manabi.example`, 'wrong-password', school)).status)
    expect(statuses.slice(limit)).toEqual([429, 429])
  })

  it('one address trying many accounts meets the per-address limit', async () => {
    const form = await loginForm()
    const statuses: number[] = []
    for (let i = 0; i < 25; i++)
      statuses.push(
        (await attempt(form, `someone-${i}@manabi.example`, 'wrong-password', '192.0.2.7')).status,
      )
    const limit = LIMITS.passwordPerAddress.points
    expect(statuses.slice(0, limit).every((s) => s === 400)).toBe(true)
    expect(statuses.slice(limit)).toEqual(Array(25 - limit).fill(429))
  })

  it('a successful sign-in clears the account’s failed attempts', async () => {
    const email = 'forgetful@manabi.example'
    await idp.accounts.signUp({ email, password: 'remembered-123' })
    const form = await loginForm()
    for (let i = 0; i < 4; i++) expect((await attempt(form, email, 'nope', '198.51.100.1')).status).toBe(400)
    const ok = await attempt(form, email, 'remembered-123', '198.51.100.1')
    expect([302, 303]).toContain(ok.status)
    const again = await loginForm()
    for (let i = 0; i < 4; i++) expect((await attempt(again, email, 'nope', '198.51.100.2')).status).toBe(400)
  })
})
