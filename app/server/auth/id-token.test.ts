import { createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import { IdTokenError, type VerifyIdTokenOptions, verifyIdToken } from './id-token'

const ISSUER = 'https://idp.manabi.example/'
const CLIENT_ID = 'manabi-web'
const NOW = 1_750_000_000_000 // fixed clock (ms)
const NOW_S = NOW / 1000

let rsaPrivate: CryptoKey
let otherRsaPrivate: CryptoKey
let key: VerifyIdTokenOptions['key']

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true })
  rsaPrivate = pair.privateKey
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
  key = createLocalJWKSet({ keys: [jwk] })
  otherRsaPrivate = (await generateKeyPair('RS256')).privateKey
})

function baseClaims(): JWTPayload & Record<string, unknown> {
  return {
    iss: ISSUER,
    sub: 'demo|parent',
    aud: CLIENT_ID,
    exp: NOW_S + 3600,
    iat: NOW_S,
    nonce: 'nonce-1',
    email: 'parent@manabi.example',
  }
}

async function sign(
  claims: Record<string, unknown>,
  opts: { privateKey?: CryptoKey | Uint8Array; alg?: string; kid?: string } = {},
) {
  return new SignJWT(claims as JWTPayload)
    .setProtectedHeader({ alg: opts.alg ?? 'RS256', kid: opts.kid ?? 'k1', typ: 'JWT' })
    .sign(opts.privateKey ?? rsaPrivate)
}

function options(extra: Partial<VerifyIdTokenOptions> = {}): VerifyIdTokenOptions {
  return { issuer: ISSUER, clientId: CLIENT_ID, key, nonce: 'nonce-1', now: NOW, ...extra }
}

async function rejection(token: string, opts: VerifyIdTokenOptions): Promise<IdTokenError> {
  try {
    await verifyIdToken(token, opts)
  } catch (error) {
    expect(error).toBeInstanceOf(IdTokenError)
    return error as IdTokenError
  }
  throw new Error('expected verifyIdToken to reject')
}

function without(claims: Record<string, unknown>, name: string) {
  const copy = { ...claims }
  delete copy[name]
  return copy
}

