import '@tanstack/react-start/server-only'
import { createLocalJWKSet, createRemoteJWKSet, type JWTVerifyGetKey } from 'jose'
import { getIdpPublicJwks } from '../../idp'
import { getConfig } from '../config'
import { IDENTITY_REQUEST_TIMEOUT_MS } from './oidc.server'

/**
 * What the /v1 API needs to verify access tokens: the issuer, the API audience and a key resolver — the embedded
 * provider's public keys in-process (no HTTP), or Auth0's JWKS (fetched once, then cached by jose).
 * Wire with `setAccessTokenVerifier(getAccessTokenVerifierOptions())` from app/api/auth.ts.
 */
export interface AccessTokenVerifierOptions {
  issuer: string
  audience: string
  jwks: JWTVerifyGetKey
}

let cached: AccessTokenVerifierOptions | undefined

export function getAccessTokenVerifierOptions(): AccessTokenVerifierOptions {
  if (cached) return cached
  const config = getConfig()
  if (config.auth0) {
    const issuer = `https://${config.auth0.domain}/`
    cached = {
      issuer,
      audience: config.auth0.audience,
      jwks: createRemoteJWKSet(new URL(`${issuer}.well-known/jwks.json`), {
        timeoutDuration: IDENTITY_REQUEST_TIMEOUT_MS,
      }),
    }
  } else {
    cached = {
      issuer: `${config.siteOrigin}/idp`,
      audience: `${config.siteOrigin}/v1`,
      jwks: createLocalJWKSet(getIdpPublicJwks()),
    }
  }
  return cached
}
