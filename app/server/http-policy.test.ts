import { describe, expect, it } from 'vitest'
import { cacheControlFor, contentSecurityPolicy } from './http-policy'

describe('contentSecurityPolicy', () => {
  it('allows scripts only from the origin or with the nonce, never inline without it', () => {
    const csp = contentSecurityPolicy({ nonce: 'abc123' })
    expect(csp).toContain("script-src 'self' 'nonce-abc123' 'strict-dynamic'")
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("base-uri 'none'")
    expect(csp).not.toContain('upgrade-insecure-requests')
  })
  it('lets forms end at the configured identity provider and upgrades requests on https', () => {
    const csp = contentSecurityPolicy({
      nonce: 'n',
      formActions: ['https://login.manabi.example'],
      secure: true,
    })
    expect(csp).toContain("form-action 'self' https://login.manabi.example")
    expect(csp).toContain('upgrade-insecure-requests')
  })
})

describe('cacheControlFor', () => {
  const base = { method: 'GET', pathname: '/', personal: false, status: 200, existing: null }
  it('never stores what was answered for a signed-in member', () => {
    expect(cacheControlFor({ ...base, personal: true })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, personal: true, existing: 'public, max-age=60' })).toBe(
      'private, no-store',
    )
  })
  it('keeps an immutable public upload cacheable, also for a signed-in member', () => {
    const upload = {
      ...base,
      pathname: '/uploads/classes/a.webp',
      existing: 'public, max-age=31536000, immutable',
    }
    expect(cacheControlFor({ ...upload, personal: true })).toBe('public, max-age=31536000, immutable')
  })
  it('never stores private pages, server functions or writes, signed in or not', () => {
    expect(cacheControlFor({ ...base, pathname: '/mypage' })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, pathname: '/profile/edit_user' })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, pathname: '/_serverFn/abc' })).toBe('private, no-store')
    expect(cacheControlFor({ ...base, method: 'POST', pathname: '/v1/class_works/search' })).toBe('no-store')
  })
  it('lets public pages be kept but revalidated, and keeps a public handler’s own choice', () => {
    expect(cacheControlFor(base)).toBe('public, max-age=0, must-revalidate')
    expect(cacheControlFor({ ...base, pathname: '/class_search/detail/1' })).toBe(
      'public, max-age=0, must-revalidate',
    )
    expect(cacheControlFor({ ...base, pathname: '/robots.txt', existing: 'public, max-age=3600' })).toBe(
      'public, max-age=3600',
    )
    expect(cacheControlFor({ ...base, status: 404 })).toBe('no-store')
  })
  it('does not mistake a public path that merely starts like a private one', () => {
    expect(cacheControlFor({ ...base, pathname: '/followers-guide' })).toBe(
      'public, max-age=0, must-revalidate',
    )
  })
})

describe('contentSecurityPolicy with Stripe', () => {
  it('lets Stripe.js, its frames and its API in only when Stripe is the provider', () => {
    const plain = contentSecurityPolicy({ nonce: 'n' })
    expect(plain).not.toContain('stripe')
    const stripe = contentSecurityPolicy({ nonce: 'n', stripe: true })
    expect(stripe).toContain("script-src 'self' 'nonce-n' 'strict-dynamic' https://js.stripe.com")
    expect(stripe).toContain("frame-src 'self' https://js.stripe.com https://hooks.stripe.com")
    expect(stripe).toContain("connect-src 'self' https://api.stripe.com")
  })
})
