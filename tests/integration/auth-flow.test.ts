import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { AccountState } from '../../app/server/auth/flow.server'
import { OidcRequestError } from '../../app/server/auth/oidc.server'
import { FLASH_COOKIE, type FlashMessage } from '../../app/server/auth/session.server'
import {
  type AuthHarness,
  demoButtonAction,
  formAction,
  hrefOf,
  median,
  startAuthHarness,
  type TestBrowser,
} from './auth-harness'

/**
 * The whole authorization-code flow against the embedded provider, without a browser: /auth/login → /idp
 * (authorize, interaction, resume) → /auth/callback → session cookie → access token for the API → renewal with the
 * refresh token → logout.
 */

let h: AuthHarness
/** Who has a profile or is suspended, as the app's database would say; anyone else is registered. */
const accounts = new Map<string, AccountState>()

beforeAll(async () => {
  h = await startAuthHarness({ testLogin: true, accountOf: async (sub) => accounts.get(sub) ?? 'registered' })
})
afterAll(async () => {
  await h?.close()
})

function flashOf(browser: TestBrowser): FlashMessage | undefined {
  const raw = browser.cookies.get(FLASH_COOKIE)?.value
  return raw ? (JSON.parse(decodeURIComponent(raw)) as FlashMessage) : undefined
}

async function verifyAccessToken(token: string) {
  return jwtVerify(token, createLocalJWKSet(h.idp.publicJwks()), {
    issuer: `${h.origin}/idp`,
    audience: `${h.origin}/v1`,
    algorithms: ['RS256'],
  })
}

async function loginWithHint(browser: TestBrowser, hint: string, returnTo = '/mypage') {
  return browser.navigate(
    `/auth/login?returnTo=${encodeURIComponent(returnTo)}&login_hint=${encodeURIComponent(hint)}`,
  )
}

describe('sign-in with IDP_TEST_LOGIN (login_hint, no page)', () => {
  it('signs in, lands on returnTo and holds a valid access token for the API', async () => {
    const browser = h.newBrowser()
    const started = performance.now()
    const result = await loginWithHint(browser, 'parent@manabi.example')
    const elapsed = performance.now() - started

    expect(result.url.pathname).toBe('/mypage')
    expect(result.url.search).toBe('') // code and state are gone from the address
    // login → authorize → interaction → resume → callback → app
    expect(result.hops.map((hop) => new URL(hop.url).pathname)).toEqual([
      '/auth/login',
      '/idp/authorize',
      expect.stringMatching(/^\/idp\/interaction\//),
      expect.stringMatching(/^\/idp\/authorize\//),
      '/auth/callback',
    ])
    expect(browser.cookies.has('manabi_session')).toBe(true)
    expect(browser.cookies.has('manabi_auth_tx')).toBe(false)
    expect(flashOf(browser)).toBeUndefined()
    console.info(`[auth-flow] one full login (test login): ${elapsed.toFixed(1)} ms`)

    const access = await h.flow.getSessionAccessToken(browser.sessionRequest())
    expect(access).toBeDefined()
    expect(access!.claims).toEqual({
      sub: 'demo|parent',
      email: 'parent@manabi.example',
      email_verified: true,
      name: '山田 花子',
      nickname: 'はなこ',
    })
    expect(access!.needsSilentRenewal).toBe(false)
    expect(access!.setCookie).toEqual([])

    const { payload, protectedHeader } = await verifyAccessToken(access!.accessToken)
    expect(protectedHeader.alg).toBe('RS256')
    expect(payload.sub).toBe('demo|parent')
    expect(payload.client_id).toBe('manabi-web')
    // The API trusts the e-mail and its verification only from the token (registration needs them).
    expect(payload.email).toBe('parent@manabi.example')
    expect(payload.email_verified).toBe(true)
    expect(payload.scope).toContain('openid')
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600)
  })

  it('signs in the LINE user (no e-mail) by its sub', async () => {
    const browser = h.newBrowser()
    const result = await loginWithHint(browser, 'line|U0000000000demo', '/')
    expect(result.url.pathname).toBe('/')
    const access = await h.flow.getSessionAccessToken(browser.sessionRequest())
    expect(access!.claims).toEqual({ sub: 'line|U0000000000demo', name: '伊藤 翔', nickname: 'しょう' })
  })

  it('carries email_verified=false for the unverified demo account', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'unverified@manabi.example', '/')
    const access = await h.flow.getSessionAccessToken(browser.sessionRequest())
    expect(access!.claims.sub).toBe('demo|unverified')
    expect(access!.claims.email_verified).toBe(false)
  })

  it('issues an RS256 ID token with profile and e-mail claims (conformIdTokenClaims off)', async () => {
    const browser = h.newBrowser()
    const tokensSeen: string[] = []
    const original = h.client.exchangeCode
    h.client.exchangeCode = async (code, verifier) => {
      const tokens = await original(code, verifier)
      if (tokens.idToken) tokensSeen.push(tokens.idToken)
      return tokens
    }
    try {
      await loginWithHint(browser, 'teacher@manabi.example', '/')
    } finally {
      h.client.exchangeCode = original
    }
    expect(tokensSeen).toHaveLength(1)
    expect(decodeProtectedHeader(tokensSeen[0]!).alg).toBe('RS256')
    expect(decodeJwt(tokensSeen[0]!)).toMatchObject({
      iss: `${h.origin}/idp`,
      aud: 'manabi-web',
      sub: 'demo|teacher',
      email: 'teacher@manabi.example',
      email_verified: true,
      name: '佐藤 健太',
      nickname: 'けんた先生',
    })
  })

  it('switches accounts when the login_hint names another demo account', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'parent@manabi.example', '/')
    const result = await loginWithHint(browser, 'owner@manabi.example', '/')
    expect(result.url.pathname).toBe('/')
    const access = await h.flow.getSessionAccessToken(browser.sessionRequest())
    expect(access!.claims.sub).toBe('demo|org-owner')
  })
})

