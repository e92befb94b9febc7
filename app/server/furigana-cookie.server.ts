import '@tanstack/react-start/server-only'
import { getCookie, serializeCookie } from './auth/cookies.server'
import { getConfig } from './config'

/**
 * The device's 「ふりがな」 setting (issue 19): a cookie, so that the server renders the first page with furigana.
 * A page rendered for it differs from a visitor's, so such requests are private (response-policy.server.ts).
 */
export const FURIGANA_COOKIE = 'furigana'
const YEAR_S = 365 * 24 * 60 * 60

export const furiganaCookieOn = (request: Request) => getCookie(request, FURIGANA_COOKIE) === '1'

export function furiganaCookie(on: boolean): string {
  return serializeCookie(FURIGANA_COOKIE, on ? '1' : '', {
    maxAge: on ? YEAR_S : 0,
    httpOnly: true,
    sameSite: 'Lax',
    secure: getConfig().secureCookies,
  })
}
