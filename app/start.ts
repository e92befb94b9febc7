import { createCsrfMiddleware, createMiddleware, createStart } from '@tanstack/react-start'
import { redirectTarget } from './lib/redirects'
import { serverFnErrorAdapter } from './lib/server-fn-error'
import { idempotentWrites } from './middleware/idempotency'
import { serverFnErrors } from './middleware/server-fn-errors'

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
 * The /v1 API is bearer-token only (no ambient cookies), so it is exempt; so is the one-click unsubscribe that mail
 * programs POST (RFC 8058), which reads no cookie and acts only on its signed token, and Stripe's webhook, which
 * reads no cookie and is accepted only with a valid signature.
 */
const NO_COOKIE_WRITES = new Set(['/mail/unsubscribe', '/webhooks/stripe'])
const csrf = createCsrfMiddleware({
  filter: ({ request, pathname }) =>
    !SAFE_METHODS.has(request.method) && !pathname.startsWith('/v1/') && !NO_COOKIE_WRITES.has(pathname),
  failureResponse: () =>
    Response.json(
      { code: 'csrf', message: '不正なリクエストです。ページを再読み込みしてください。' },
      { status: 403 },
    ),
})

/**
 * Security and caching headers on every response Start answers (pages, server functions, server routes, /v1,
 * errors, redirects): a per-request nonce for the Content-Security-Policy, which the router puts on every script
 * and style it writes (app/router.tsx reads it from this middleware's context), and Cache-Control from
 * app/server/http-policy.ts. The Node server (scripts/serve.mjs) adds the headers that do not depend on the page.
 */
const responseHeaders = createMiddleware().server(async ({ request, pathname, next }) => {
  const policy = await import('./server/response-policy.server')
  const nonce = policy.newNonce()
  const serverFn = pathname.startsWith('/_serverFn/')
  const refused = serverFn ? await policy.precheckServerFnRequest(request) : undefined
  if (refused) return policy.applyResponsePolicy(request, pathname, refused, nonce)
  try {
    const result = await policy.withQueryCount(() => next({ context: { nonce } }))
    const response = policy.applyResponsePolicy(request, pathname, result.response, nonce)
    result.response = await policy.shareVisitorPage(request, response, nonce)
    return result
  } catch (error) {
    // Start throws out of a server-function request it cannot route (unknown id): the caller's mistake.
    if (!serverFn) throw error
    return policy.applyResponsePolicy(request, pathname, policy.serverFnCallFailed(error), nonce)
  }
})

export const startInstance = createStart(() => ({
  requestMiddleware: [responseHeaders, redirects, csrf],
  functionMiddleware: [serverFnErrors, idempotentWrites],
  serializationAdapters: [serverFnErrorAdapter],
}))
