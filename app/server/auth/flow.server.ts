import '@tanstack/react-start/server-only'
import { generateCodeVerifier, generateState } from 'arctic'
import { DATABASE_RETRY_AFTER_S } from '../../db/client'
import { getConfig } from '../config'
import { type IdTokenClaims, IdTokenError } from './id-token'
import { getOidcClient, type OidcClient, OidcRequestError, type TokenSet } from './oidc.server'
import { sanitizeReturnTo } from './return-to.server'
import {
  type AuthTransaction,
  type FlashMessage,
  getSessionStore,
  newSessionId,
  type SessionClaims,
  type SessionData,
  type SessionStore,
} from './session.server'

/**
 * The login, callback and logout handlers and the access-token accessor: plain Request → Response functions,
 * testable without the Start runtime. Route files call the default instances (handleLogin, handleCallback,
 * handleLogout, getSessionAccessToken); tests build their own with createAuthFlow().
 */

/** Renew the access token when it expires within this margin (spec §9: token cache buffer 60 s). */
export const TOKEN_RENEWAL_MARGIN_MS = 60_000
export const LOGIN_FAILED_MESSAGE = 'ログインできませんでした'
export const ACCOUNT_SUSPENDED_MESSAGE =
  'このアカウントは利用を停止しています。お心当たりのない場合はお問い合わせください'
/** Provider errors that, on a prompt=none round trip, just mean "not signed in there any more". */
const SILENT_RENEWAL_ERRORS = new Set(['login_required', 'interaction_required', 'consent_required'])
/** Refresh failures that end the session. */
const SESSION_ENDING_ERRORS = new Set(['invalid_grant', 'login_required'])
const ALLOWED_PROMPTS = new Set(['none', 'login'])

/**
 * How long a logout of other devices asks for a fresh authentication when the provider's ID token carries no
 * `auth_time`: longer than a provider's single sign-on session is kept (the embedded one's: 14 days).
 */
export const REAUTH_WINDOW_MS = 30 * 24 * 3_600_000

export interface LogoutInfo {
  sessionId?: string
  sub?: string
  reason: 'logout' | 'renewal_refused' | 'silent_renewal_failed'
}
export type LogoutListener = (info: LogoutInfo) => void | Promise<void>

const logoutListeners = new Set<LogoutListener>()

/** Registers a callback run on every logout (with why the session ended). Returns an unsubscribe. */
export function onLogout(listener: LogoutListener): () => void {
  logoutListeners.add(listener)
  return () => logoutListeners.delete(listener)
}

async function runLogoutListeners(info: LogoutInfo) {
  for (const listener of logoutListeners) {
    try {
      await listener(info)
    } catch (error) {
      console.warn(`[auth] logout listener failed: ${(error as Error).message}`)
    }
  }
}

export interface SessionAccessToken {
  accessToken: string
  /** Epoch ms. */
  expiresAt: number
  claims: SessionClaims
  sessionId: string
  /**
   * The token expires within 60 s and there is no refresh token: send the browser through
   * `/auth/login?prompt=none&returnTo=…` (a top-level silent renewal). The token is returned as is meanwhile.
   */
  needsSilentRenewal: boolean
  /** Set-Cookie header values the response must carry (a renewed session). */
  setCookie: string[]
}

export interface GetSessionAccessTokenOptions {
  /**
   * Receives every Set-Cookie header value: a renewed session, and also the clearing of a session whose renewal
   * was refused (then the function returns undefined, so this is the only way to see that header).
   */
  onSetCookie?: (header: string) => void
  now?: number
}

export interface AuthFlowOptions {
  siteOrigin: string
  store: SessionStore
  client: () => Promise<OidcClient>
  now?: () => number
  /** Silences the warning log on failed logins (tests). */
  quiet?: boolean
  /** Security events for the audit log (sign-in, logout, logout elsewhere); a failure here never blocks them. */
  onSecurityEvent?: (event: SecurityEvent) => Promise<void>
  /**
   * The member behind a subject: `suspended` by an operator (issue 15: the sign-in is refused and no session is
   * made), `unregistered` (no profile yet: the sign-in ends on the top page, which sorts them into registration,
   * spec §4) or `registered`. Without it every sign-in goes back to its returnTo.
   */
  accountOf?: (sub: string) => Promise<AccountState>
}