describe('verifyIdToken', () => {
  it('accepts a valid token and returns its claims', async () => {
    const claims = await verifyIdToken(await sign(baseClaims()), options())
    expect(claims.sub).toBe('demo|parent')
    expect(claims.email).toBe('parent@manabi.example')
  })

  describe('signature and algorithm', () => {
    it('rejects an HS256 token, naming RS256', async () => {
      const token = await sign(baseClaims(), { alg: 'HS256', privateKey: new Uint8Array(32).fill(7) })
      const error = await rejection(token, options())
      expect(error.claim).toBe('alg')
      expect(error.message).toContain('RS256')
      expect(error.message).toContain('HS256')
    })
    it('rejects an ES256 token, naming RS256', async () => {
      const { privateKey } = await generateKeyPair('ES256')
      const error = await rejection(await sign(baseClaims(), { alg: 'ES256', privateKey }), options())
      expect(error.claim).toBe('alg')
      expect(error.message).toContain('RS256')
    })
    it('rejects an unsigned (alg none) token, naming RS256', async () => {
      const header = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')
      const body = Buffer.from(JSON.stringify(baseClaims())).toString('base64url')
      const error = await rejection(`${header}.${body}.`, options())
      expect(error.message).toContain('RS256')
    })
    it('rejects a token signed by another key', async () => {
      const error = await rejection(await sign(baseClaims(), { privateKey: otherRsaPrivate }), options())
      expect(error.claim).toBe('signature')
    })
    it('rejects a token whose kid is unknown', async () => {
      const error = await rejection(await sign(baseClaims(), { kid: 'nope' }), options())
      expect(error.claim).toBe('kid')
    })
    it('rejects a tampered payload', async () => {
      const [h, , s] = (await sign(baseClaims())).split('.')
      const forged = Buffer.from(JSON.stringify({ ...baseClaims(), sub: 'demo|teacher' })).toString(
        'base64url',
      )
      const error = await rejection(`${h}.${forged}.${s}`, options())
      expect(error.claim).toBe('signature')
    })
    it('rejects garbage', async () => {
      expect((await rejection('not-a-jwt', options())).claim).toBe('id_token')
    })
  })

  describe('iss', () => {
    it('must be present', async () => {
      const error = await rejection(await sign(without(baseClaims(), 'iss')), options())
      expect(error.message).toMatch(/Issuer \(iss\) claim must be a string present/)
    })
    it('must equal the issuer', async () => {
      const error = await rejection(await sign({ ...baseClaims(), iss: 'https://evil.example/' }), options())
      expect(error.claim).toBe('iss')
      expect(error.message).toMatch(/Issuer \(iss\) claim mismatch/)
    })
  })

  describe('sub', () => {
    it('must be present', async () => {
      const error = await rejection(await sign(without(baseClaims(), 'sub')), options())
      expect(error.claim).toBe('sub')
      expect(error.message).toMatch(/Subject \(sub\)/)
    })
  })

  describe('aud and azp', () => {
    it('must be present', async () => {
      const error = await rejection(await sign(without(baseClaims(), 'aud')), options())
      expect(error.claim).toBe('aud')
      expect(error.message).toMatch(/Audience \(aud\) claim must be a string or array/)
    })
    it('must contain the client id (string)', async () => {
      const error = await rejection(await sign({ ...baseClaims(), aud: 'someone-else' }), options())
      expect(error.message).toMatch(/Audience \(aud\) claim mismatch/)
    })
    it('must contain the client id (list)', async () => {
      const error = await rejection(
        await sign({ ...baseClaims(), aud: ['a', 'b'], azp: CLIENT_ID }),
        options(),
      )
      expect(error.claim).toBe('aud')
    })
    it('accepts a list containing the client id when azp equals the client id', async () => {
      const token = await sign({
        ...baseClaims(),
        aud: [CLIENT_ID, 'https://api.manabi.example/v1'],
        azp: CLIENT_ID,
      })
      await expect(verifyIdToken(token, options())).resolves.toMatchObject({ azp: CLIENT_ID })
    })
    it('accepts a one-element list without azp', async () => {
      await expect(
        verifyIdToken(await sign({ ...baseClaims(), aud: [CLIENT_ID] }), options()),
      ).resolves.toBeTruthy()
    })
    it('requires azp with several audiences', async () => {
      const token = await sign({ ...baseClaims(), aud: [CLIENT_ID, 'other'] })
      const error = await rejection(token, options())
      expect(error.claim).toBe('azp')
      expect(error.message).toMatch(/Authorized Party \(azp\) claim must be a string present/)
    })
    it('requires azp to equal the client id', async () => {
      const token = await sign({ ...baseClaims(), aud: [CLIENT_ID, 'other'], azp: 'other' })
      const error = await rejection(token, options())
      expect(error.message).toMatch(/Authorized Party \(azp\) claim mismatch/)
    })
  })

  describe('nonce', () => {
    it('must be present when one was sent', async () => {
      const error = await rejection(await sign(without(baseClaims(), 'nonce')), options())
      expect(error.claim).toBe('nonce')
      expect(error.message).toMatch(/Nonce \(nonce\) claim must be a string present/)
    })
    it('must equal the nonce sent', async () => {
      const error = await rejection(await sign({ ...baseClaims(), nonce: 'other' }), options())
      expect(error.message).toMatch(/Nonce \(nonce\) claim mismatch/)
    })
    it('is not required when none was sent', async () => {
      const token = await sign(without(baseClaims(), 'nonce'))
      await expect(verifyIdToken(token, options({ nonce: undefined }))).resolves.toBeTruthy()
    })
  })

  describe('auth_time with max_age', () => {
    it('must be a number when max_age is set', async () => {
      const error = await rejection(await sign(baseClaims()), options({ maxAge: 300 }))
      expect(error.claim).toBe('auth_time')
      expect(error.message).toMatch(/auth_time\) claim must be a number/)
    })
    it('rejects a string auth_time', async () => {
      const error = await rejection(await sign({ ...baseClaims(), auth_time: '1' }), options({ maxAge: 300 }))
      expect(error.claim).toBe('auth_time')
    })
    it('accepts an authentication within max_age (+ leeway)', async () => {
      const token = await sign({ ...baseClaims(), auth_time: NOW_S - 300 - 59 })
      await expect(verifyIdToken(token, options({ maxAge: 300 }))).resolves.toBeTruthy()
    })
    it('rejects an authentication older than max_age + leeway', async () => {
      const token = await sign({ ...baseClaims(), auth_time: NOW_S - 300 - 61 })
      const error = await rejection(token, options({ maxAge: 300 }))
      expect(error.message).toMatch(/too much time has passed/)
    })
    it('does not look at auth_time without max_age', async () => {
      await expect(
        verifyIdToken(await sign({ ...baseClaims(), auth_time: 1 }), options()),
      ).resolves.toBeTruthy()
    })
  })

  describe('exp and iat', () => {
    it('exp must be a number', async () => {
      const error = await rejection(await sign(without(baseClaims(), 'exp')), options())
      expect(error.claim).toBe('exp')
      expect(error.message).toMatch(/Expiration Time \(exp\) claim must be a number/)
    })
    it('iat must be a number', async () => {
      const error = await rejection(await sign(without(baseClaims(), 'iat')), options())
      expect(error.claim).toBe('iat')
      expect(error.message).toMatch(/Issued At \(iat\) claim must be a number/)
    })
    it('rejects a string exp', async () => {
      expect((await rejection(await sign({ ...baseClaims(), exp: 'soon' }), options())).claim).toBe('exp')
    })
    it('accepts a token expired less than the leeway ago', async () => {
      await expect(
        verifyIdToken(await sign({ ...baseClaims(), exp: NOW_S - 59 }), options()),
      ).resolves.toBeTruthy()
    })
    it('rejects a token expired beyond the leeway (default 60 s)', async () => {
      const error = await rejection(await sign({ ...baseClaims(), exp: NOW_S - 61 }), options())
      expect(error.claim).toBe('exp')
      expect(error.message).toMatch(/Expiration Time \(exp\) claim error/)
    })
    it('honours a custom leeway', async () => {
      const token = await sign({ ...baseClaims(), exp: NOW_S - 5 })
      expect((await rejection(token, options({ leeway: 0 }))).claim).toBe('exp')
      await expect(verifyIdToken(token, options({ leeway: 10 }))).resolves.toBeTruthy()
    })
  })

  describe('nbf', () => {
    it('accepts nbf in the future within the leeway', async () => {
      await expect(
        verifyIdToken(await sign({ ...baseClaims(), nbf: NOW_S + 59 }), options()),
      ).resolves.toBeTruthy()
    })
    it('rejects nbf in the future beyond the leeway', async () => {
      const error = await rejection(await sign({ ...baseClaims(), nbf: NOW_S + 61 }), options())
      expect(error.claim).toBe('nbf')
      expect(error.message).toMatch(/Not Before time \(nbf\)/)
    })
    it('rejects a non-numeric nbf', async () => {
      expect((await rejection(await sign({ ...baseClaims(), nbf: 'x' }), options())).claim).toBe('nbf')
    })
  })

  describe('organization', () => {
    it('accepts a matching org_id', async () => {
      const token = await sign({ ...baseClaims(), org_id: 'org_123' })
      await expect(verifyIdToken(token, options({ organization: 'org_123' }))).resolves.toBeTruthy()
    })
    it('requires org_id when the organization is an id', async () => {
      const error = await rejection(await sign(baseClaims()), options({ organization: 'org_123' }))
      expect(error.claim).toBe('org_id')
    })
    it('rejects another org_id', async () => {
      const token = await sign({ ...baseClaims(), org_id: 'org_999' })
      const error = await rejection(token, options({ organization: 'org_123' }))
      expect(error.message).toMatch(/Organization ID \(org_id\) claim mismatch/)
    })
    it('compares a name trimmed and lower-cased against org_name', async () => {
      const token = await sign({ ...baseClaims(), org_name: 'manabi-school' })
      await expect(verifyIdToken(token, options({ organization: '  Manabi-School ' }))).resolves.toBeTruthy()
    })
    it('requires org_name when the organization is a name', async () => {
      const error = await rejection(await sign(baseClaims()), options({ organization: 'manabi' }))
      expect(error.claim).toBe('org_name')
    })
    it('rejects another org_name', async () => {
      const token = await sign({ ...baseClaims(), org_name: 'other' })
      const error = await rejection(token, options({ organization: 'manabi' }))
      expect(error.message).toMatch(/Organization Name \(org_name\) claim mismatch/)
    })
  })
})
