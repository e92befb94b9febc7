import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose'
import { TEST_AUDIENCE, TEST_ISSUER } from './constants'

/** A test signing key whose public half the API is pointed at (the embedded provider's role in production). */
const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
const otherKey = await generateKeyPair('RS256')

const publicJwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }
export const testJwks = createLocalJWKSet({ keys: [publicJwk] })
export const testAuth = () => ({ issuer: TEST_ISSUER, audience: TEST_AUDIENCE, jwks: testJwks })

export interface TokenOptions {
  issuer?: string
  audience?: string
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number
  typ?: string
  /** Sign with a key the API does not know. */
  foreignKey?: boolean
}

/** An access token as the identity provider would issue it (typ at+jwt, RS256). */
export function accessToken(sub: string, claims: JWTPayload = {}, o: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: o.typ ?? 'at+jwt' })
    .setIssuer(o.issuer ?? TEST_ISSUER)
    .setAudience(o.audience ?? TEST_AUDIENCE)
    .setSubject(sub)
    .setIssuedAt(now - 10)
    .setExpirationTime(now + (o.expiresIn ?? 300))
    .sign(o.foreignKey ? otherKey.privateKey : privateKey)
}

/** An HS256 token signed with a guessable secret: must be refused (algorithms are pinned to RS256). */
export function hs256Token(sub: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', kid: 'test-key' })
    .setIssuer(TEST_ISSUER)
    .setAudience(TEST_AUDIENCE)
    .setSubject(sub)
    .setExpirationTime('5m')
    .sign(new TextEncoder().encode('a-secret-that-is-long-enough-for-hs256-0123456789'))
}

/** An unsigned token (alg none). */
export function unsignedToken(sub: string): string {
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  const now = Math.floor(Date.now() / 1000)
  return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({ iss: TEST_ISSUER, aud: TEST_AUDIENCE, sub, exp: now + 300 })}.`
}

/** Demo subjects (PRODUCT.md). */
export const SUBS = {
  parent: 'demo|parent',
  teacher: 'demo|teacher',
  owner: 'demo|org-owner',
  newUser: 'demo|new',
  unverified: 'demo|unverified',
  line: 'line|U0000000000demo',
  emily: 'seed|teacher-emily',
  member01: 'seed|member-01',
  operator: 'demo|operator',
} as const

/** Claims the embedded provider puts in the tokens of the demo accounts. */
export const CLAIMS: Record<string, JWTPayload> = {
  [SUBS.newUser]: { email: 'new@manabi.example', email_verified: true },
  [SUBS.unverified]: { email: 'unverified@manabi.example', email_verified: false },
  [SUBS.line]: {},
}

export const tokenFor = (sub: string, o?: TokenOptions) => accessToken(sub, CLAIMS[sub] ?? {}, o)