export type AccountState = 'registered' | 'unregistered' | 'suspended'

export interface SecurityEvent {
  action: 'sign_in' | 'sign_in_refused' | 'logout' | 'logout_others'
  sub: string
  email?: string
  nickname?: string
  /** The client's address as the server saw it (x-real-ip). */
  address?: string
  /** logout_others: how many sessions ended. */
  count?: number
}

export type AuthFlow = ReturnType<typeof createAuthFlow>

export function pickSessionClaims(claims: IdTokenClaims | SessionClaims): SessionClaims {
  const picked: SessionClaims = { sub: claims.sub }
  if (typeof claims.email === 'string') picked.email = claims.email
  if (typeof claims.email_verified === 'boolean') picked.email_verified = claims.email_verified
  if (typeof claims.name === 'string') picked.name = claims.name
  if (typeof claims.nickname === 'string') picked.nickname = claims.nickname
  if (typeof claims.picture === 'string') picked.picture = claims.picture
  return picked
}

function redirect(location: string, headers = new Headers()): Response {
  headers.set('Location', location)
  headers.set('Cache-Control', 'no-store')
  return new Response(null, { status: 302, headers })
}

const LOGOUT_FORM =
  '<form method="post" action="/auth/logout"><button type="submit">もう一度ログアウトする</button></form>'
const HOME_LINK = '<p><a href="/">トップページへ戻る</a></p>'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function describeError(error: unknown): string {
  if (error instanceof OidcRequestError) return error.message
  if (error instanceof IdTokenError) return error.message
  return 'Unexpected error'
}

