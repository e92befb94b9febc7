import '@tanstack/react-start/server-only'
import {
  ArcticFetchError,
  CodeChallengeMethod,
  OAuth2Client,
  OAuth2RequestError,
  type OAuth2Tokens,
  UnexpectedErrorResponseBodyError,
  UnexpectedResponseError,
} from 'arctic'
import { createLocalJWKSet, createRemoteJWKSet, type JWTVerifyGetKey } from 'jose'
import { getIdentityProvider, type IdentityProvider } from '../../idp'
import { getConfig } from '../config'
import { type IdTokenClaims, verifyIdToken } from './id-token'

/**
 * The OpenID client: Auth0 (`https://${AUTH0_DOMAIN}/`) when configured, otherwise the embedded provider
 * (`${SITE_ORIGIN}/idp`). Both go through arctic's generic OAuth2Client with the endpoints of the issuer's discovery
 * document (arctic's Auth0 class hard-codes https, which the embedded provider on http://localhost is not).
 */

export const DEFAULT_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const
/** Identity request time-out (spec §9). */
export const IDENTITY_REQUEST_TIMEOUT_MS = 10_000
/** Token request attempts (spec §9: token retries 3). */
export const TOKEN_REQUEST_ATTEMPTS = 3

export interface OidcEndpoints {
  /** Browser-facing. */
  authorizationEndpoint: string
  /** Server-to-server. */
  tokenEndpoint: string
  jwksUri: string
  /** Browser-facing, Auth0 style: `?returnTo=&client_id=`. */
  logoutEndpoint: string
  /** Server-to-server (RFC 7009); default: the token endpoint's sibling `…/revoke` (Auth0 and the embedded one). */
  revocationEndpoint?: string
}

export interface OidcClientSettings {
  issuer: string
  clientId: string
  clientSecret: string
  redirectUri: string
  /** The API audience requested with every authorization. */
  audience: string
  scopes?: readonly string[]
  endpoints: OidcEndpoints
  /** Key resolver for ID tokens (and the API's access tokens). */
  jwks: JWTVerifyGetKey
  timeoutMs?: number
  attempts?: number
  /** Clock leeway for ID tokens, seconds (default 60). */
  leeway?: number
}

export interface TokenSet {
  accessToken: string
  /** Epoch milliseconds. */
  accessTokenExpiresAt: number
  refreshToken?: string
  idToken?: string
  scope?: string
}

export interface AuthorizationUrlInput {
  state: string
  codeVerifier: string
  nonce: string
  prompt?: string
  screenHint?: string
  loginHint?: string
  maxAge?: number
}

/**
 * A failed token request. `code` is the OAuth error (`invalid_grant`, `login_required`…) or one of
 * `timeout`, `network_error`, `server_error`, `invalid_response`.
 */
export class OidcRequestError extends Error {
  override name = 'OidcRequestError'
  readonly code: string
  readonly description?: string
  readonly status?: number
  readonly retryable: boolean
  constructor(
    code: string,
    options: { description?: string; status?: number; retryable?: boolean; cause?: unknown },
  ) {
    super(options.description ? `${code}: ${options.description}` : code, { cause: options.cause })
    this.code = code
    this.description = options.description
    this.status = options.status
    this.retryable = options.retryable ?? false
  }
}

export interface OidcClient {
  readonly settings: OidcClientSettings
  authorizationUrl(input: AuthorizationUrlInput): URL
  exchangeCode(code: string, codeVerifier: string): Promise<TokenSet>
  refresh(refreshToken: string): Promise<TokenSet>
  /** Revokes a refresh token at the provider (RFC 7009). */
  revoke(refreshToken: string): Promise<void>
  verifyIdToken(
    idToken: string,
    options?: { nonce?: string; maxAge?: number; now?: number },
  ): Promise<IdTokenClaims>
  /** Auth0's /v2/logout with returnTo and client_id. */
  logoutUrl(returnTo: string): URL
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function toOidcError(error: unknown): OidcRequestError {
  if (error instanceof OidcRequestError) return error
  if (error instanceof OAuth2RequestError) {
    return new OidcRequestError(error.code, { description: error.description ?? undefined, cause: error })
  }
  if (error instanceof ArcticFetchError) {
    return new OidcRequestError('network_error', {
      description: error.message,
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof UnexpectedResponseError) {
    const retryable = error.status >= 500 || error.status === 408 || error.status === 429
    return new OidcRequestError(retryable ? 'server_error' : 'invalid_response', {
      description: `token endpoint answered HTTP ${error.status}`,
      status: error.status,
      retryable,
      cause: error,
    })
  }
  if (error instanceof UnexpectedErrorResponseBodyError) {
    return new OidcRequestError('invalid_response', {
      description: `token endpoint answered HTTP ${error.status} without an OAuth error body`,
      status: error.status,
      cause: error,
    })
  }
  return new OidcRequestError('invalid_response', { description: (error as Error)?.message, cause: error })
}

/**
 * Runs a token request with a time-out per attempt, retrying network errors, time-outs and 5xx answers.
 * (arctic takes no AbortSignal, so a timed-out attempt is abandoned rather than aborted.)
 */
export async function withTimeoutAndRetry<T>(
  request: () => Promise<T>,
  { timeoutMs = IDENTITY_REQUEST_TIMEOUT_MS, attempts = TOKEN_REQUEST_ATTEMPTS } = {},
): Promise<T> {
  let last: OidcRequestError | undefined
  for (let attempt = 1; attempt <= attempts; attempt++) {
    let timer: NodeJS.Timeout | undefined
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new OidcRequestError('timeout', {
                description: `no answer within ${timeoutMs} ms`,
                retryable: true,
              }),
            ),
          timeoutMs,
        )
      })
      return await Promise.race([request(), timeout])
    } catch (error) {
      last = toOidcError(error)
      if (!last.retryable || attempt === attempts) throw last
      await sleep(100 * attempt)
    } finally {
      clearTimeout(timer)
    }
  }
  throw last ?? new OidcRequestError('invalid_response', {})
}

