import '@tanstack/react-start/server-only'
import { createHash, hkdfSync, randomBytes } from 'node:crypto'
import { and, eq, lt, ne, sql } from 'drizzle-orm'
import { EncryptJWT, jwtDecrypt } from 'jose'
import type { Db } from '../../db/client'
import { sessions, signInRevocations } from '../../db/schema'
import { getConfig } from '../config'
import { type CookieOptions, getCookie, serializeCookie } from './cookies.server'
import { resolveSessionSecret } from './secret.server'

/**
 * Server-side sessions (docs/decisions/0016). The session cookie (HttpOnly) carries only an opaque random id; the
 * session is a row of `sessions`, keyed by the id's SHA-256, with the tokens encrypted at rest (JWE, dir +
 * A256GCM, key derived from SESSION_SECRET). Every request reads the row, so deleting it (logout, "log out
 * elsewhere") ends the session at once on every instance. A second, short-lived encrypted cookie carries the
 * login transaction (state, nonce, PKCE verifier, returnTo) from /auth/login to /auth/callback.
 */

/** The ID token claims the app needs. */
export interface SessionClaims {
  sub: string
  email?: string
  email_verified?: boolean
  name?: string
  nickname?: string
  picture?: string
}

export interface SessionData {
  /** New on every login. */
  sid: string
  accessToken: string
  /** Epoch milliseconds. */
  accessTokenExpiresAt: number
  refreshToken?: string
  claims: SessionClaims
  /** Epoch ms of the last successful login or renewal; the session expires one day after it (spec §9). */
  checkedAt: number
  /** Epoch ms of the login. */
  createdAt: number
}

export interface AuthTransaction {
  state: string
  nonce: string
  codeVerifier: string
  /** Same-origin path to return to after login. */
  returnTo: string
  /** Same-origin path to land on when the login fails. */
  errorPath: string
  /** 'none' for a silent renewal round trip. */
  prompt?: string
  maxAge?: number
  createdAt: number
}

export interface FlashMessage {
  type: 'error' | 'info'
  message: string
  detail?: string
  error?: string
  error_description?: string
  returnTo?: string
}

/** Session check expiry (spec §9: 1 day). */
export const SESSION_CHECK_EXPIRY_MS = 24 * 60 * 60 * 1000
/**
 * The login transaction cookie lives as long as the provider's sign-in page (its interaction, 60 minutes): a
 * parent who signs up and reads the confirmation mail before pressing 「まなびのたねへ進む」 still lands signed in,
 * not on 「ログインできませんでした」 (Invalid state).
 */
export const TRANSACTION_MAX_AGE_S = 60 * 60
/** The flash cookie only has to survive one redirect. */
export const FLASH_MAX_AGE_S = 60
/** Readable by the app's JavaScript (not HttpOnly): JSON of FlashMessage, URI-encoded. */
export const FLASH_COOKIE = 'manabi_flash'

/** The transaction cookie is only ever needed by the callback, so it is not sent anywhere else. */
export const TRANSACTION_COOKIE_PATH = '/auth/callback'

export function authCookieNames(isProduction: boolean) {
  return isProduction
    ? { session: '__Host-manabi_session', transaction: '__Secure-manabi_auth_tx', flash: FLASH_COOKIE }
    : { session: 'manabi_session', transaction: 'manabi_auth_tx', flash: FLASH_COOKIE }
}

/** The cookie's value: 256 random bits. */
export function newSessionId(): string {
  return randomBytes(32).toString('base64url')
}

/** The row key of a session id: a leaked table gives no usable cookie. */
export function sessionRowId(sid: string): string {
  return createHash('sha256').update(sid).digest('base64url')
}

/** last_seen_at is written at most this often per session. */
export const LAST_SEEN_RESOLUTION_MS = 60_000

/** A member's session as the sessions page shows it. */
export interface SessionSummary {
  /** The row id (not the cookie). */
  id: string
  userAgent: string
  createdAt: Date
  lastSeenAt: Date
  current: boolean
}

function deriveKey(secret: string, purpose: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'manabi-no-tane', purpose, 32))
}

const JWE_HEADER = { alg: 'dir', enc: 'A256GCM' } as const
const DECRYPT_OPTIONS = { keyManagementAlgorithms: ['dir'], contentEncryptionAlgorithms: ['A256GCM'] }