export function createAuthFlow(options: AuthFlowOptions) {
  const { store } = options
  const clock = options.now ?? Date.now
  // Cookie order: when a response sets several cookies, the one that matters (session, flash) comes last.
  // Some Node adapters on Node 20 keep only the last Set-Cookie (see preserve-set-cookie.server.ts); the login
  // then still works and only the clearing of the short-lived transaction cookie is lost.
  const siteOrigin = options.siteOrigin.replace(/\/+$/, '')

  /** Concurrent requests holding the same refresh token share one renewal (and its result, briefly). */
  const renewals = new Map<string, { promise: Promise<TokenSet>; settledAt?: number }>()
  const RENEWAL_REUSE_MS = 30_000
  // A refresh refused because another instance used the same rotating token: how long to wait for its save.
  const RENEWAL_RACE_WAIT_MS = 2_000
  const RENEWAL_RACE_POLL_MS = 150

  function renew(client: OidcClient, refreshToken: string): Promise<TokenSet> {
    const now = Date.now()
    for (const [token, entry] of renewals) {
      if (entry.settledAt !== undefined && now - entry.settledAt > RENEWAL_REUSE_MS) renewals.delete(token)
    }
    const existing = renewals.get(refreshToken)
    if (existing) return existing.promise
    const entry: { promise: Promise<TokenSet>; settledAt?: number } = {
      promise: client.refresh(refreshToken),
    }
    renewals.set(refreshToken, entry)
    entry.promise.then(
      () => {
        entry.settledAt = Date.now()
      },
      () => {
        renewals.delete(refreshToken)
      },
    )
    return entry.promise
  }

  /**
   * The session's row once it holds tokens newer than `session`'s, polled for up to RENEWAL_RACE_WAIT_MS; undefined
   * if none appear or the row is gone.
   */
  async function renewedElsewhere(session: SessionData, now: number): Promise<SessionData | undefined> {
    const deadline = Date.now() + RENEWAL_RACE_WAIT_MS
    for (;;) {
      const current = await store.loadSession(session.sid, now)
      if (!current) return undefined
      if (
        current.refreshToken !== session.refreshToken ||
        current.accessTokenExpiresAt > session.accessTokenExpiresAt
      )
        return current
      if (Date.now() >= deadline) return undefined
      await sleep(RENEWAL_RACE_POLL_MS)
    }
  }

  async function securityEvent(request: Request, event: Omit<SecurityEvent, 'address'>) {
    if (!options.onSecurityEvent) return
    try {
      await options.onSecurityEvent({ ...event, address: request.headers.get('x-real-ip') ?? undefined })
    } catch (error) {
      console.warn(`[auth] could not record ${event.action}: ${(error as Error).message}`)
    }
  }

  function failure(headers: Headers, path: string, flash: Omit<FlashMessage, 'type' | 'message'>): Response {
    headers.append(
      'Set-Cookie',
      store.flashCookie({ type: 'error', message: LOGIN_FAILED_MESSAGE, ...flash }),
    )
    return redirect(path, headers)
  }

  /** GET /auth/login?returnTo=&screen_hint=&login_hint=&prompt=&errorPath= */
  async function handleLogin(request: Request): Promise<Response> {
    const params = new URL(request.url).searchParams
    const returnTo = sanitizeReturnTo(params.get('returnTo'))
    const errorPath = sanitizeReturnTo(params.get('errorPath'))
    const promptParam = params.get('prompt') ?? undefined
    const prompt = promptParam && ALLOWED_PROMPTS.has(promptParam) ? promptParam : undefined
    const screenHint = params.get('screen_hint') === 'signup' ? 'signup' : undefined
    const loginHint = params.get('login_hint')?.trim().slice(0, 320) || undefined

    return startLogin(new Headers(), { returnTo, errorPath, prompt, screenHint, loginHint })
  }

  /** Sets the transaction cookie and sends the browser to the provider's authorization endpoint. */
  async function startLogin(
    headers: Headers,
    o: {
      returnTo: string
      errorPath: string
      prompt?: string
      screenHint?: 'signup'
      loginHint?: string
      /** max_age: kept in the transaction (on the server), so the callback checks auth_time against it. */
      maxAge?: number
    },
  ): Promise<Response> {
    const { returnTo, errorPath, prompt, screenHint, loginHint, maxAge } = o
    const tx: AuthTransaction = {
      state: generateState(),
      nonce: generateState(),
      codeVerifier: generateCodeVerifier(),
      returnTo,
      errorPath,
      prompt,
      maxAge,
      createdAt: clock(),
    }
    let location: URL
    try {
      const client = await options.client()
      location = client.authorizationUrl({
        state: tx.state,
        codeVerifier: tx.codeVerifier,
        nonce: tx.nonce,
        prompt,
        screenHint,
        loginHint,
        maxAge,
      })
    } catch (error) {
      if (!options.quiet) console.warn(`[auth] cannot start a login: ${(error as Error).message}`)
      return failure(headers, errorPath, { detail: describeError(error), error: 'unavailable', returnTo })
    }
    headers.append('Set-Cookie', await store.transactionCookie(tx))
    return redirect(location.href, headers)
  }

  /** GET /auth/callback?code=&state= (or ?error=&error_description=&state=) */
  async function handleCallback(request: Request): Promise<Response> {
    const params = new URL(request.url).searchParams
    const tx = await store.readTransaction(request, clock())
    const headers = new Headers()
    headers.append('Set-Cookie', store.clearTransactionCookie())

    // Spec §9: a callback with no query at all says so, before anything is looked up (auth0-spa-js's wording).
    if (params.size === 0) {
      return failure(headers, tx?.errorPath ?? '/', {
        detail: 'There are no query params available for parsing.',
        error: 'invalid_request',
        returnTo: tx?.returnTo,
      })
    }
    if (!tx) return failure(headers, '/', { detail: 'Invalid state', error: 'missing_transaction' })
    if (params.get('state') !== tx.state) {
      return failure(headers, tx.errorPath, {
        detail: 'Invalid state',
        error: 'state_mismatch',
        returnTo: tx.returnTo,
      })
    }

    // RFC 9207: when the provider names itself, it must be the one the login was sent to (mix-up defence).
    const iss = params.get('iss')
    if (iss !== null) {
      const client = await options.client().catch(() => undefined)
      if (client && iss !== client.settings.issuer) {
        return failure(headers, tx.errorPath, {
          detail: `Issuer mismatch in the authorization response: ${iss}`,
          error: 'invalid_issuer',
          returnTo: tx.returnTo,
        })
      }
    }

    const providerError = params.get('error')
    if (providerError) {
      const description = params.get('error_description') ?? undefined
      if (tx.prompt === 'none' && SILENT_RENEWAL_ERRORS.has(providerError)) {
        // Silent renewal found no provider session: log out locally, quietly, and go back where we were.
        let previous: SessionData | undefined
        try {
          previous = await store.readSession(request, clock())
          // Ended here as on logout: a copy of the cookie must not keep the session (0016: the row is the session).
          if (previous) await store.deleteSession(previous.sid)
        } catch (error) {
          return sessionStoreUnavailable('ログイン状態を確認できませんでした', error, HOME_LINK, headers)
        }
        if (previous) {
          await revokeAll(previous.refreshToken ? [previous.refreshToken] : [])
        }
        headers.append('Set-Cookie', store.clearSessionCookie())
        await runLogoutListeners({
          sessionId: previous?.sid,
          sub: previous?.claims.sub,
          reason: 'silent_renewal_failed',
        })
        return redirect(tx.returnTo, headers)
      }
      return failure(headers, tx.errorPath, {
        detail: description ?? providerError,
        error: providerError,
        error_description: description,
        returnTo: tx.returnTo,
      })
    }

    const code = params.get('code')
    if (!code) {
      return failure(headers, tx.errorPath, {
        detail: 'There are no query params available for parsing.',
        error: 'invalid_request',
        returnTo: tx.returnTo,
      })
    }

    try {
      const client = await options.client()
      const tokens = await client.exchangeCode(code, tx.codeVerifier)
      if (!tokens.idToken) throw new IdTokenError('id_token', 'ID token is missing from the token response')
      const claims = await client.verifyIdToken(tokens.idToken, {
        nonce: tx.nonce,
        maxAge: tx.maxAge,
        now: clock(),
      })
      const account = await options.accountOf?.(claims.sub)
      if (account === 'suspended') {
        await securityEvent(request, {
          action: 'sign_in_refused',
          sub: claims.sub,
          email: typeof claims.email === 'string' ? claims.email : undefined,
        })
        headers.append(
          'Set-Cookie',
          store.flashCookie({
            type: 'error',
            message: ACCOUNT_SUSPENDED_MESSAGE,
            error: 'account_suspended',
            returnTo: tx.returnTo,
          }),
        )
        return redirect('/', headers)
      }
      const now = clock()
      // A new login in this browser replaces its previous session (a re-login, a silent renewal round trip).
      const previous = await store.readSession(request, now)
      if (await needsFreshSignIn(claims, previous, now)) {
        // A silent round trip stays silent: no session, back where it was (as when the provider has none).
        if (tx.prompt === 'none') return redirect(tx.returnTo, headers)
        // The provider signed them in by its own session, which may be on a device they logged out: once more,
        // with their password (prompt=login), back to the same page. max_age=0 is what the callback relies on: the
        // browser carries the request and can drop prompt=login, but the transaction keeps max_age, and the ID
        // token must then show an authentication of this very moment.
        return startLogin(headers, {
          returnTo: tx.returnTo,
          errorPath: tx.errorPath,
          prompt: 'login',
          maxAge: 0,
        })
      }
      const session: SessionData = {
        sid: newSessionId(),
        accessToken: tokens.accessToken,
        accessTokenExpiresAt: tokens.accessTokenExpiresAt,
        refreshToken: tokens.refreshToken,
        claims: pickSessionClaims(claims),
        checkedAt: now,
        createdAt: now,
      }
      if (previous) await store.deleteSession(previous.sid)
      headers.append(
        'Set-Cookie',
        await store.sessionCookie(session, request.headers.get('user-agent') ?? ''),
      )
      await securityEvent(request, {
        action: 'sign_in',
        sub: session.claims.sub,
        email: session.claims.email,
        nickname: session.claims.nickname,
      })
      // Spec §4's sort applies wherever a sign-in ends: someone without a profile goes through the top page, which
      // sends them on to the registration step that fits (not for a silent renewal, which must stay invisible).
      const landing = account === 'unregistered' && tx.prompt !== 'none' ? '/' : tx.returnTo
      return redirect(landing, headers)
    } catch (error) {
      if (!options.quiet) console.warn(`[auth] login failed: ${describeError(error)}`)
      const oauthError = error instanceof OidcRequestError ? error : undefined
      return failure(headers, tx.errorPath, {
        detail: describeError(error),
        error: oauthError?.code ?? (error instanceof IdTokenError ? 'invalid_id_token' : 'server_error'),
        error_description: oauthError?.description,
        returnTo: tx.returnTo,
      })
    }
  }

  /**
   * Whether this sign-in must be repeated with a password (docs/decisions/0037): the member logged their other
   * devices out after the provider last authenticated them, and this browser holds no live session of theirs (a
   * device that kept its session, the one that logged the others out included, renews as before). Without
   * `auth_time` in the ID token the moment cannot be told, so a revocation of the last REAUTH_WINDOW_MS counts
   * (the forced round trip sends max_age=0, with which every provider must send `auth_time`). What the site
   * asked for (prompt=login) is not trusted: the browser can drop it from the request; only `auth_time` is.
   */
  async function needsFreshSignIn(
    claims: { sub: string; auth_time?: unknown },
    previous: SessionData | undefined,
    now: number,
  ): Promise<boolean> {
    if (previous?.claims.sub === claims.sub) return false
    const revokedAt = await store.signInRevokedAt(claims.sub)
    if (revokedAt === undefined) return false
    const authTime = typeof claims.auth_time === 'number' ? claims.auth_time * 1000 : undefined
    // auth_time is in whole seconds: one in the very second of the revocation counts as before it (asked again).
    if (authTime !== undefined) return authTime <= revokedAt
    return now - revokedAt < REAUTH_WINDOW_MS
  }

  /** Revokes refresh tokens at the provider; a failure is logged and never blocks a logout. */
  async function revokeAll(refreshTokens: string[]) {
    if (refreshTokens.length === 0) return
    try {
      const client = await options.client()
      await Promise.all(refreshTokens.map((token) => client.revoke(token)))
    } catch (error) {
      if (!options.quiet) console.warn(`[auth] refresh token revocation failed: ${describeError(error)}`)
    }
  }

  /**
   * POST /auth/logout (CSRF-checked by the app's middleware): deletes the session everywhere, revokes its refresh
   * token at the provider, clears the cookie, then ends the provider session and returns to the site.
   */
  async function handleLogout(request: Request): Promise<Response> {
    let session: SessionData | undefined
    try {
      session = await store.readSession(request, clock())
      if (session) await store.deleteSession(session.sid)
    } catch (error) {
      // The session's row could not be ended: the cookie stays, so that trying again does end it (0016).
      return sessionStoreUnavailable('ログアウトできませんでした', error, LOGOUT_FORM)
    }
    if (session) {
      await revokeAll(session.refreshToken ? [session.refreshToken] : [])
      await securityEvent(request, {
        action: 'logout',
        sub: session.claims.sub,
        email: session.claims.email,
        nickname: session.claims.nickname,
      })
    }
    await runLogoutListeners({ sessionId: session?.sid, sub: session?.claims.sub, reason: 'logout' })
    const headers = new Headers()
    // Essential cookie last: see the note on cookie order in createAuthFlow.
    headers.append('Set-Cookie', store.clearTransactionCookie())
    headers.append('Set-Cookie', store.clearSessionCookie())
    try {
      const client = await options.client()
      return redirect(client.logoutUrl(siteOrigin).href, headers)
    } catch {
      return redirect('/', headers)
    }
  }

  /**
   * The session store (the database) away while a session was to end: 503 with Retry-After and a page that says so
   * in Japanese, never the server's bare 500. `headers` may carry the clearing of the transaction cookie.
   */
  function sessionStoreUnavailable(heading: string, error: unknown, action: string, headers = new Headers()) {
    if (!options.quiet) console.error(`[auth] the session store is unavailable: ${describeError(error)}`)
    headers.set('content-type', 'text/html; charset=utf-8')
    headers.set('cache-control', 'no-store')
    headers.set('retry-after', String(DATABASE_RETRY_AFTER_S))
    const html = `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${heading}</title></head><body><main><h1>${heading}</h1><p>サーバーに接続できませんでした。しばらくしてからもう一度お試しください。</p>${action}</main></body></html>`
    return new Response(html, { status: 503, headers })
  }

  /** GET /auth/logout changes nothing (a link or an image must not sign anyone out): it asks first. */
  function logoutConfirmation(): Response {
    const html = `<!doctype html><html lang="ja"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>ログアウト</title></head><body><main><h1>ログアウトしますか？</h1><form method="post" action="/auth/logout"><button type="submit">ログアウト</button></form><p><a href="/">トップページへ戻る</a></p></main></body></html>`
    return new Response(html, {
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
    })
  }

  /** Logs out the member's other sessions (or one of them, by row id) and revokes their refresh tokens. */
  async function endSessions(request: Request, target: 'others' | { id: string }) {
    const session = await store.readSession(request, clock())
    if (!session) return undefined
    // Their provider sessions stay (its single sign-on, on those devices too): a sign-in there from now on must
    // authenticate afresh (needsFreshSignIn). Recorded before the sessions go and the tokens are revoked (which
    // may wait on the provider for long): a sign-in on a lost device in between would pass by single sign-on and
    // keep its session. (One device: recorded once it is known to be theirs and gone.)
    if (target === 'others') await store.recordSignInRevocation(session.claims.sub, clock())
    const result = await store.deleteSessionsOf(
      session.claims.sub,
      target === 'others' ? { allExcept: session.sid } : target,
    )
    try {
      if (target !== 'others' && result.deleted > 0)
        await store.recordSignInRevocation(session.claims.sub, clock())
    } finally {
      // The deleted rows were the only record of these tokens: revoked whatever happened above.
      await revokeAll(result.refreshTokens)
    }
    await securityEvent(request, {
      action: 'logout_others',
      sub: session.claims.sub,
      email: session.claims.email,
      nickname: session.claims.nickname,
      count: result.deleted,
    })
    return result.deleted
  }

  function view(session: SessionData, setCookie: string[], needsSilentRenewal = false): SessionAccessToken {
    return {
      accessToken: session.accessToken,
      expiresAt: session.accessTokenExpiresAt,
      claims: session.claims,
      sessionId: session.sid,
      needsSilentRenewal,
      setCookie,
    }
  }

  /**
   * The session's access token, renewed with the refresh token when it expires within 60 s. undefined when
   * signed out (no, expired or tampered session cookie; or a refresh refused with invalid_grant/login_required,
   * which also clears the cookie — see onSetCookie).
   */
  async function getSessionAccessToken(
    request: Request,
    opts: GetSessionAccessTokenOptions = {},
  ): Promise<SessionAccessToken | undefined> {
    const now = opts.now ?? clock()
    const setCookie: string[] = []
    const emit = (header: string) => {
      setCookie.push(header)
      opts.onSetCookie?.(header)
    }
    const session = await store.readSession(request, now)
    if (!session) {
      if (store.hasSessionCookie(request)) emit(store.clearSessionCookie())
      return undefined
    }
    if (session.accessTokenExpiresAt - now > TOKEN_RENEWAL_MARGIN_MS) return view(session, setCookie)
    if (!session.refreshToken) return view(session, setCookie, true)

    try {
      const client = await options.client()
      const tokens = await renew(client, session.refreshToken)
      let claims = session.claims
      if (tokens.idToken) {
        // A refreshed ID token carries current claims (e.g. email_verified after the confirmation link). One that
        // cannot be checked now (its keys out of reach) keeps the claims as they were: the refresh token is spent
        // (they rotate), so the new tokens must be stored whatever happens to the ID token.
        try {
          const refreshed = await client.verifyIdToken(tokens.idToken, { now })
          if (refreshed.sub === session.claims.sub) claims = pickSessionClaims(refreshed)
        } catch (error) {
          if (!options.quiet) console.warn(`[auth] refreshed ID token not checked: ${describeError(error)}`)
        }
      }
      const renewed: SessionData = {
        ...session,
        accessToken: tokens.accessToken,
        accessTokenExpiresAt: tokens.accessTokenExpiresAt,
        refreshToken: tokens.refreshToken ?? session.refreshToken,
        claims,
        checkedAt: now,
      }
      const cookie = await store.renewedSessionCookie(renewed)
      if (cookie === undefined) {
        // Logged out while the provider answered (here, or 「この端末以外からログアウト」 elsewhere): the request that
        // was renewing must not act with the fresh token after the logout, and the refresh token the provider just
        // issued, held by nobody now, is revoked.
        if (tokens.refreshToken) await revokeAll([tokens.refreshToken])
        emit(store.clearSessionCookie())
        await runLogoutListeners({ sessionId: session.sid, sub: session.claims.sub, reason: 'logout' })
        return undefined
      }
      emit(cookie)
      return view(renewed, setCookie)
    } catch (error) {
      if (error instanceof OidcRequestError && SESSION_ENDING_ERRORS.has(error.code)) {
        // Another instance may be renewing this session with the same token (refresh tokens rotate, so ours was
        // refused): wait briefly for what it stores, and never delete a row it has renewed.
        const current = await renewedElsewhere(session, now)
        if (current) return view(current, setCookie)
        if (!(await store.deleteSessionIfRefreshToken(session.sid, session.refreshToken))) {
          // Renewed just after the wait ended: still use it.
          const late = await store.loadSession(session.sid, now)
          if (late) return view(late, setCookie)
        }
        emit(store.clearSessionCookie())
        await runLogoutListeners({
          sessionId: session.sid,
          sub: session.claims.sub,
          reason: 'renewal_refused',
        })
        return undefined
      }
      // A transient failure (network, time-out, 5xx) keeps the session; the next request tries again.
      if (!options.quiet) console.warn(`[auth] access token renewal failed: ${describeError(error)}`)
      return view(session, setCookie)
    }
  }

  /** The signed-in user's claims without touching tokens (undefined when signed out). */
  async function getSessionClaims(request: Request): Promise<SessionClaims | undefined> {
    return (await store.readSession(request, clock()))?.claims
  }

  return {
    handleLogin,
    handleCallback,
    handleLogout,
    logoutConfirmation,
    endSessions,
    getSessionAccessToken,
    getSessionClaims,
  }
}