function toTokenSet(tokens: OAuth2Tokens, now = Date.now()): TokenSet {
  const data = tokens.data as Record<string, unknown>
  if (typeof data.access_token !== 'string') {
    throw new OidcRequestError('invalid_response', {
      description: 'access_token missing from the token response',
    })
  }
  const expiresIn = typeof data.expires_in === 'number' ? data.expires_in : Number(data.expires_in)
  return {
    accessToken: data.access_token,
    accessTokenExpiresAt: now + (Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : 3600) * 1000,
    refreshToken: typeof data.refresh_token === 'string' ? data.refresh_token : undefined,
    idToken: typeof data.id_token === 'string' ? data.id_token : undefined,
    scope: typeof data.scope === 'string' ? data.scope : undefined,
  }
}

export function createOidcClient(settings: OidcClientSettings): OidcClient {
  const oauth = new OAuth2Client(settings.clientId, settings.clientSecret, settings.redirectUri)
  const scopes = [...(settings.scopes ?? DEFAULT_SCOPES)]
  const retry = { timeoutMs: settings.timeoutMs, attempts: settings.attempts }

  return {
    settings,
    authorizationUrl(input) {
      const url = oauth.createAuthorizationURLWithPKCE(
        settings.endpoints.authorizationEndpoint,
        input.state,
        CodeChallengeMethod.S256,
        input.codeVerifier,
        scopes,
      )
      url.searchParams.set('nonce', input.nonce)
      url.searchParams.set('audience', settings.audience)
      if (input.prompt) url.searchParams.set('prompt', input.prompt)
      if (input.screenHint) url.searchParams.set('screen_hint', input.screenHint)
      if (input.loginHint) url.searchParams.set('login_hint', input.loginHint)
      if (input.maxAge !== undefined) url.searchParams.set('max_age', String(input.maxAge))
      return url
    },
    async exchangeCode(code, codeVerifier) {
      const tokens = await withTimeoutAndRetry(
        () => oauth.validateAuthorizationCode(settings.endpoints.tokenEndpoint, code, codeVerifier),
        retry,
      )
      return toTokenSet(tokens)
    },
    async refresh(refreshToken) {
      const tokens = await withTimeoutAndRetry(
        () => oauth.refreshAccessToken(settings.endpoints.tokenEndpoint, refreshToken, []),
        retry,
      )
      return toTokenSet(tokens)
    },
    async revoke(refreshToken) {
      const endpoint =
        settings.endpoints.revocationEndpoint ??
        settings.endpoints.tokenEndpoint.replace(/\/token$/, '/revoke')
      await withTimeoutAndRetry(() => oauth.revokeToken(endpoint, refreshToken), retry)
    },
    verifyIdToken(idToken, options = {}) {
      return verifyIdToken(idToken, {
        issuer: settings.issuer,
        clientId: settings.clientId,
        key: settings.jwks,
        nonce: options.nonce,
        maxAge: options.maxAge,
        leeway: settings.leeway,
        now: options.now,
      })
    },
    logoutUrl(returnTo) {
      const url = new URL(settings.endpoints.logoutEndpoint)
      url.searchParams.set('returnTo', returnTo)
      url.searchParams.set('client_id', settings.clientId)
      return url
    },
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Settings for this process

let backchannelOverride: string | undefined

/**
 * Where the server reaches the embedded provider's token endpoint (server to server). Default: the site origin when
 * it is a loopback address, otherwise http://127.0.0.1:$PORT, so that a public SITE_ORIGIN never makes the server
 * call itself through the internet. Call this when the server listens elsewhere.
 */
export function setEmbeddedIdpBackchannelOrigin(origin: string | undefined): void {
  backchannelOverride = origin?.replace(/\/+$/, '')
  cachedClient = undefined
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

function embeddedBackchannelOrigin(siteOrigin: string, port: number): string {
  if (backchannelOverride) return backchannelOverride
  const url = new URL(siteOrigin)
  return LOOPBACK.has(url.hostname) ? url.origin : `http://127.0.0.1:${port}`
}

/** Replaces the origin of `endpoint` with `origin`, keeping path and query. */
function onOrigin(endpoint: string, origin: string): string {
  const url = new URL(endpoint)
  return `${origin}${url.pathname}${url.search}`
}

/** Client settings for an embedded provider instance; `backchannelOrigin` is where the server reaches it. */
export function oidcSettingsForIdentityProvider(
  idp: Pick<IdentityProvider, 'discovery' | 'client' | 'audience' | 'publicJwks'>,
  backchannelOrigin?: string,
): OidcClientSettings {
  const discovery = idp.discovery()
  return {
    issuer: discovery.issuer,
    clientId: idp.client.clientId,
    clientSecret: idp.client.clientSecret,
    redirectUri: idp.client.redirectUri,
    audience: idp.audience,
    endpoints: {
      authorizationEndpoint: discovery.authorization_endpoint,
      tokenEndpoint: backchannelOrigin
        ? onOrigin(discovery.token_endpoint, backchannelOrigin)
        : discovery.token_endpoint,
      jwksUri: discovery.jwks_uri,
      logoutEndpoint: discovery.logout_endpoint,
    },
    jwks: createLocalJWKSet(idp.publicJwks()),
  }
}

/** Settings for this process's embedded provider (in-process discovery and keys). */
export function embeddedOidcSettings(): OidcClientSettings {
  const config = getConfig()
  return oidcSettingsForIdentityProvider(
    getIdentityProvider(),
    embeddedBackchannelOrigin(config.siteOrigin, config.port),
  )
}

interface DiscoveryDocument {
  issuer?: string
  authorization_endpoint?: string
  token_endpoint?: string
  jwks_uri?: string
}

export async function auth0OidcSettings(auth0: {
  domain: string
  clientId: string
  clientSecret: string
  audience: string
}): Promise<OidcClientSettings> {
  const issuer = `https://${auth0.domain}/`
  let discovery: DiscoveryDocument = {}
  try {
    discovery = await withTimeoutAndRetry(async () => {
      const response = await fetch(`${issuer}.well-known/openid-configuration`, {
        headers: { accept: 'application/json' },
      })
      if (!response.ok)
        throw new OidcRequestError('server_error', {
          status: response.status,
          retryable: response.status >= 500,
        })
      return (await response.json()) as DiscoveryDocument
    })
  } catch (error) {
    // Auth0's endpoints are well known; a discovery hiccup must not block sign-in.
    console.warn(
      `[auth] Auth0 discovery failed, using Auth0's standard endpoints: ${(error as Error).message}`,
    )
  }
  if (discovery.issuer && discovery.issuer !== issuer) {
    throw new Error(`Auth0 discovery issuer mismatch: expected ${issuer}, got ${discovery.issuer}`)
  }
  const jwksUri = discovery.jwks_uri ?? `${issuer}.well-known/jwks.json`
  return {
    issuer,
    clientId: auth0.clientId,
    clientSecret: auth0.clientSecret,
    redirectUri: `${getConfig().siteOrigin}/auth/callback`,
    audience: auth0.audience,
    endpoints: {
      authorizationEndpoint: discovery.authorization_endpoint ?? `${issuer}authorize`,
      tokenEndpoint: discovery.token_endpoint ?? `${issuer}oauth/token`,
      jwksUri,
      logoutEndpoint: `${issuer}v2/logout`,
    },
    jwks: createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: IDENTITY_REQUEST_TIMEOUT_MS }),
  }
}

let cachedClient: Promise<OidcClient> | undefined

/** The OpenID client for this process (Auth0 when configured, else the embedded provider). */
export function getOidcClient(): Promise<OidcClient> {
  if (!cachedClient) {
    const { auth0 } = getConfig()
    const pending = (auth0 ? auth0OidcSettings(auth0) : Promise.resolve(embeddedOidcSettings())).then(
      createOidcClient,
    )
    cachedClient = pending
    pending.catch(() => {
      if (cachedClient === pending) cachedClient = undefined
    })
  }
  return cachedClient
}
