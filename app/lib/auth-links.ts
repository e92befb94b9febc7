/** The path that starts the sign-in redirect; the server accepts same-origin returnTo paths only. */
export function loginHref(returnTo: string, opts: { signup?: boolean } = {}) {
  const params = new URLSearchParams({ returnTo })
  if (opts.signup) params.set('screen_hint', 'signup')
  return `/auth/login?${params.toString()}`
}

export const LOGOUT_HREF = '/auth/logout'