let defaultFlow: AuthFlow | undefined

/** The flow for this process, from getConfig(). */
export function getAuthFlow(): AuthFlow {
  defaultFlow ??= createAuthFlow({
    siteOrigin: getConfig().siteOrigin,
    store: getSessionStore(),
    client: getOidcClient,
    onSecurityEvent: recordSecurityEvent,
    accountOf,
  })
  return defaultFlow
}

export const handleLogin = (request: Request) => getAuthFlow().handleLogin(request)
export const handleCallback = (request: Request) => getAuthFlow().handleCallback(request)
export const handleLogout = (request: Request) => getAuthFlow().handleLogout(request)
export const logoutConfirmation = () => getAuthFlow().logoutConfirmation()
export const getSessionAccessToken = (request: Request, opts?: GetSessionAccessTokenOptions) =>
  getAuthFlow().getSessionAccessToken(request, opts)
export const getSessionClaims = (request: Request) => getAuthFlow().getSessionClaims(request)

/** Whether the subject (at this site's provider) has a profile, and whether an operator suspended it. */
async function accountOf(sub: string): Promise<AccountState> {
  const [{ getDb }, { users }, { and, eq }] = await Promise.all([
    import('../../db/client'),
    import('../../db/schema'),
    import('drizzle-orm'),
  ])
  const db = await getDb()
  const [row] = await db
    .select({ suspendedAt: users.suspendedAt })
    .from(users)
    .where(and(eq(users.issuer, getSessionStore().issuer), eq(users.sub, sub)))
    .limit(1)
  if (!row) return 'unregistered'
  return row.suspendedAt ? 'suspended' : 'registered'
}

/** The app's audit log for the flow's security events (the member's users.id when they have registered). */
async function recordSecurityEvent(event: SecurityEvent) {
  const [{ getDb }, { audit }, { users }, { and, eq }] = await Promise.all([
    import('../../db/client'),
    import('../../db/audit'),
    import('../../db/schema'),
    import('drizzle-orm'),
  ])
  const db = await getDb()
  const issuer = getSessionStore().issuer
  const [user] = await db
    .select({ id: users.id, nickname: users.nickname })
    .from(users)
    .where(and(eq(users.issuer, issuer), eq(users.sub, event.sub)))
    .limit(1)
  await audit(db, {
    actorId: user?.id ?? null,
    actorLabel: `${user?.nickname ?? event.nickname ?? ''}（${event.email ?? event.sub}）`,
    action: event.action,
    targetType: 'user',
    targetId: user?.id ?? event.sub,
    address: event.address,
    after: event.count === undefined ? undefined : { sessions_ended: event.count },
  })
}
