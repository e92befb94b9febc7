import '@tanstack/react-start/server-only'
import { and, eq } from 'drizzle-orm'
import type { MiddlewareHandler } from 'hono'
import { type JWTPayload, type JWTVerifyGetKey, jwtVerify } from 'jose'
import type { Db } from '../db/client'
import { users } from '../db/schema'
import { ApiError } from './errors'

/** How access tokens are checked: the identity provider's issuer, the API audience and its signing keys. */
export interface AccessTokenVerifierOptions {
  issuer: string
  audience: string
  jwks: JWTVerifyGetKey
}

export type AuthConfigSource = () =>
  | AccessTokenVerifierOptions
  | undefined
  | Promise<AccessTokenVerifierOptions | undefined>

let defaultVerifier: AccessTokenVerifierOptions | undefined

/** Set by the identity layer once it knows the issuer and keys; the default `apiApp` reads it on every call. */
export function setAccessTokenVerifier(options: AccessTokenVerifierOptions | undefined): void {
  defaultVerifier = options
}

export const defaultAuthSource: AuthConfigSource = () => defaultVerifier

export interface TokenClaims extends JWTPayload {
  iss: string
  sub: string
  email?: string
  email_verified?: boolean
}

export type UserRow = typeof users.$inferSelect

/** How the audit log names the member who acted: nickname and address (or subject). */
export const actorLabel = (u: UserRow) => `${u.nickname}（${u.email ?? u.sub}）`

export type AuthVariables = {
  claims: TokenClaims
  user: UserRow
}

const MAX_TOKEN_LENGTH = 8192

function unauthorized(message: string, invalidToken: boolean): ApiError {
  const header = invalidToken ? 'Bearer realm="v1", error="invalid_token"' : 'Bearer realm="v1"'
  return new ApiError(401, 'unauthorized', message, { wwwAuthenticate: header })
}

/** Verifies the bearer access token (RS256, issuer, audience, 60 s clock leeway) and returns its claims. */
export async function verifyAccessToken(
  authorization: string | undefined,
  source: AuthConfigSource,
): Promise<TokenClaims> {
  const options = await source()
  if (!options) {
    throw new ApiError(503, 'auth_unconfigured', '認証の設定が完了していないため、ただいま利用できません')
  }
  const token = bearerToken(authorization)
  if (!token) throw unauthorized('ログインが必要です', false)
  if (token.length > MAX_TOKEN_LENGTH) throw unauthorized('アクセストークンが正しくありません', true)
  try {
    // `typ` is deliberately not pinned: the embedded provider issues `at+jwt`, Auth0 `JWT`.
    const { payload } = await jwtVerify(token, options.jwks, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: ['RS256'],
      clockTolerance: 60,
    })
    if (typeof payload.sub !== 'string' || payload.sub.length === 0 || typeof payload.iss !== 'string') {
      throw new Error('token without sub')
    }
    return payload as TokenClaims
  } catch {
    throw unauthorized('アクセストークンが正しくないか、有効期限が切れています', true)
  }
}

type Env = { Variables: AuthVariables }

/** Requires a valid access token; the caller may not have a profile yet (registration). */
export function requireToken(source: AuthConfigSource): MiddlewareHandler<Env> {
  return async (c, next) => {
    c.set('claims', await verifyAccessToken(c.req.header('authorization'), source))
    await next()
  }
}

export const UNREGISTERED_MESSAGE = 'プロフィールが登録されていません'
export const ACCOUNT_SUSPENDED_MESSAGE = 'このアカウントは利用を停止しています'

/** Requires a valid access token of a user who has registered a profile; 404 `unregistered` otherwise. */
export function requireUser(source: AuthConfigSource, getDb: () => Promise<Db>): MiddlewareHandler<Env> {
  return async (c, next) => {
    const claims = await verifyAccessToken(c.req.header('authorization'), source)
    const db = await getDb()
    const [user] = await db
      .select()
      .from(users)
      .where(and(eq(users.issuer, claims.iss), eq(users.sub, claims.sub)))
      .limit(1)
    if (!user) throw new ApiError(404, 'unregistered', UNREGISTERED_MESSAGE)
    // A suspended account's tokens stop working at once, whoever holds them (issue 15).
    if (user.suspendedAt) throw new ApiError(403, 'account_suspended', ACCOUNT_SUSPENDED_MESSAGE)
    c.set('claims', claims)
    c.set('user', user)
    await next()
  }
}

/**
 * A public route that answers a little more to a member (e.g. which reviews they may reply to). A valid token of a
 * registered, active member sets `user`; anything else — no token, an expired or bad one, no profile yet, a
 * suspended account — reads the route as a visitor: a public page never fails because of who asks.
 */
export function optionalUser(source: AuthConfigSource, getDb: () => Promise<Db>): MiddlewareHandler<Env> {
  return async (c, next) => {
    const header = c.req.header('authorization')
    if (header) {
      const claims = await verifyAccessToken(header, source).catch(() => undefined)
      if (claims) {
        const [user] = await (await getDb())
          .select()
          .from(users)
          .where(and(eq(users.issuer, claims.iss), eq(users.sub, claims.sub)))
          .limit(1)
        if (user && !user.suspendedAt) {
          c.set('claims', claims)
          c.set('user', user)
        }
      }
    }
    await next()
  }
}

/**
 * An operator (運営) only: a visitor gets 401, any other member 404 (PRODUCT.md: private resources answer 404, so
 * /v1/admin cannot even be probed). The role is read from the database on every call, so a revoke takes effect
 * at once.
 */
export function requireOperator(source: AuthConfigSource, getDb: () => Promise<Db>): MiddlewareHandler<Env> {
  const member = requireUser(source, getDb)
  return async (c, next) =>
    member(c, async () => {
      if (!c.var.user.isOperator) throw new ApiError(404, 'not_found', 'お探しの情報が見つかりませんでした')
      await next()
    })
}

/**
 * One spelling of a token for counting it: a JWT's segments are base64url, whose decoders take '=' padding and a
 * last character with unused low bits (an RS256 signature verifies under 16 spellings of it, each with or without
 * '=='); each segment re-encoded from its bytes names the token once.
 */
export function canonicalToken(token: string): string {
  return token
    .split('.')
    .map((part) => Buffer.from(part.replace(/=+$/, ''), 'base64url').toString('base64url'))
    .join('.')
}

/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750 §2.1), or undefined. The scheme name is
 * case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` work like `Bearer`.
 */
export function bearerToken(authorization: string | undefined | null): string | undefined {
  return authorization?.match(/^Bearer +([A-Za-z0-9\-_.~+/]+=*)$/i)?.[1]
}