describe('sign-in through the provider page (demo-account button, cookie jar)', () => {
  it('shows a Japanese sign-in page listing the demo accounts and signs in with one click', async () => {
    const browser = h.newBrowser()
    const page = await browser.navigate('/auth/login?returnTo=%2Fclass_attendance')
    expect(page.status).toBe(200)
    expect(page.url.pathname).toMatch(/^\/idp\/interaction\//)
    expect(page.body).toContain('<html lang="ja">')
    expect(page.body).toContain('ログイン')
    for (const email of [
      'parent@manabi.example',
      'teacher@manabi.example',
      'owner@manabi.example',
      'new@manabi.example',
      'unverified@manabi.example',
    ]) {
      expect(page.body).toContain(email)
    }
    expect(page.body).not.toMatch(/<script|<link|https?:\/\/(?!127\.0\.0\.1)/)

    const action = demoButtonAction(page.body, 'demo|teacher')
    const result = await browser.navigate(action, { method: 'POST', body: 'account=demo%7Cteacher' })
    expect(result.url.pathname).toBe('/class_attendance')
    const access = await h.flow.getSessionAccessToken(browser.sessionRequest())
    expect(access!.claims.sub).toBe('demo|teacher')
    await verifyAccessToken(access!.accessToken)
  })

  it('keeps the provider session: a second login needs no page (SSO), prompt=none works', async () => {
    const browser = h.newBrowser()
    const page = await browser.navigate('/auth/login')
    await browser.navigate(demoButtonAction(page.body, 'demo|new'), {
      method: 'POST',
      body: 'account=demo%7Cnew',
    })
    browser.cookies.delete('manabi_session')

    const again = await browser.navigate('/auth/login?returnTo=%2Fmypage')
    expect(again.url.pathname).toBe('/mypage')
    const silent = await browser.navigate('/auth/login?prompt=none&returnTo=%2Fmessage')
    expect(silent.url.pathname).toBe('/message')
    expect(flashOf(browser)).toBeUndefined()
    expect((await h.flow.getSessionAccessToken(browser.sessionRequest()))!.claims.sub).toBe('demo|new')
  })

  it('after a logout of the other devices, a browser logged out there signs in only by authenticating again (0037)', async () => {
    const signIn = async () => {
      const browser = h.newBrowser()
      const page = await browser.navigate('/auth/login')
      await browser.navigate(demoButtonAction(page.body, 'demo|org-owner'), {
        method: 'POST',
        body: 'account=demo%7Corg-owner',
      })
      return browser
    }
    const kept = await signIn()
    const lost = await signIn()
    // The provider is slow to revoke the refresh tokens: the rule for fresh sign-ins holds before it answers.
    const revoke = h.client.revoke
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    h.client.revoke = async (token) => {
      await released
      return revoke.call(h.client, token)
    }
    const logoutStarted = Date.now()
    const ending = h.flow.endSessions(kept.sessionRequest(), 'others')
    try {
      await vi.waitFor(async () =>
        expect(await h.store.signInRevokedAt('demo|org-owner')).toBeGreaterThanOrEqual(logoutStarted),
      )
    } finally {
      release()
      h.client.revoke = revoke
    }
    expect(await ending).toBeGreaterThanOrEqual(1)
    expect(await h.flow.getSessionAccessToken(lost.sessionRequest())).toBeUndefined()

    // The lost device's provider session would sign it straight back in: the site asks the provider again, with
    // prompt=login, and the provider shows its sign-in page instead.
    // A silent round trip stays silent there: no session, back where it was.
    const quiet = await lost.navigate('/auth/login?prompt=none&returnTo=%2Fmessage')
    expect(quiet.url.pathname).toBe('/message')
    expect(await h.flow.getSessionAccessToken(lost.sessionRequest())).toBeUndefined()
    // (auth_time counts whole seconds, and one in the second of the revocation counts as before it: a person
    // signs in again seconds later, this test within milliseconds.)
    await new Promise((resolve) => setTimeout(resolve, 1_005 - (Date.now() % 1_000)))
    // The browser carries the request to the provider: whoever holds the lost device can drop prompt=login (and
    // max_age) from it, and the provider then signs them in by its session. The site still refuses it, on the
    // ID token's auth_time, however often they try, and whether they asked for prompt=login themselves.
    const stripped = async (url: string) => {
      const location = new URL((await lost.send(url)).headers.get('location')!)
      location.searchParams.delete('prompt')
      location.searchParams.delete('max_age')
      return location
    }
    for (const url of ['/auth/login?returnTo=%2Fmypage', '/auth/login?prompt=login&returnTo=%2Fmypage']) {
      const first = await lost.navigate(await stripped(url), {
        stopAt: (u) => u.pathname.startsWith('/idp/auth'),
      })
      // Refused: sent back to the provider with prompt=login and max_age=0 …
      expect(first.url.searchParams.get('prompt')).toBe('login')
      expect(first.url.searchParams.get('max_age')).toBe('0')
      expect(await h.flow.getSessionAccessToken(lost.sessionRequest())).toBeUndefined()
      // … and that one stripped as well is refused again: its auth_time is from before the logout.
      const location = first.url
      location.searchParams.delete('prompt')
      location.searchParams.delete('max_age')
      const second = await lost.navigate(location, { stopAt: (u) => u.pathname.startsWith('/idp/auth') })
      expect(second.url.pathname).not.toBe('/mypage')
      expect(await h.flow.getSessionAccessToken(lost.sessionRequest())).toBeUndefined()
    }
    const again = await lost.navigate('/auth/login?returnTo=%2Fmypage')
    expect(again.url.pathname).toMatch(/^\/idp\/interaction\//)
    expect(await h.flow.getSessionAccessToken(lost.sessionRequest())).toBeUndefined()
    const done = await lost.navigate(demoButtonAction(again.body, 'demo|org-owner'), {
      method: 'POST',
      body: 'account=demo%7Corg-owner',
    })
    expect(done.url.pathname).toBe('/mypage')
    expect((await h.flow.getSessionAccessToken(lost.sessionRequest()))!.claims.sub).toBe('demo|org-owner')
    // Authenticated afresh, its next sign-in is single sign-on again.
    lost.cookies.delete('manabi_session')
    expect((await lost.navigate('/auth/login?returnTo=%2Fmessage')).url.pathname).toBe('/message')

    // The device that kept its session renews silently as before (prompt=none): a new session, same member.
    const before = (await h.flow.getSessionAccessToken(kept.sessionRequest()))!.sessionId
    const silent = await kept.navigate('/auth/login?prompt=none&returnTo=%2Fmessage')
    expect(silent.url.pathname).toBe('/message')
    const renewed = (await h.flow.getSessionAccessToken(kept.sessionRequest()))!
    expect(renewed.claims.sub).toBe('demo|org-owner')
    expect(renewed.sessionId).not.toBe(before)
  })

  it('ends the sign-in of someone without a profile on the top page (spec §4 sorts them from there), from any page', async () => {
    accounts.set('demo|new', 'unregistered')
    try {
      const browser = h.newBrowser()
      const page = await browser.navigate('/auth/login?returnTo=%2Fclass_search%3Fq%3D%E8%8B%B1%E8%AA%9E')
      const result = await browser.navigate(demoButtonAction(page.body, 'demo|new'), {
        method: 'POST',
        body: 'account=demo%7Cnew',
      })
      expect(result.url.pathname).toBe('/')
      expect((await h.flow.getSessionAccessToken(browser.sessionRequest()))!.claims.sub).toBe('demo|new')
      // A silent renewal stays where it was.
      const silent = await browser.navigate('/auth/login?prompt=none&returnTo=%2Fmagazine')
      expect(silent.url.pathname).toBe('/magazine')
      // Once registered, the sign-in returns to where it began.
      accounts.set('demo|new', 'registered')
      browser.cookies.delete('manabi_session')
      const again = await browser.navigate('/auth/login?returnTo=%2Fmagazine')
      expect(again.url.pathname).toBe('/magazine')
    } finally {
      accounts.delete('demo|new')
    }
  })

  it('refuses a suspended account: no session, the top page with the message', async () => {
    accounts.set('demo|new', 'suspended')
    try {
      const browser = h.newBrowser()
      const page = await browser.navigate('/auth/login?returnTo=%2Fmypage')
      const result = await browser.navigate(demoButtonAction(page.body, 'demo|new'), {
        method: 'POST',
        body: 'account=demo%7Cnew',
      })
      expect(result.url.pathname).toBe('/')
      expect(browser.cookies.has('manabi_session')).toBe(false)
      expect(flashOf(browser)).toMatchObject({ error: 'account_suspended' })
    } finally {
      accounts.delete('demo|new')
    }
  })

  it('prompt=none without a provider session logs out locally and returns quietly', async () => {
    const signedIn = h.newBrowser()
    await loginWithHint(signedIn, 'parent@manabi.example', '/')
    // Same app session cookie, but no provider session (as after the provider session ended elsewhere).
    const browser = h.newBrowser()
    browser.cookies.set('manabi_session', signedIn.cookies.get('manabi_session')!)

    const result = await browser.navigate('/auth/login?prompt=none&returnTo=%2Fmypage')
    const callback = result.hops.find((hop) => hop.url.includes('/auth/callback'))
    expect(new URL(callback!.url).searchParams.get('error')).toBe('login_required')
    expect(result.url.pathname).toBe('/mypage')
    expect(browser.cookies.has('manabi_session')).toBe(false)
    expect(flashOf(browser)).toBeUndefined()
    // The session itself ended, not only this browser's cookie: the first browser's copy no longer works.
    expect(await h.flow.getSessionAccessToken(signedIn.sessionRequest())).toBeUndefined()
  })

  it('signs up with an e-mail address, unverified until the confirmation link is opened', async () => {
    const browser = h.newBrowser()
    const page = await browser.navigate('/auth/login?screen_hint=signup&returnTo=%2F')
    expect(page.status).toBe(200)
    expect(page.body).toContain('新規登録')

    const email = `signup-${Date.now()}@manabi.example`
    const done = await browser.navigate(formAction(page.body, 'name="email"'), {
      method: 'POST',
      body: new URLSearchParams({ email, password: 'correct horse', nickname: 'たろう' }).toString(),
    })
    expect(done.status).toBe(200)
    expect(done.body).toContain('確認メールを送信しました')
    // The link goes by mail only: the page does not show it.
    expect(done.body).not.toContain('verify-email?token=')
    const mail = h.verificationMails.at(-1)!
    expect(mail).toMatchObject({ email, expiresHours: 24 })
    const verifyUrl = mail.verifyUrl
    expect(verifyUrl).toMatch(/\/idp\/verify-email\?token=/)
    const continueUrl = hrefOf(done.body, 'まなびのたねへ進む')

    const landed = await browser.navigate(continueUrl)
    expect(landed.url.pathname).toBe('/')
    const before = await h.flow.getSessionAccessToken(browser.sessionRequest())
    expect(before!.claims).toMatchObject({ email, email_verified: false, nickname: 'たろう' })
    expect(before!.claims.sub).toMatch(/^auth0\|[0-9a-f]{24}$/)

    const verified = await browser.navigate(verifyUrl)
    expect(verified.status).toBe(200)
    expect(verified.body).toContain('メールアドレスを確認しました')
    expect((await browser.navigate(verifyUrl)).status).toBe(400) // single use

    // The next renewal picks up the new claim.
    const renewed = await h.flow.getSessionAccessToken(browser.sessionRequest(), {
      now: before!.expiresAt - 10_000,
    })
    expect(renewed!.claims.email_verified).toBe(true)

    // The account can sign in again with its password.
    const fresh = h.newBrowser()
    const loginPage = await fresh.navigate('/auth/login')
    const again = await fresh.navigate(formAction(loginPage.body, 'name="password"'), {
      method: 'POST',
      body: new URLSearchParams({ email, password: 'correct horse' }).toString(),
    })
    expect(again.url.pathname).toBe('/')
    expect((await h.flow.getSessionAccessToken(fresh.sessionRequest()))!.claims.sub).toBe(before!.claims.sub)
  })

  it('sends the confirmation mail again (再送): a new link, the old one dead; the same answer for any address', async () => {
    const browser = h.newBrowser()
    const page = await browser.navigate('/auth/login?screen_hint=signup&returnTo=%2F')
    const email = `resend-${Date.now()}@manabi.example`
    const done = await browser.navigate(formAction(page.body, 'name="email"'), {
      method: 'POST',
      body: new URLSearchParams({ email, password: 'correct horse', nickname: 'じろう' }).toString(),
    })
    const first = h.verificationMails.at(-1)!
    const resendAction = formAction(done.body, 'name="email" value=')
    const resent = await browser.navigate(resendAction, {
      method: 'POST',
      body: new URLSearchParams({ email }).toString(),
    })
    expect(resent.status).toBe(200)
    expect(resent.body).toContain('確認メールを再送しました')
    const second = h.verificationMails.at(-1)!
    expect(second.email).toBe(email)
    expect(second.verifyUrl).not.toBe(first.verifyUrl)
    expect((await browser.navigate(first.verifyUrl)).status).toBe(400)
    expect((await browser.navigate(second.verifyUrl)).status).toBe(200)
    // A verified or unknown address gets the same page and no mail.
    const count = h.verificationMails.length
    for (const other of [email, 'nobody-here@manabi.example']) {
      const again = await browser.navigate(resendAction, {
        method: 'POST',
        body: new URLSearchParams({ email: other }).toString(),
      })
      expect(again.status).toBe(200)
      expect(again.body).toContain('確認メールを再送しました')
    }
    expect(h.verificationMails).toHaveLength(count)
  })

  it('reports sign-in, failed sign-in and logout for the audit log', async () => {
    h.securityEvents.length = 0
    const browser = h.newBrowser()
    await loginWithHint(browser, 'parent@manabi.example', '/')
    expect(h.securityEvents).toEqual([
      expect.objectContaining({ action: 'sign_in', sub: 'demo|parent', email: 'parent@manabi.example' }),
    ])
    const other = h.newBrowser()
    const loginPage = await other.navigate('/auth/login')
    await other.navigate(formAction(loginPage.body, 'name="password"'), {
      method: 'POST',
      body: new URLSearchParams({ email: 'parent@manabi.example', password: 'wrong-password' }).toString(),
    })
    expect(h.securityEvents.at(-1)).toMatchObject({
      action: 'sign_in_failed',
      email: 'parent@manabi.example',
      reason: 'password',
    })
    await browser.navigate('/auth/logout', { method: 'POST' })
    expect(h.securityEvents.at(-1)).toMatchObject({ action: 'logout', sub: 'demo|parent' })
  })

  it('rejects a wrong password with a Japanese message', async () => {
    const browser = h.newBrowser()
    const loginPage = await browser.navigate('/auth/login')
    const result = await browser.navigate(formAction(loginPage.body, 'name="password"'), {
      method: 'POST',
      body: new URLSearchParams({ email: 'nobody@manabi.example', password: 'whatever1' }).toString(),
    })
    expect(result.status).toBe(400)
    expect(result.body).toContain('メールアドレスまたはパスワードが正しくありません')
  })

  it('returns an access_denied error when the user backs out', async () => {
    const browser = h.newBrowser()
    const page = await browser.navigate('/auth/login?returnTo=%2Fmypage')
    const result = await browser.navigate(formAction(page.body, '戻る'), { method: 'POST', body: '' })
    expect(result.url.pathname).toBe('/')
    expect(flashOf(browser)).toMatchObject({
      type: 'error',
      message: 'ログインできませんでした',
      error: 'access_denied',
    })
    expect(flashOf(browser)?.returnTo).toBe('/mypage')
  })
})

describe('access token renewal', () => {
  it('renews within 60 s of expiry with the refresh token and updates the cookie', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'parent@manabi.example', '/')
    const first = await h.flow.getSessionAccessToken(browser.sessionRequest())

    const seen: string[] = []
    const renewed = await h.flow.getSessionAccessToken(browser.sessionRequest(), {
      now: first!.expiresAt - 30_000,
      onSetCookie: (header) => seen.push(header),
    })
    expect(renewed).toBeDefined()
    expect(renewed!.accessToken).not.toBe(first!.accessToken)
    expect(renewed!.sessionId).toBe(first!.sessionId)
    expect(renewed!.setCookie).toHaveLength(1)
    expect(seen).toEqual(renewed!.setCookie)
    expect(renewed!.setCookie[0]).toMatch(/^manabi_session=.+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/)
    await verifyAccessToken(renewed!.accessToken)

    // The browser keeps the renewed session.
    browser.applySetCookie(renewed!.setCookie, new URL(h.origin))
    const after = await h.flow.getSessionAccessToken(browser.sessionRequest())
    expect(after!.accessToken).toBe(renewed!.accessToken)
  })

  it('shares one renewal between concurrent requests', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'teacher@manabi.example', '/')
    const first = await h.flow.getSessionAccessToken(browser.sessionRequest())
    const now = first!.expiresAt - 5_000
    const results = await Promise.all(
      [1, 2, 3].map(() => h.flow.getSessionAccessToken(browser.sessionRequest(), { now })),
    )
    expect(new Set(results.map((r) => r!.accessToken)).size).toBe(1)
  })

  it('clears the session locally when the refresh token is refused (invalid_grant)', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'parent@manabi.example', '/')
    const first = await h.flow.getSessionAccessToken(browser.sessionRequest())
    // End the provider session: tokens bound to it die.
    await browser.navigate(`/idp/v2/logout?returnTo=${encodeURIComponent(h.origin)}&client_id=manabi-web`)

    const headers: string[] = []
    const result = await h.flow.getSessionAccessToken(browser.sessionRequest(), {
      now: first!.expiresAt - 1_000,
      onSetCookie: (header) => headers.push(header),
    })
    expect(result).toBeUndefined()
    expect(headers).toEqual([expect.stringMatching(/^manabi_session=; Path=\/; Max-Age=0/)])
  })

  it('reports needsSilentRenewal when there is no refresh token', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'parent@manabi.example', '/')
    const session = await h.store.readSession(browser.sessionRequest())
    const cookie = await h.store.renewedSessionCookie({ ...session!, refreshToken: undefined })
    browser.applySetCookie([cookie!], new URL(h.origin))
    const result = await h.flow.getSessionAccessToken(browser.sessionRequest(), {
      now: session!.accessTokenExpiresAt - 30_000,
    })
    expect(result!.needsSilentRenewal).toBe(true)
    expect(result!.accessToken).toBe(session!.accessToken)
  })

  it('treats a session unchecked for more than a day as expired', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'parent@manabi.example', '/')
    const session = await h.store.readSession(browser.sessionRequest())
    const result = await h.flow.getSessionAccessToken(browser.sessionRequest(), {
      now: session!.checkedAt + 24 * 60 * 60 * 1000 + 1000,
    })
    expect(result).toBeUndefined()
  })
})

