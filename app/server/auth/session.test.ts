import { EncryptJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import {
  type AuthTransaction,
  createSessionStore,
  SESSION_CHECK_EXPIRY_MS,
  type SessionData,
} from './session.server'

const SECRET = 'unit-test-session-secret-0123456789abcdefghij'
const NOW = 1_750_000_000_000

function session(overrides: Partial<SessionData> = {}): SessionData {
  return {
    sid: 'sid-1',
    accessToken: 'header.payload.signature',
    accessTokenExpiresAt: NOW + 3600_000,
    refreshToken: 'refresh-1',
    claims: { sub: 'demo|parent', email: 'parent@manabi.example', email_verified: true, name: '山田 花子' },
    checkedAt: NOW,
    createdAt: NOW,
    ...overrides,
  }
}

const store = () => createSessionStore({ secret: SECRET, isProduction: false, now: () => NOW })

function requestWith(cookie: string): Request {
  return new Request('http://localhost:3000/', { headers: { cookie } })
}

function cookiePair(setCookie: string): string {
  return setCookie.split(';')[0]!
}

describe('session cookie', () => {
  it('round-trips through encryption', async () => {
    const s = store()
    const sealed = await s.sealSession(session())
    expect(sealed.split('.')).toHaveLength(5) // compact JWE
    expect(sealed).not.toContain('refresh-1')
    expect(sealed).not.toContain('parent@manabi.example')
    expect(await s.openSession(sealed)).toEqual(session())
  })

  it('reads the session from a request cookie', async () => {
    const s = store()
    const header = await s.sessionCookie(session())
    expect(header).toMatch(/^manabi_session=[^;]+; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax$/)
    expect(await s.readSession(requestWith(cookiePair(header)))).toEqual(session())
  })

  it('uses __Host- and Secure in production', async () => {
    const s = createSessionStore({ secret: SECRET, isProduction: true, now: () => NOW })
    const header = await s.sessionCookie(session())
    expect(header).toMatch(/^__Host-manabi_session=/)
    expect(header).toContain('; Secure')
    expect(header).toContain('; HttpOnly')
    expect(header).toContain('; Path=/')
    const tx = await s.transactionCookie({
      state: 's',
      nonce: 'n',
      codeVerifier: 'v',
      returnTo: '/',
      errorPath: '/',
      createdAt: NOW,
    })
    expect(tx).toMatch(/^__Secure-manabi_auth_tx=[^;]+; Path=\/auth\/callback; Max-Age=600; HttpOnly; Secure/)
  })

  it('rejects a tampered cookie', async () => {
    const s = store()
    const sealed = await s.sealSession(session())
    const parts = sealed.split('.')
    const ciphertext = parts[3]!
    const flipped = (ciphertext[0] === 'A' ? 'B' : 'A') + ciphertext.slice(1)
    expect(await s.openSession([parts[0], parts[1], parts[2], flipped, parts[4]].join('.'))).toBeUndefined()
    const tag = parts[4]!
    expect(
      await s.openSession([...parts.slice(0, 4), (tag[0] === 'A' ? 'B' : 'A') + tag.slice(1)].join('.')),
    ).toBeUndefined()
    expect(await s.openSession('garbage')).toBeUndefined()
    expect(await s.openSession(undefined)).toBeUndefined()
  })

  it('rejects a cookie sealed with another secret', async () => {
    const other = createSessionStore({ secret: `${SECRET}-other`, isProduction: false, now: () => NOW })
    expect(await store().openSession(await other.sealSession(session()))).toBeUndefined()
  })

  it('does not accept a transaction cookie as a session (and vice versa)', async () => {
    const s = store()
    const tx: AuthTransaction = {
      state: 's',
      nonce: 'n',
      codeVerifier: 'v',
      returnTo: '/',
      errorPath: '/',
      createdAt: NOW,
    }
    const txHeader = await s.transactionCookie(tx)
    const txValue = decodeURIComponent(cookiePair(txHeader).split('=')[1]!)
    expect(await s.openSession(txValue)).toBeUndefined()
    expect(
      await s.readTransaction(requestWith(`manabi_auth_tx=${await s.sealSession(session())}`)),
    ).toBeUndefined()
    expect(await s.readTransaction(requestWith(cookiePair(txHeader)))).toEqual(tx)
  })

  it('rejects a validly encrypted payload of the wrong shape', async () => {
    const { hkdfSync } = await import('node:crypto')
    const key = new Uint8Array(hkdfSync('sha256', SECRET, 'manabi-no-tane', 'session cookie v1', 32))
    const forged = await new EncryptJWT({ pur: 'session', sid: 1 })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .setExpirationTime(Math.floor(NOW / 1000) + 60)
      .encrypt(key)
    expect(await store().openSession(forged)).toBeUndefined()
  })

  it('expires one day after the last check', async () => {
    const s = store()
    const sealed = await s.sealSession(session())
    expect(await s.openSession(sealed, NOW + SESSION_CHECK_EXPIRY_MS - 1000)).toBeDefined()
    expect(await s.openSession(sealed, NOW + SESSION_CHECK_EXPIRY_MS + 1000)).toBeUndefined()
  })

  it('transaction cookies last ten minutes', async () => {
    const s = store()
    const header = await s.transactionCookie({
      state: 's',
      nonce: 'n',
      codeVerifier: 'v',
      returnTo: '/',
      errorPath: '/',
      createdAt: NOW,
    })
    expect(header).toContain('Max-Age=600')
    expect(header).toContain('Path=/auth/callback')
    expect(header).toContain('HttpOnly')
    const request = requestWith(cookiePair(header))
    expect(await s.readTransaction(request, NOW + 9 * 60_000)).toBeDefined()
    expect(await s.readTransaction(request, NOW + 11 * 60_000)).toBeUndefined()
  })

  it('clears with Max-Age=0', () => {
    expect(store().clearSessionCookie()).toMatch(
      /^manabi_session=; Path=\/; Max-Age=0; Expires=Thu, 01 Jan 1970/,
    )
  })

  it('writes a readable flash cookie', () => {
    const header = store().flashCookie({
      type: 'error',
      message: 'ログインできませんでした',
      detail: 'Invalid state',
    })
    expect(header).not.toContain('HttpOnly')
    const value = decodeURIComponent(cookiePair(header).slice('manabi_flash='.length))
    expect(JSON.parse(value)).toEqual({
      type: 'error',
      message: 'ログインできませんでした',
      detail: 'Invalid state',
    })
  })

  it('refuses a short secret', () => {
    expect(() => createSessionStore({ secret: 'short', isProduction: false })).toThrow(/32/)
  })
})
