import { describe, expect, it } from 'vitest'
import { type AuthState, registrationTarget, safeReturnTo } from './auth-state'

const base = {
  status: 'authenticated' as const,
  counts: { announcements: 0, messages: 0 },
  needsSilentRenewal: false,
}
const identity = (sub: string, emailVerified: boolean) => ({
  sub,
  emailVerified,
  isLine: sub.includes('line'),
})

describe('registrationTarget', () => {
  it('sends verified and LINE users without a profile to register/input', () => {
    expect(registrationTarget({ ...base, identity: identity('demo|new', true), user: null })).toBe(
      '/register/input',
    )
    expect(
      registrationTarget({ ...base, identity: identity('line|U0000000000demo', false), user: null }),
    ).toBe('/register/input')
  })
  it('sends unverified users to register/confirm_email', () => {
    expect(registrationTarget({ ...base, identity: identity('demo|unverified', false), user: null })).toBe(
      '/register/confirm_email',
    )
  })
  it('leaves registered, signed-out and failed me calls alone', () => {
    const user = { id: 1 } as unknown as NonNullable<Extract<AuthState, { status: 'authenticated' }>['user']>
    expect(registrationTarget({ ...base, identity: identity('demo|parent', true), user })).toBeUndefined()
    expect(registrationTarget({ status: 'unauthenticated' })).toBeUndefined()
    expect(
      registrationTarget({
        ...base,
        identity: identity('demo|new', true),
        user: null,
        meError: { status: 500, message: 'x' },
      }),
    ).toBeUndefined()
  })
})

describe('safeReturnTo', () => {
  it('accepts same-origin paths only', () => {
    expect(safeReturnTo('/mypage?tab=1#x')).toBe('/mypage?tab=1#x')
    expect(safeReturnTo('//evil.example/')).toBe('/')
    expect(safeReturnTo('/\\evil.example')).toBe('/')
    expect(safeReturnTo('https://evil.example/')).toBe('/')
    expect(safeReturnTo(undefined)).toBe('/')
  })
})