describe('logout', () => {
  it('clears the session, ends the provider session and returns to the site origin', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'parent@manabi.example', '/')
    const access = await h.flow.getSessionAccessToken(browser.sessionRequest())
    const session = await h.store.readSession(browser.sessionRequest())

    const result = await browser.navigate('/auth/logout', { method: 'POST' })
    expect(result.hops.map((hop) => new URL(hop.url).pathname)).toEqual(['/auth/logout', '/idp/v2/logout'])
    const providerLogout = new URL(result.hops[0]!.location!)
    expect(providerLogout.searchParams.get('returnTo')).toBe(h.origin)
    expect(providerLogout.searchParams.get('client_id')).toBe('manabi-web')
    expect(result.url.href).toBe(`${h.origin}/`)
    expect(browser.cookies.has('manabi_session')).toBe(false)
    expect(browser.cookies.has('idp_session')).toBe(false)
    expect(await h.flow.getSessionAccessToken(browser.sessionRequest())).toBeUndefined()

    // The refresh token died with the provider session.
    await expect(h.client.refresh(session!.refreshToken!)).rejects.toMatchObject({ code: 'invalid_grant' })
    expect(access).toBeDefined()

    // And the next login asks again.
    const page = await browser.navigate('/auth/login')
    expect(page.status).toBe(200)
    expect(page.url.pathname).toMatch(/^\/idp\/interaction\//)
  })

  it('runs the registered onLogout callbacks', async () => {
    const { onLogout } = await import('../../app/server/auth/flow.server')
    const calls: unknown[] = []
    const off = onLogout((info) => {
      calls.push(info)
    })
    try {
      const browser = h.newBrowser()
      await loginWithHint(browser, 'teacher@manabi.example', '/')
      await browser.navigate('/auth/logout', { method: 'POST' })
      expect(calls).toEqual([expect.objectContaining({ sub: 'demo|teacher', reason: 'logout' })])
    } finally {
      off()
    }
  })

  it('with the session store away answers 503 in Japanese and keeps the cookie, so that trying again ends the session', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'parent@manabi.example', '/')
    const away = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'))
    for (const method of ['readSession', 'deleteSession'] as const) {
      const spy = vi.spyOn(h.store, method).mockImplementation(away)
      try {
        const res = await browser.send('/auth/logout', { method: 'POST' })
        expect(res.status, method).toBe(503)
        expect(res.headers.get('retry-after')).toBe('5')
        expect(res.headers.get('cache-control')).toBe('no-store')
        expect(await res.text()).toContain('ログアウトできませんでした')
      } finally {
        spy.mockRestore()
      }
      expect(browser.cookies.has('manabi_session'), method).toBe(true)
      expect(await h.flow.getSessionAccessToken(browser.sessionRequest())).toBeDefined()
    }
    const session = await h.store.readSession(browser.sessionRequest())
    await browser.navigate('/auth/logout', { method: 'POST' })
    expect(browser.cookies.has('manabi_session')).toBe(false)
    // The row is gone: a copy of the old cookie is signed out too.
    expect(await h.store.loadSession(session!.sid, Date.now())).toBeUndefined()
  })

  it('a silent renewal that finds no provider session, with the session store away, answers 503 (not a bare 500)', async () => {
    const browser = h.newBrowser()
    await loginWithHint(browser, 'parent@manabi.example', '/')
    browser.cookies.delete('idp_session')
    const reached = await browser.navigate('/auth/login?prompt=none&returnTo=%2Fmessage', {
      stopAt: (url) => url.pathname === '/auth/callback',
    })
    expect(reached.url.pathname).toBe('/auth/callback')
    expect(reached.url.searchParams.get('error')).toBe('login_required')
    const spy = vi
      .spyOn(h.store, 'readSession')
      .mockImplementation(() => Promise.reject(new Error('connect ECONNREFUSED')))
    try {
      const res = await browser.send(reached.url)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('5')
      expect(await res.text()).toContain('ログイン状態を確認できませんでした')
    } finally {
      spy.mockRestore()
    }
  })

  it('ignores a returnTo outside the site on the provider logout', async () => {
    const browser = h.newBrowser()
    const result = await browser.navigate(
      '/idp/v2/logout?returnTo=https%3A%2F%2Fevil.example%2F&client_id=manabi-web',
    )
    expect(result.status).toBe(200)
    expect(result.body).toContain('ログアウトしました')
  })
})

