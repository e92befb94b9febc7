import { isRedirect } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import type { AuthState } from './auth-state'
import { requireRegistering } from './guards'

const signedIn = (emailVerified: boolean, user: unknown = null): AuthState =>
  ({
    status: 'authenticated',
    counts: { announcements: 0, messages: 0 },
    needsSilentRenewal: false,
    identity: { sub: 'demo|x', emailVerified, isLine: false },
    user,
  }) as AuthState

/** Where the guard sends this person on this path: the redirect's target, or undefined when they may stay. */
function sentFrom(pathname: string, auth: AuthState): string | undefined {
  try {
    requireRegistering({ context: { auth }, location: { pathname, href: pathname } })
    return undefined
  } catch (thrown) {
    if (!isRedirect(thrown)) throw thrown
    const o = thrown.options as { href?: string; to?: string }
    return o.href ?? o.to
  }
}

describe('requireRegistering', () => {
  it('keeps an unverified e-mail off the form: register/input → register/confirm_email', () => {
    expect(sentFrom('/register/input', signedIn(false))).toBe('/register/confirm_email')
    expect(sentFrom('/register/confirm_email', signedIn(false))).toBeUndefined()
  })

  it('sends a verified e-mail on from the confirmation to the form', () => {
    expect(sentFrom('/register/confirm_email', signedIn(true))).toBe('/register/input')
    expect(sentFrom('/register/input', signedIn(true))).toBeUndefined()
  })

  it('sends a registered member to the top, and a visitor to the login; thanks stays open to the just registered', () => {
    expect(sentFrom('/register/input', signedIn(true, { id: 1 }))).toBe('/')
    expect(sentFrom('/register/thanks', signedIn(true, { id: 1 }))).toBeUndefined()
    expect(sentFrom('/register/input', { status: 'unauthenticated' } as AuthState)).toBe('/')
  })
})
