import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { redirectTarget } from './lib/redirects'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Spec §2 redirects: /private/ segments (301) and Apple touch icon variants. */
const redirects = createMiddleware().server(({ request, next }) => {
  const url = new URL(request.url)
  const target = redirectTarget(url.pathname, url.search)
  if (target) return new Response(null, { status: 301, headers: { Location: target } })
  return next()
})

/**
 * Every cookie-authenticated write (server functions, /auth routes) must come from our own pages.
 * The /v1 API is bearer-token only (no ambient cookies), so it is exempt.
 */
const csrf = createCsrfMiddleware({
  filter: ({ request, pathname }) => !SAFE_METHODS.has(request.method) && !pathname.startsWith('/v1/'),
  failureResponse: () =>
    Response.json(
      { code: 'csrf', message: '不正なリクエストです。ページを再読み込みしてください。' },
      { status: 403 },
    ),
})

export const startInstance = createStart(() => ({
  requestMiddleware: [redirects, csrf],
}))