describe('callback failures', () => {
  async function reachCallback(
    browser: TestBrowser,
    query = 'login_hint=parent%40manabi.example&returnTo=%2Fmypage',
  ) {
    const result = await browser.navigate(`/auth/login?${query}`, {
      stopAt: (url) => url.pathname === '/auth/callback',
    })
    expect(result.url.pathname).toBe('/auth/callback')
    return result.url
  }

  it("rejects a tampered state with 'Invalid state'", async () => {
    const browser = h.newBrowser()
    const callback = await reachCallback(browser)
    callback.searchParams.set('state', 'tampered')
    const result = await browser.navigate(callback)
    expect(result.url.pathname).toBe('/')
    expect(browser.cookies.has('manabi_session')).toBe(false)
    expect(flashOf(browser)).toMatchObject({
      type: 'error',
      message: 'ログインできませんでした',
      detail: 'Invalid state',
      error: 'state_mismatch',
    })
  })

  it("rejects a callback without a transaction with 'Invalid state'", async () => {
    const browser = h.newBrowser()
    const callback = await reachCallback(browser)
    browser.cookies.delete('manabi_auth_tx')
    await browser.navigate(callback)
    expect(flashOf(browser)).toMatchObject({ detail: 'Invalid state', error: 'missing_transaction' })
  })

  it("answers a callback with no query parameters with spec §9's text, with or without a transaction", async () => {
    for (const withTransaction of [true, false]) {
      const browser = h.newBrowser()
      await reachCallback(browser)
      if (!withTransaction) browser.cookies.delete('manabi_auth_tx')
      const result = await browser.navigate('/auth/callback')
      expect(result.url.pathname).toBe('/')
      expect(browser.cookies.has('manabi_session')).toBe(false)
      expect(flashOf(browser)).toMatchObject({
        message: 'ログインできませんでした',
        detail: 'There are no query params available for parsing.',
        error: 'invalid_request',
      })
    }
  })

  it('fails a replayed authorization code', async () => {
    const browser = h.newBrowser()
    const callback = await reachCallback(browser)
    const tx = browser.cookies.get('manabi_auth_tx')!
    const first = await browser.navigate(callback)
    expect(first.url.pathname).toBe('/mypage')

    // Replay the same callback with the transaction cookie restored: the provider refuses the used code.
    const attacker = h.newBrowser()
    attacker.cookies.set('manabi_auth_tx', tx)
    const replay = await attacker.navigate(callback)
    expect(replay.url.pathname).toBe('/')
    expect(attacker.cookies.has('manabi_session')).toBe(false)
    expect(flashOf(attacker)).toMatchObject({ message: 'ログインできませんでした', error: 'invalid_grant' })
  })

  it('carries the provider error, its description and the saved returnTo', async () => {
    const browser = h.newBrowser()
    await browser.navigate('/auth/login?returnTo=%2Ffollow&errorPath=%2Fclass_search', {
      stopAt: (url) => url.pathname.startsWith('/idp'),
    })
    // Answer as the provider does on a refusal.
    const tx = await h.store.readTransaction(browser.request('/auth/callback'))
    const url = new URL('/auth/callback', h.origin)
    url.searchParams.set('state', tx!.state)
    url.searchParams.set('error', 'access_denied')
    url.searchParams.set('error_description', 'User did not authorize the request')
    const result = await browser.navigate(url)
    expect(result.url.pathname).toBe('/class_search')
    expect(flashOf(browser)).toEqual({
      type: 'error',
      message: 'ログインできませんでした',
      detail: 'User did not authorize the request',
      error: 'access_denied',
      error_description: 'User did not authorize the request',
      returnTo: '/follow',
    })
  })

  it.each(['//evil.example/steal', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)'])(
    'neutralises the open redirect returnTo %s',
    async (returnTo) => {
      const browser = h.newBrowser()
      const result = await loginWithHint(browser, 'parent@manabi.example', returnTo)
      expect(result.url.href).toBe(`${h.origin}/`)
      expect(browser.cookies.has('manabi_session')).toBe(true)
    },
  )
})

