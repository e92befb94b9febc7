import { describe, expect, it } from 'vitest'
import { createSessionStore, type SessionData } from './session.server'

const SECRET = 'unit-test-session-secret-0123456789abcdefghij'
const NOW = 1_750_000_000_000

function _session(overrides: Partial<SessionData> = {}): SessionData {
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

describe('auth cookies', () => {
  it("transaction cookies last as long as the provider's sign-in page (an hour)", async () => {
    const s = store()
    const header = await s.transactionCookie({
      state: 's',
      nonce: 'n',
      codeVerifier: 'v',
      returnTo: '/',
      errorPath: '/',
      createdAt: NOW,
    })
    expect(header).toContain('Max-Age=3600')
    expect(header).toContain('Path=/auth/callback')
    expect(header).toContain('HttpOnly')
    const request = requestWith(cookiePair(header))
    // Signed up, then read the confirmation mail for a quarter of an hour before continuing.
    expect(await s.readTransaction(request, NOW + 15 * 60_000)).toBeDefined()
    expect(await s.readTransaction(request, NOW + 61 * 60_000)).toBeUndefined()
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
