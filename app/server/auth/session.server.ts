import '@tanstack/react-start/server-only'
import { hkdfSync, randomBytes } from 'node:crypto'
import { EncryptJWT, jwtDecrypt } from 'jose'
import { getConfig } from '../config'
import { type CookieOptions, getCookie, serializeCookie } from './cookies.server'
import { resolveSessionSecret } from './secret.server'

/**
 * The session lives in one encrypted cookie (JWE, dir + A256GCM, key derived from SESSION_SECRET): nothing is
 * stored server-side, and tokens never reach browser JavaScript (HttpOnly). A second, short-lived encrypted cookie
 * carries the login transaction (state, nonce, PKCE verifier, returnTo) from /auth/login to /auth/callback.
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
/** The login transaction cookie lives 10 minutes. */
export const TRANSACTION_MAX_AGE_S = 10 * 60
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

export function newSessionId(): string {
  return randomBytes(16).toString('base64url')
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

  function isSessionData(
    value: Record<string, unknown> | undefined,
  ): value is Record<string, unknown> & SessionData {
    if (!value) return false
    const claims = value.claims as SessionClaims | undefined
    return (
      typeof value.sid === 'string' &&
      typeof value.accessToken === 'string' &&
      typeof value.accessTokenExpiresAt === 'number' &&
      typeof value.checkedAt === 'number' &&
      typeof claims?.sub === 'string'
    )
  }

  async function sealSession(data: SessionData): Promise<string> {
    return seal({ ...data }, sessionKey, data.checkedAt + SESSION_CHECK_EXPIRY_MS, 'session')
  }

  async function openSession(value: string | undefined, now = clock()): Promise<SessionData | undefined> {
    const payload = await open(value, sessionKey, 'session', now)
    if (!isSessionData(payload)) return undefined
    if (now - payload.checkedAt > SESSION_CHECK_EXPIRY_MS) return undefined
    return payload
  }

  return {
    names,

    /** The session cookie value (a compact JWE). */
    sealSession,

    /** Decrypts a session cookie value; undefined when missing, tampered or past the 1-day session check. */
    openSession,

    async readSession(request: Request, now = clock()): Promise<SessionData | undefined> {
      return openSession(getCookie(request, names.session), now)
    },

    hasSessionCookie(request: Request): boolean {
      return getCookie(request, names.session) !== undefined
    },

    async sessionCookie(data: SessionData): Promise<string> {
      const maxAge = Math.max(0, Math.floor((data.checkedAt + SESSION_CHECK_EXPIRY_MS - clock()) / 1000))
      return serializeCookie(names.session, await sealSession(data), { ...base, maxAge })
    },

    clearSessionCookie(): string {
      return serializeCookie(names.session, '', { ...base, maxAge: 0 })
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