describe('on a server that keeps only the last Set-Cookie of a response', () => {
  it('still signs in, reports failures and signs out (the essential cookie comes last)', async () => {
    const browser = h.newBrowser()
    browser.lastSetCookieOnly = true
    const result = await loginWithHint(browser, 'parent@manabi.example', '/mypage')
    expect(result.url.pathname).toBe('/mypage')
    expect(browser.cookies.has('manabi_session')).toBe(true)

    const callback = await browser.navigate('/auth/login?login_hint=parent%40manabi.example', {
      stopAt: (url) => url.pathname === '/auth/callback',
    })
    callback.url.searchParams.set('state', 'tampered')
    await browser.navigate(callback.url)
    expect(flashOf(browser)).toMatchObject({ detail: 'Invalid state' })

    await browser.navigate('/auth/logout', { method: 'POST' })
    expect(browser.cookies.has('manabi_session')).toBe(false)
  })
})

describe('provider endpoints', () => {
  it('serves discovery with Auth0 paths under /idp', async () => {
    const response = await fetch(`${h.origin}/idp/.well-known/openid-configuration`)
    const discovery = (await response.json()) as Record<string, unknown>
    expect(discovery).toMatchObject({
      issuer: `${h.origin}/idp`,
      authorization_endpoint: `${h.origin}/idp/authorize`,
      token_endpoint: `${h.origin}/idp/oauth/token`,
      jwks_uri: `${h.origin}/idp/.well-known/jwks.json`,
      userinfo_endpoint: `${h.origin}/idp/userinfo`,
      code_challenge_methods_supported: ['S256'],
    })
    expect(h.idp.discovery()).toMatchObject({
      issuer: discovery.issuer,
      authorization_endpoint: discovery.authorization_endpoint,
      token_endpoint: discovery.token_endpoint,
      jwks_uri: discovery.jwks_uri,
    })
    const jwks = (await (await fetch(`${h.origin}/idp/.well-known/jwks.json`)).json()) as {
      keys: { d?: string }[]
    }
    expect(jwks.keys).toHaveLength(1)
    expect(jwks.keys[0]!.d).toBeUndefined()
    expect(jwks).toEqual(h.idp.publicJwks())
  })

  it('requires PKCE', async () => {
    const url = new URL(`${h.origin}/idp/authorize`)
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'manabi-web',
      redirect_uri: `${h.origin}/auth/callback`,
      scope: 'openid',
      state: 's',
    }).toString()
    const response = await fetch(url, { redirect: 'manual' })
    const location = new URL(response.headers.get('location')!)
    expect(location.searchParams.get('error')).toBe('invalid_request')
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/)
  })

  it('refuses an unknown audience', async () => {
    const browser = h.newBrowser()
    const login = await browser.send('/auth/login?login_hint=parent%40manabi.example')
    const authorize = new URL(login.headers.get('location')!)
    authorize.searchParams.set('audience', 'https://other.example/api')
    const result = await browser.navigate(authorize)
    const callback = result.hops.find((hop) => hop.url.includes('/auth/callback'))
    expect(new URL(callback!.url).searchParams.get('error')).toBe('invalid_target')
  })

  it('times a full login', async () => {
    const times: number[] = []
    for (let i = 0; i < 10; i++) {
      const browser = h.newBrowser()
      const started = performance.now()
      const result = await loginWithHint(browser, 'parent@manabi.example', '/')
      times.push(performance.now() - started)
      expect(result.url.pathname).toBe('/')
    }
    console.info(`[auth-flow] login round trip: median ${median(times).toFixed(1)} ms over ${times.length}`)
    expect(median(times)).toBeLessThan(1000)
  })

  it('exposes token-request failures as OidcRequestError', async () => {
    await expect(h.client.refresh('not-a-refresh-token')).rejects.toBeInstanceOf(OidcRequestError)
  })
})
