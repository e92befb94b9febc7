import '@tanstack/react-start/server-only'
import { randomBytes } from 'node:crypto'
import { countQueries } from '../db/query-count'
import { getCookie } from './auth/cookies.server'
import { authCookieNames } from './auth/session.server'
import { getConfig } from './config'
import { cacheControlFor, contentSecurityPolicy } from './http-policy'
import { normalizeServerFnFailure } from './server-fn-errors.server'

export { precheckServerFnRequest, serverFnCallFailed } from './server-fn-errors.server'

/**
 * With QUERY_COUNT_HEADER=1 (benchmarks and tests), runs the request counting its database statements and answers
 * them in `X-DB-Queries`; otherwise just runs it.
 */
export async function withQueryCount<R extends { response: Response }>(
  run: () => R | Promise<R>,
): Promise<R> {
  if (!getConfig().queryCountHeader) return run()
  const { result, counter } = countQueries(run)
  const done = await result
  done.response = new Response(done.response.body, done.response)
  done.response.headers.set('x-db-queries', String(counter.queries))
  return done
}

export function newNonce(): string {
  return randomBytes(18).toString('base64')
}

/** The request comes from a signed-in member (session cookie) or an API client (bearer token). */
function isPersonal(request: Request): boolean {
  if (request.headers.has('authorization')) return true
  const names = authCookieNames(getConfig().secureCookies)
  return getCookie(request, names.session) !== undefined
}

/** Sets CSP (unless the handler wrote its own, e.g. the /v1 docs page) and Cache-Control on a response. */
export function applyResponsePolicy(request: Request, pathname: string, response: Response, nonce: string) {
  const config = getConfig()
  const formActions = config.auth0 ? [`https://${config.auth0.domain}`] : []
  const set = (target: Response) => {
    if (!target.headers.has('content-security-policy'))
      target.headers.set(
        'content-security-policy',
        contentSecurityPolicy({
          nonce,
          formActions,
          secure: config.secureCookies,
          stripe: Boolean(config.stripe),
        }),
      )
    target.headers.set(
      'cache-control',
      cacheControlFor({
        method: request.method,
        pathname,
        personal: isPersonal(request),
        status: response.status,
        existing: target.headers.get('cache-control'),
      }),
    )
    if (!target.headers.has('vary')) target.headers.set('vary', 'Cookie')
  }
  if (pathname.startsWith('/_serverFn/')) response = normalizeServerFnFailure(response)
  try {
    set(response)
    return response
  } catch {
    // Immutable headers (Response.redirect, a fetched response): the same body and status with a copy of them.
    const copy = new Response(response.body, response)
    set(copy)
    return copy
  }
}
