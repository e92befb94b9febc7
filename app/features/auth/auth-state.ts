import type { User } from '~/contract/v1/users'

/** What the browser knows about the signed-in person (no tokens, ever). */
export type AuthIdentity = {
  sub: string
  email?: string
  emailVerified: boolean
  /** A sub containing 'line' means LINE sign-in (spec §3). */
  isLine: boolean
  name?: string
  picture?: string
}

export type AuthState =
  | { status: 'unauthenticated'; flash?: Flash; furigana?: boolean }
  | {
      status: 'authenticated'
      identity: AuthIdentity
      /** The profile; null while the person has not registered (me → 404). */
      user: User | null
      /** A me call that failed with another status (spec §4). */
      meError?: { status: number; message: string }
      /** Header counts: unread class announcements + unread operator notices, sum of unread room messages (spec §3). */
      counts: { announcements: number; messages: number }
      /** The access token is about to expire and cannot be refreshed: renew with a prompt=none round trip. */
      needsSilentRenewal: boolean
      flash?: Flash
      /** Furigana mode (issue 19): the member's setting, or the device's while they have no profile. */
      furigana?: boolean
    }

export type Flash = { type: 'error' | 'info'; message: string; detail?: string }

export const REGISTER_INPUT = '/register/input'
export const REGISTER_CONFIRM_EMAIL = '/register/confirm_email'

/**
 * Where an authenticated person without a profile belongs (spec §4): register-input when the e-mail is verified
 * or the sign-in is via LINE, otherwise register-confirm_email. Undefined when no move is needed.
 */
export function registrationTarget(auth: AuthState): string | undefined {
  if (auth.status !== 'authenticated' || auth.user !== null || auth.meError) return undefined
  return auth.identity.emailVerified || auth.identity.isLine ? REGISTER_INPUT : REGISTER_CONFIRM_EMAIL
}

/** A signed-in person with a profile: the one who may follow, favorite and reserve. */
export function isMember(auth: AuthState): boolean {
  return auth.status === 'authenticated' && auth.user !== null
}

/** A same-origin path for returnTo; anything else becomes the top page (no open redirect). */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return '/'
  return value
}
