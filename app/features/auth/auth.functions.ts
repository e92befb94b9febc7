import { createServerFn } from '@tanstack/react-start'
import { appendResponseHeader, getRequest } from '@tanstack/react-start/server'
import { api } from '~/server/api-client'
import { getSessionAccessToken } from '~/server/auth/flow.server'
import { getSessionStore, readFlash } from '~/server/auth/session.server'
import { furiganaCookieOn } from '~/server/furigana-cookie.server'
import type { AuthState, Flash } from './auth-state'

function takeFlash(request: Request): Flash | undefined {
  const flash = readFlash(request)
  if (!flash) return undefined
  appendResponseHeader('set-cookie', getSessionStore().clearFlashCookie())
  return { type: flash.type, message: flash.message, detail: flash.detail ?? flash.error_description }
}

/**
 * The auth state of spec §4, computed on the server from the session cookie: the identity, the me call
 * (200 → profile, 404 → not registered, other → error), and the header counts.
 */
export const getAuthState = createServerFn({ method: 'GET' }).handler(async (): Promise<AuthState> => {
  const request = getRequest()
  const flash = takeFlash(request)
  const session = await getSessionAccessToken(request, {
    onSetCookie: (header) => appendResponseHeader('set-cookie', header),
  })
  const deviceFurigana = furiganaCookieOn(request)
  if (!session) return { status: 'unauthenticated', flash, furigana: deviceFurigana }

  const { claims, accessToken } = session
  const identity = {
    sub: claims.sub,
    email: claims.email,
    emailVerified: claims.email_verified === true,
    isLine: claims.sub.includes('line'),
    name: claims.nickname ?? claims.name,
    picture: claims.picture,
  }
  const base = {
    status: 'authenticated' as const,
    identity,
    needsSilentRenewal: session.needsSilentRenewal,
    flash,
    furigana: deviceFurigana,
  }
  const me = await api.getMe(accessToken)
  if (me.status === 404) return { ...base, user: null, counts: { announcements: 0, messages: 0 } }
  if (me.status !== 200 || !me.data) {
    return {
      ...base,
      user: null,
      meError: { status: me.status, message: me.message ?? '' },
      counts: { announcements: 0, messages: 0 },
    }
  }
  // The header counts (spec §3): unread announcements, and the sum of unread room messages. The announcements
  // count also takes the operator's unread notices: /information lists both, and a badge that stays after
  // everything there was read would look broken (docs/decisions/0006-header-notice-count.md).
  // Unread messages over every room, not only the newest ones a room list holds.
  const [announcements, notices, unreadMessages] = await Promise.all([
    api.listClassAnnouncements(accessToken).catch(() => []),
    api.listNotices(accessToken).catch(() => []),
    api.unreadMessageCount(accessToken).catch(() => undefined),
  ])
  return {
    ...base,
    // A member's own setting goes with them (the device's is for when no one is signed in).
    furigana: me.data.furigana,
    user: me.data,
    counts: {
      announcements:
        (announcements ?? []).filter((a) => !a.is_read).length +
        (notices ?? []).filter((n) => !n.is_read).length,
      messages: unreadMessages?.count ?? 0,
    },
  }
})
