import '@tanstack/react-start/server-only'
import {
  type CompactVerifyGetKey,
  compactVerify,
  decodeProtectedHeader,
  errors,
  type JWTVerifyGetKey,
} from 'jose'

/**
 * ID token validation, claim by claim (spec §5). Each failure throws an IdTokenError whose message names the
 * failing claim, in the wording the Auth0 SDKs use, so logs read the same with Auth0 and the embedded provider.
 *
 * Pure: no Start runtime, no configuration; the caller passes issuer, client id and a JWKS key resolver.
 */

export interface IdTokenClaims {
  iss: string
  sub: string
  aud: string | string[]
  exp: number
  iat: number
  nbf?: number
  azp?: string
  nonce?: string
  auth_time?: number
  org_id?: string
  org_name?: string
  name?: string
  nickname?: string
  picture?: string
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

export interface VerifyIdTokenOptions {
  /** Expected issuer, compared exactly (Auth0's ends with '/'; the embedded provider's does not). */
  issuer: string
  clientId: string
  /** A jose key resolver, as returned by createRemoteJWKSet or createLocalJWKSet. */
  key: JWTVerifyGetKey
  /** The nonce sent with the authorization request, when one was sent. */
  nonce?: string
  /** The max_age sent with the authorization request, in seconds. */
  maxAge?: number
  /** Clock leeway in seconds (default 60, spec §9). */
  leeway?: number
  /** An organization id (`org_…`) or name the token must belong to. */
  organization?: string
  /** Current time in milliseconds (default Date.now()). */
  now?: number
}

export class IdTokenError extends Error {
  override name = 'IdTokenError'
  /** The claim (or header parameter) that failed, e.g. 'iss', 'alg', 'signature'. */
  readonly claim: string
  constructor(claim: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.claim = claim
  }
}

const EXPECTED_ALG = 'RS256'
const DEFAULT_LEEWAY = 60

const isString = (v: unknown): v is string => typeof v === 'string' && v.length > 0
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

export async function verifyIdToken(idToken: string, options: VerifyIdTokenOptions): Promise<IdTokenClaims> {
  if (typeof idToken !== 'string' || idToken.split('.').length !== 3) {
    throw new IdTokenError('id_token', 'ID token could not be decoded')
  }

  // The algorithm is checked on the protected header before any key lookup: a token signed with HS256 or ES256
  // must fail with a clear message, not with "no matching key".
  let alg: unknown
  try {
    alg = decodeProtectedHeader(idToken).alg
  } catch (cause) {
    throw new IdTokenError('id_token', 'ID token could not be decoded', { cause })
  }
  if (alg !== EXPECTED_ALG) {
    throw new IdTokenError(
      'alg',
      `Signature algorithm of "${String(alg)}" is not supported. Expected the ID token to be signed with "${EXPECTED_ALG}"`,
    )
  }

  let payload: Record<string, unknown>
  try {
    const verified = await compactVerify(idToken, options.key as unknown as CompactVerifyGetKey, {
      algorithms: [EXPECTED_ALG],
    })
    payload = JSON.parse(new TextDecoder().decode(verified.payload)) as Record<string, unknown>
  } catch (cause) {
    if (cause instanceof errors.JWKSNoMatchingKey) {
      throw new IdTokenError('kid', 'No key in the issuer JWKS matches the ID token key id (kid)', { cause })
    }
    if (cause instanceof errors.JWSSignatureVerificationFailed) {
      throw new IdTokenError('signature', 'Invalid ID token signature', { cause })
    }
    if (cause instanceof SyntaxError) {
      throw new IdTokenError('id_token', 'ID token payload is not JSON', { cause })
    }
    throw new IdTokenError(
      'signature',
      `ID token signature could not be verified: ${(cause as Error).message}`,
      {
        cause,
      },
    )
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new IdTokenError('id_token', 'ID token payload is not a JSON object')
  }

  return checkIdTokenClaims(payload, options)
}

/** The claim checks alone (signature already verified). Exported for callers that verify the JWS themselves. */
export function checkIdTokenClaims(
  payload: Record<string, unknown>,
  options: Omit<VerifyIdTokenOptions, 'key'>,
): IdTokenClaims {
  const leeway = options.leeway ?? DEFAULT_LEEWAY
  const now = Math.floor((options.now ?? Date.now()) / 1000)

  // iss
  if (!isString(payload.iss)) {
    throw new IdTokenError('iss', 'Issuer (iss) claim must be a string present in the ID token')
  }
  if (payload.iss !== options.issuer) {
    throw new IdTokenError(
      'iss',
      `Issuer (iss) claim mismatch in the ID token; expected "${options.issuer}", found "${payload.iss}"`,
    )
  }

  // sub
  if (!isString(payload.sub)) {
    throw new IdTokenError('sub', 'Subject (sub) claim must be a string present in the ID token')
  }

  // aud
  const aud = payload.aud
  const audList = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : undefined
  if (!audList || audList.length === 0 || !audList.every(isString)) {
    throw new IdTokenError(
      'aud',
      'Audience (aud) claim must be a string or array of strings present in the ID token',
    )
  }
  if (!audList.includes(options.clientId)) {
    throw new IdTokenError(
      'aud',
      `Audience (aud) claim mismatch in the ID token; expected "${options.clientId}" but was not one of "${audList.join(', ')}"`,
    )
  }

  // azp, required with more than one audience
  if (audList.length > 1) {
    if (!isString(payload.azp)) {
      throw new IdTokenError(
        'azp',
        'Authorized Party (azp) claim must be a string present in the ID token when Audience (aud) claim has multiple values',
      )
    }
    if (payload.azp !== options.clientId) {
      throw new IdTokenError(
        'azp',
        `Authorized Party (azp) claim mismatch in the ID token; expected "${options.clientId}", found "${payload.azp}"`,
      )
    }
  }

  // nonce, when one was sent
  if (options.nonce !== undefined) {
    if (!isString(payload.nonce)) {
      throw new IdTokenError('nonce', 'Nonce (nonce) claim must be a string present in the ID token')
    }
    if (payload.nonce !== options.nonce) {
      throw new IdTokenError(
        'nonce',
        `Nonce (nonce) claim mismatch in the ID token; expected "${options.nonce}", found "${payload.nonce}"`,
      )
    }
  }

  // auth_time, when max_age was sent
  if (options.maxAge !== undefined) {
    if (!isNumber(payload.auth_time)) {
      throw new IdTokenError(
        'auth_time',
        'Authentication Time (auth_time) claim must be a number present in the ID token when Max Age (max_age) is specified',
      )
    }
    const authValidUntil = payload.auth_time + options.maxAge + leeway
    if (now > authValidUntil) {
      throw new IdTokenError(
        'auth_time',
        `Authentication Time (auth_time) claim in the ID token indicates that too much time has passed since the last end-user authentication. Current time (${now}) is after last auth at ${authValidUntil}`,
      )
    }
  }

  // exp, iat
  if (!isNumber(payload.exp)) {
    throw new IdTokenError('exp', 'Expiration Time (exp) claim must be a number present in the ID token')
  }
  if (!isNumber(payload.iat)) {
    throw new IdTokenError('iat', 'Issued At (iat) claim must be a number present in the ID token')
  }
  const expiresAt = payload.exp + leeway
  if (now > expiresAt) {
    throw new IdTokenError(
      'exp',
      `Expiration Time (exp) claim error in the ID token; current time (${now}) is after expiration time (${expiresAt})`,
    )
  }

  // nbf
  if (payload.nbf !== undefined) {
    if (!isNumber(payload.nbf)) {
      throw new IdTokenError(
        'nbf',
        'Not Before time (nbf) claim must be a number when present in the ID token',
      )
    }
    const notBefore = payload.nbf - leeway
    if (now < notBefore) {
      throw new IdTokenError(
        'nbf',
        `Not Before time (nbf) claim in the ID token indicates that this token can't be used just yet. Current time (${now}) is before ${notBefore}`,
      )
    }
  }

  // organization
  if (options.organization !== undefined) {
    const org = options.organization.trim()
    if (org.startsWith('org_')) {
      if (!isString(payload.org_id)) {
        throw new IdTokenError(
          'org_id',
          'Organization ID (org_id) claim must be a string present in the ID token',
        )
      }
      if (payload.org_id !== org) {
        throw new IdTokenError(
          'org_id',
          `Organization ID (org_id) claim mismatch in the ID token; expected "${org}", found "${payload.org_id}"`,
        )
      }
    } else {
      const expected = org.toLowerCase()
      if (!isString(payload.org_name)) {
        throw new IdTokenError(
          'org_name',
          'Organization Name (org_name) claim must be a string present in the ID token',
        )
      }
      if (payload.org_name !== expected) {
        throw new IdTokenError(
          'org_name',
          `Organization Name (org_name) claim mismatch in the ID token; expected "${expected}", found "${payload.org_name}"`,
        )
      }
    }
  }

  return payload as IdTokenClaims
}