export interface SessionStoreOptions {
  secret: string
  isProduction: boolean
  /** Clock in ms (tests). */
  now?: () => number
  /** Where sessions live (default: the app's database). */
  getDb?: () => Promise<Db>
  /** The identity provider's issuer, stored with each session. */
  issuer?: string
}

export type SessionStore = ReturnType<typeof createSessionStore>

export function createSessionStore(options: SessionStoreOptions) {
  if (!options.secret || options.secret.length < 32) {
    throw new Error('The session secret must be at least 32 characters')
  }
  const names = authCookieNames(options.isProduction)
  const sessionKey = deriveKey(options.secret, 'session cookie v1')
  const transactionKey = deriveKey(options.secret, 'auth transaction cookie v1')
  const clock = options.now ?? Date.now
  const base: CookieOptions = { path: '/', httpOnly: true, secure: options.isProduction, sameSite: 'Lax' }

  async function seal(
    payload: Record<string, unknown>,
    key: Uint8Array,
    expiresAtMs: number,
    purpose: string,
  ) {
    return new EncryptJWT({ ...payload, pur: purpose })
      .setProtectedHeader(JWE_HEADER)
      .setIssuedAt(Math.floor(clock() / 1000))
      .setExpirationTime(Math.floor(expiresAtMs / 1000))
      .encrypt(key)
  }

  async function open(value: string | undefined, key: Uint8Array, purpose: string, now: number) {
    if (!value) return undefined
    try {
      const { payload } = await jwtDecrypt(value, key, { ...DECRYPT_OPTIONS, currentDate: new Date(now) })
      if (payload.pur !== purpose) return undefined
      const { pur: _pur, iat: _iat, exp: _exp, ...rest } = payload
      return rest as Record<string, unknown>
    } catch {
      // Tampered, encrypted with another secret, expired or malformed: no session.
      return undefined
    }
  }

  const getDb = options.getDb ?? (async () => (await import('../../db/client')).getDb())
  const issuer = options.issuer ?? ''

  interface StoredTokens {
    accessToken: string
    refreshToken?: string
  }

  async function sealTokens(tokens: StoredTokens, expiresAtMs: number): Promise<string> {
    return seal({ ...tokens }, sessionKey, expiresAtMs, 'session tokens')
  }

  async function openTokens(value: string, now: number): Promise<StoredTokens | undefined> {
    const payload = await open(value, sessionKey, 'session tokens', now)
    return typeof payload?.accessToken === 'string' ? (payload as unknown as StoredTokens) : undefined
  }

  /**
   * Writes a session row: a new login inserts it (with the browser's user agent); renewed tokens only update an
   * existing row, so that a renewal racing a logout on another instance cannot bring the session back. False when
   * there was no row to update.
   */
  async function saveSession(data: SessionData, userAgent?: string): Promise<boolean> {
    const db = await getDb()
    const expiresAt = new Date(data.checkedAt + SESSION_CHECK_EXPIRY_MS)
    const tokens = await sealTokens(
      { accessToken: data.accessToken, refreshToken: data.refreshToken },
      expiresAt.getTime(),
    )
    const now = new Date(clock())
    const changes = {
      claims: data.claims,
      tokens,
      accessTokenExpiresAt: new Date(data.accessTokenExpiresAt),
      lastSeenAt: now,
      expiresAt,
    }
    if (userAgent === undefined) {
      const updated = await db
        .update(sessions)
        .set(changes)
        .where(eq(sessions.id, sessionRowId(data.sid)))
        .returning({ id: sessions.id })
      return updated.length > 0
    }
    await db.insert(sessions).values({
      id: sessionRowId(data.sid),
      issuer,
      sub: data.claims.sub,
      userAgent: userAgent.slice(0, 512),
      createdAt: new Date(data.createdAt),
      ...changes,
    })
    return true
  }

  /** The Set-Cookie header of a stored session: it lasts as long as the session may go unchecked. */
  function liveCookie(data: SessionData): string {
    const maxAge = Math.max(0, Math.floor((data.checkedAt + SESSION_CHECK_EXPIRY_MS - clock()) / 1000))
    return serializeCookie(names.session, data.sid, { ...base, maxAge })
  }

  /** The session of a cookie value; undefined when there is none, it was deleted, or it is past its day. */
  async function loadSession(sid: string | undefined, now = clock()): Promise<SessionData | undefined> {
    if (!sid || sid.length > 200) return undefined
    const db = await getDb()
    const [row] = await db
      .select()
      .from(sessions)
      .where(eq(sessions.id, sessionRowId(sid)))
      .limit(1)
    if (!row || row.expiresAt.getTime() <= now) return undefined
    const tokens = await openTokens(row.tokens, now)
    if (!tokens) return undefined
    if (now - row.lastSeenAt.getTime() > LAST_SEEN_RESOLUTION_MS) {
      void db
        .update(sessions)
        .set({ lastSeenAt: new Date(now) })
        .where(eq(sessions.id, row.id))
        .catch(() => {})
    }
    return {
      sid,
      accessToken: tokens.accessToken,
      accessTokenExpiresAt: row.accessTokenExpiresAt.getTime(),
      refreshToken: tokens.refreshToken,
      claims: row.claims as SessionClaims,
      checkedAt: row.expiresAt.getTime() - SESSION_CHECK_EXPIRY_MS,
      createdAt: row.createdAt.getTime(),
    }
  }

  return {
    names,
    /** The identity provider's issuer this store's sessions belong to. */
    issuer,

    /** The session of a cookie value (the opaque id), read from the database. */
    loadSession,

    async readSession(request: Request, now = clock()): Promise<SessionData | undefined> {
      return loadSession(getCookie(request, names.session), now)
    },

    hasSessionCookie(request: Request): boolean {
      return getCookie(request, names.session) !== undefined
    },

    /**
     * Stores a new login's session and returns its Set-Cookie header (renewed tokens: renewedSessionCookie). It also
     * removes expired sessions, so the table does not grow forever.
     */
    async sessionCookie(data: SessionData, userAgent: string): Promise<string> {
      await saveSession(data, userAgent)
      const db = await getDb()
      await db
        .delete(sessions)
        .where(lt(sessions.expiresAt, new Date(clock())))
        .catch(() => {})
      return liveCookie(data)
    },

    /**
     * Stores a session's renewed tokens and returns its Set-Cookie header; undefined when its row went meanwhile
     * (logged out on this device or from another one while the provider answered): the session has ended.
     */
    async renewedSessionCookie(data: SessionData): Promise<string | undefined> {
      return (await saveSession(data)) ? liveCookie(data) : undefined
    },

    clearSessionCookie(): string {
      return serializeCookie(names.session, '', { ...base, maxAge: 0 })
    },

    /** Ends one session everywhere (its row goes). */
    async deleteSession(sid: string): Promise<void> {
      const db = await getDb()
      await db.delete(sessions).where(eq(sessions.id, sessionRowId(sid)))
    },

    /**
     * Ends a session only while its row still holds `refreshToken` (a refused renewal): tokens another instance
     * stored meanwhile are never deleted. True when the row went.
     */
    async deleteSessionIfRefreshToken(sid: string, refreshToken: string | undefined): Promise<boolean> {
      const db = await getDb()
      const id = sessionRowId(sid)
      const [row] = await db
        .select({ tokens: sessions.tokens })
        .from(sessions)
        .where(eq(sessions.id, id))
        .limit(1)
      if (!row) return false
      const tokens = await openTokens(row.tokens, clock())
      if (tokens && tokens.refreshToken !== refreshToken) return false
      // Compare-and-delete on the sealed value: every save seals afresh (random IV), so a save in between misses.
      const deleted = await db
        .delete(sessions)
        .where(and(eq(sessions.id, id), eq(sessions.tokens, row.tokens)))
        .returning({ id: sessions.id })
      return deleted.length > 0
    },

    /** The member's live sessions, newest use first; `current` marks the one of this cookie. */
    async listSessions(sub: string, currentSid?: string): Promise<SessionSummary[]> {
      const db = await getDb()
      const rows = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.issuer, issuer), eq(sessions.sub, sub)))
      const currentId = currentSid ? sessionRowId(currentSid) : undefined
      return rows
        .filter((r) => r.expiresAt.getTime() > clock())
        .sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())
        .map((r) => ({
          id: r.id,
          userAgent: r.userAgent,
          createdAt: r.createdAt,
          lastSeenAt: r.lastSeenAt,
          current: r.id === currentId,
        }))
    },

    /**
     * Deletes the member's sessions: one by row id, or every one but the current. Returns the refresh tokens of
     * the deleted sessions (to revoke at the provider). Another member's row id deletes nothing.
     */
    async deleteSessionsOf(
      sub: string,
      target: { id: string } | { allExcept: string },
    ): Promise<{ deleted: number; refreshTokens: string[] }> {
      const db = await getDb()
      const mine = and(eq(sessions.issuer, issuer), eq(sessions.sub, sub))
      const where =
        'id' in target
          ? and(mine, eq(sessions.id, target.id))
          : and(mine, ne(sessions.id, sessionRowId(target.allExcept)))
      const rows = await db.delete(sessions).where(where).returning({ tokens: sessions.tokens })
      const refreshTokens: string[] = []
      for (const row of rows) {
        const tokens = await openTokens(row.tokens, clock())
        if (tokens?.refreshToken) refreshTokens.push(tokens.refreshToken)
      }
      return { deleted: rows.length, refreshTokens }
    },

    /** Records that the member's other devices were logged out at `at` (the latest such moment is kept). */
    async recordSignInRevocation(sub: string, at: number): Promise<void> {
      const db = await getDb()
      await db
        .insert(signInRevocations)
        .values({ issuer, sub, revokedAt: new Date(at) })
        .onConflictDoUpdate({
          target: [signInRevocations.issuer, signInRevocations.sub],
          set: { revokedAt: sql`greatest(${signInRevocations.revokedAt}, excluded.revoked_at)` },
        })
    },

    /** When the member last logged their other devices out, if they ever did. */
    async signInRevokedAt(sub: string): Promise<number | undefined> {
      const db = await getDb()
      const [row] = await db
        .select({ at: signInRevocations.revokedAt })
        .from(signInRevocations)
        .where(and(eq(signInRevocations.issuer, issuer), eq(signInRevocations.sub, sub)))
      return row?.at.getTime()
    },

    async transactionCookie(tx: AuthTransaction): Promise<string> {
      const value = await seal({ ...tx }, transactionKey, tx.createdAt + TRANSACTION_MAX_AGE_S * 1000, 'tx')
      return serializeCookie(names.transaction, value, {
        ...base,
        path: TRANSACTION_COOKIE_PATH,
        maxAge: TRANSACTION_MAX_AGE_S,
      })
    },

    async readTransaction(request: Request, now = clock()): Promise<AuthTransaction | undefined> {
      const payload = await open(getCookie(request, names.transaction), transactionKey, 'tx', now)
      if (!payload || typeof payload.state !== 'string' || typeof payload.codeVerifier !== 'string')
        return undefined
      return payload as unknown as AuthTransaction
    },

    clearTransactionCookie(): string {
      return serializeCookie(names.transaction, '', { ...base, path: TRANSACTION_COOKIE_PATH, maxAge: 0 })
    },

    flashCookie(flash: FlashMessage): string {
      return serializeCookie(names.flash, JSON.stringify(flash), {
        path: '/',
        httpOnly: false,
        secure: options.isProduction,
        sameSite: 'Lax',
        maxAge: FLASH_MAX_AGE_S,
      })
    },

    clearFlashCookie(): string {
      return serializeCookie(names.flash, '', {
        path: '/',
        secure: options.isProduction,
        sameSite: 'Lax',
        maxAge: 0,
      })
    },
  }
}

/** Reads the flash message (for the app: show it once as a snackbar, then clear the cookie). */
export function readFlash(request: Request): FlashMessage | undefined {
  const raw = getCookie(request, FLASH_COOKIE)
  if (!raw) return undefined
  try {
    const value = JSON.parse(raw) as FlashMessage
    return typeof value?.message === 'string' ? value : undefined
  } catch {
    return undefined
  }
}

let defaultStore: SessionStore | undefined

/** The session store for this process, from getConfig() (generates the dev secret into DATA_DIR when unset). */
export function getSessionStore(): SessionStore {
  if (!defaultStore) {
    const config = getConfig()
    defaultStore = createSessionStore({
      secret: resolveSessionSecret(config),
      issuer: config.auth0 ? `https://${config.auth0.domain}/` : `${config.siteOrigin}/idp`,
      // Secure + __Host- whenever served over https (a plain-http demo of the production build still works).
      isProduction: config.secureCookies,
    })
  }
  return defaultStore
}

/**
 * Call once at server start: throws in production when SESSION_SECRET is unset, and creates the development
 * secret file otherwise, so a misconfiguration stops the process before the first request.
 */
export function assertSessionSecret(): void {
  resolveSessionSecret(getConfig())
}
