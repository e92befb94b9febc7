import { describe, expect, it } from 'vitest'
import { ConfigError, parseEnv } from './config'

describe('parseEnv', () => {
  it('gives working defaults with no configuration', () => {
    const c = parseEnv({})
    expect(c.port).toBe(3000)
    expect(c.siteOrigin).toBe('http://localhost:3000')
    expect(c.dataDir).toBe('.data')
    expect(c.testPagesEnabled).toBe(true)
    expect(c.auth0).toBeUndefined()
    expect(c.commissionRate).toBe(0.2)
  })
  it('turns test pages off in production unless asked', () => {
    expect(parseEnv({ NODE_ENV: 'production' }).testPagesEnabled).toBe(false)
    expect(parseEnv({ NODE_ENV: 'production', ENABLE_TEST_PAGES: '1' }).testPagesEnabled).toBe(true)
  })
  it('derives the site origin from PORT and strips a trailing slash', () => {
    expect(parseEnv({ PORT: '3100' }).siteOrigin).toBe('http://localhost:3100')
    expect(parseEnv({ SITE_ORIGIN: 'https://manabi.example/' }).siteOrigin).toBe('https://manabi.example')
  })
  it('fails with a readable message naming the variable', () => {
    expect(() => parseEnv({ PORT: 'abc' })).toThrow(ConfigError)
    expect(() => parseEnv({ PORT: 'abc' })).toThrow(/PORT/)
    expect(() => parseEnv({ SESSION_SECRET: 'short' })).toThrow(/SESSION_SECRET must be at least 32/)
    expect(() => parseEnv({ AUTH0_DOMAIN: 'x.auth0.com' })).toThrow(/must be set together/)
  })
  it('never allows the test login with Auth0', () => {
    const c = parseEnv({
      AUTH0_DOMAIN: 'login.manabi.example',
      AUTH0_CLIENT_ID: 'id',
      AUTH0_CLIENT_SECRET: 'secret',
      AUTH0_AUDIENCE: 'https://api.manabi.example',
      IDP_TEST_LOGIN: '1',
    })
    expect(c.idpTestLogin).toBe(false)
  })
})

describe('deployment flags', () => {
  it('requires SESSION_SECRET only for production with Auth0', () => {
    expect(parseEnv({ NODE_ENV: 'production' }).requiresSessionSecret).toBe(false)
    const auth0 = {
      AUTH0_DOMAIN: 'login.manabi.example',
      AUTH0_CLIENT_ID: 'id',
      AUTH0_CLIENT_SECRET: 'secret',
      AUTH0_AUDIENCE: 'https://api.manabi.example',
    }
    expect(parseEnv({ NODE_ENV: 'production', ...auth0 }).requiresSessionSecret).toBe(true)
    expect(parseEnv({ NODE_ENV: 'development', ...auth0 }).requiresSessionSecret).toBe(false)
  })
  it('uses secure cookies whenever the site is https', () => {
    expect(parseEnv({ NODE_ENV: 'production' }).secureCookies).toBe(false)
    expect(parseEnv({ SITE_ORIGIN: 'https://manabi.example' }).secureCookies).toBe(true)
  })
})

describe('demo content', () => {
  it('is seeded except for production with Auth0, unless SEED_DEMO says otherwise', () => {
    const auth0 = {
      AUTH0_DOMAIN: 'login.manabi.example',
      AUTH0_CLIENT_ID: 'id',
      AUTH0_CLIENT_SECRET: 'secret',
      AUTH0_AUDIENCE: 'https://api.manabi.example',
    }
    expect(parseEnv({ NODE_ENV: 'production' }).seedDemo).toBe(true)
    expect(parseEnv({ NODE_ENV: 'production', ...auth0 }).seedDemo).toBe(false)
    expect(parseEnv({ NODE_ENV: 'production', ...auth0, SEED_DEMO: '1' }).seedDemo).toBe(true)
    expect(parseEnv({ SEED_DEMO: '0' }).seedDemo).toBe(false)
  })
})
