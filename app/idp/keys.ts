import { createHash, generateKeyPairSync } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

/**
 * The embedded provider's RS256 signing key: generated once, kept in `${dataDir}/idp/jwks.json` (private, 0600),
 * so tokens and sessions stay valid across restarts.
 */

export interface RsaPrivateJwk {
  kty: 'RSA'
  kid: string
  alg: 'RS256'
  use: 'sig'
  n: string
  e: string
  d: string
  p: string
  q: string
  dp: string
  dq: string
  qi: string
}

export interface RsaPublicJwk {
  kty: 'RSA'
  kid: string
  alg: 'RS256'
  use: 'sig'
  n: string
  e: string
}

export interface PrivateJwks {
  keys: RsaPrivateJwk[]
}

export interface PublicJwks {
  keys: RsaPublicJwk[]
}

const cache = new Map<string, PrivateJwks>()

/** RFC 7638 thumbprint of an RSA key. */
function thumbprint(jwk: { e: string; n: string }): string {
  return createHash('sha256')
    .update(JSON.stringify({ e: jwk.e, kty: 'RSA', n: jwk.n }))
    .digest('base64url')
}

export function generateSigningKey(): RsaPrivateJwk {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const jwk = privateKey.export({ format: 'jwk' }) as Omit<RsaPrivateJwk, 'kid' | 'alg' | 'use'>
  return { ...jwk, kty: 'RSA', kid: thumbprint(jwk), alg: 'RS256', use: 'sig' }
}

function isValid(value: unknown): value is PrivateJwks {
  const keys = (value as PrivateJwks | undefined)?.keys
  return (
    Array.isArray(keys) && keys.length > 0 && keys.every((k) => k.kty === 'RSA' && typeof k.d === 'string')
  )
}

/** Loads the signing keys from `file`, creating the file with a new key when it does not exist. */
export function loadOrCreateSigningKeys(file: string): PrivateJwks {
  const cached = cache.get(file)
  if (cached) return cached
  let jwks: PrivateJwks | undefined
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'))
    if (!isValid(parsed)) throw new Error(`${file} does not hold an RSA JWKS`)
    jwks = parsed
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  if (!jwks) {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 })
    const created: PrivateJwks = { keys: [generateSigningKey()] }
    try {
      writeFileSync(file, `${JSON.stringify(created, null, 2)}\n`, { mode: 0o600, flag: 'wx' })
      jwks = created
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      jwks = JSON.parse(readFileSync(file, 'utf8')) as PrivateJwks
    }
  }
  const normalized: PrivateJwks = {
    keys: jwks.keys.map((k) => ({ ...k, kid: k.kid ?? thumbprint(k), alg: 'RS256', use: 'sig' })),
  }
  cache.set(file, normalized)
  return normalized
}

export function toPublicJwks(jwks: PrivateJwks): PublicJwks {
  return { keys: jwks.keys.map(({ kty, kid, alg, use, n, e }) => ({ kty, kid, alg, use, n, e })) }
}
