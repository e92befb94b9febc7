import '@tanstack/react-start/server-only'
import { createHash, createHmac, randomBytes } from 'node:crypto'
import { promisify } from 'node:util'
import zlib, { constants as zlibConstants } from 'node:zlib'
import { LRUCache } from 'lru-cache'
import { currentPageReads } from '../db/page-reads'
import { countQueries } from '../db/query-count'
import { preferredEncoding } from '../lib/accept-encoding.js'
import { getCookie } from './auth/cookies.server'
import { deriveSecret, resolveSessionSecret } from './auth/secret.server'
import { authCookieNames } from './auth/session.server'
import { getConfig } from './config'
import { furiganaCookieOn } from './furigana-cookie.server'
import {
  cacheControlFor,
  contentSecurityPolicy,
  etagMatches,
  PUBLIC_REVALIDATE,
  type StablePage,
  stabilizePage,
  VISITOR_PAGE_CACHE_CONTROL,
} from './http-policy'
import { renderedBytes } from './render-page.server'
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

/**
 * The request comes from a signed-in member (session cookie), an API client (bearer token), or a device in
 * furigana mode (its pages are not the visitor's pages).
 */
function isPersonal(request: Request): boolean {
  if (request.headers.has('authorization') || furiganaCookieOn(request)) return true
  const names = authCookieNames(getConfig().secureCookies)
  return getCookie(request, names.session) !== undefined
}

/** Sets CSP (unless the handler wrote its own, e.g. the /v1 docs page) and Cache-Control on a response. */
export function applyResponsePolicy(request: Request, pathname: string, response: Response, nonce: string) {
  const set = (target: Response) => {
    if (!target.headers.has('content-security-policy'))
      target.headers.set('content-security-policy', cspFor(nonce))
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

function cspFor(nonce: string): string {
  const config = getConfig()
  return contentSecurityPolicy({
    nonce,
    formActions: config.auth0 ? [`https://${config.auth0.domain}`] : [],
    secure: config.secureCookies,
    stripe: Boolean(config.stripe),
  })
}

/**
 * Visitor pages recently answered, by content. Their render times (the dehydrated state's, and the server clock the
 * class page splits lessons by) age with them, so an entry lives only as long as a shared cache may keep the page
 * fresh (s-maxage): what a visitor gets is never older than what a CDN in front would give them.
 */
const servedPages = new LRUCache<string, ServedPage>({
  maxSize: 32 * 1024 * 1024,
  sizeCalculation: (page) => page.bytes.byteLength + page.compressedBytes || 1,
  ttl: 30_000,
})

/** What the visitor-page cache holds (tests: that what it keeps is what its bound counts). */
export const keptPagesForTest = () => [...servedPages.values()]

/**
 * A page as answered, with its bytes and their compressed forms: encoded and compressed once, not on every request
 * that answers it again (compressing the home page costs ~3.5 ms at brotli's level 5, about half of rendering it).
 */
interface ServedPage extends StablePage {
  compressed: { br?: Promise<Uint8Array<ArrayBuffer>>; gzip?: Promise<Uint8Array<ArrayBuffer>> }
  /** Counted in the cache's size once made, so that its bound holds for them too. */
  compressedBytes: number
}

/**
 * The page compressed with the Node server's settings for a response it compresses as it goes (scripts/serve.mjs),
 * off the event loop; once made, counted in the cache's size (without renewing the page's time to live).
 */
async function compress(page: ServedPage, encoding: 'br' | 'gzip'): Promise<Uint8Array<ArrayBuffer>> {
  const made =
    encoding === 'br'
      ? await brotliCompress(page.bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } })
      : await gzip(page.bytes, { level: 6 })
  page.compressedBytes += made.byteLength
  if (servedPages.peek(page.digest) === page) servedPages.set(page.digest, page, { noUpdateTTL: true })
  return new Uint8Array(made)
}
const brotliCompress = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

let pageKey: string | undefined
function pageNonceKey(): string {
  pageKey ??= deriveSecret(resolveSessionSecret(getConfig()), 'page-nonce')
  return pageKey
}

/**
 * A public page answered to a visitor (after applyResponsePolicy): made shareable by a CDN or reverse proxy —
 * the same bytes for every visitor while the content is the same (content-derived nonce), a strong ETag, s-maxage
 * with stale-while-revalidate, and 304 to a matching If-None-Match. Anything else is returned as it is: personal
 * or private responses, errors, non-HTML, responses that set a cookie (docs/decisions/0026).
 */
export async function shareVisitorPage(
  request: Request,
  response: Response,
  nonce: string,
): Promise<Response> {
  if (
    request.method !== 'GET' ||
    response.status !== 200 ||
    response.headers.get('cache-control') !== PUBLIC_REVALIDATE ||
    // A handler with a policy of its own (the /v1 docs page) keeps it.
    response.headers.get('content-security-policy') !== cspFor(nonce) ||
    !response.headers.get('content-type')?.startsWith('text/html') ||
    response.headers.has('set-cookie') ||
    !response.body
  )
    return response
  const key = pageNonceKey()
  // The digest names the content at this address: the render-time pattern could also match text a visitor chose
  // (a keyword "u:1111111111111"), and two addresses must never be answered with each other's bytes.
  const address = pageAddress(request)
  // The first render of this content is answered again, byte for byte, so that its ETag holds.
  const stable = stabilizePage(
    renderedBytes(response) ?? new Uint8Array(await response.arrayBuffer()),
    nonce,
    {
      hmac: (parts) => {
        const hmac = createHmac('sha256', key).update(address).update('\n')
        for (const part of parts) hmac.update(part)
        return hmac.digest('base64url')
      },
      hash: (data) => createHash('sha256').update(data).digest('base64url'),
    },
    (digest) => servedPages.get(digest),
  )
  let page = servedPages.get(stable.digest)
  if (!page) {
    page = { ...stable, compressed: {}, compressedBytes: 0 }
    servedPages.set(page.digest, page)
  }
  const headers = new Headers(response.headers)
  headers.delete('content-length')
  headers.delete('x-db-queries')
  headers.set('content-security-policy', cspFor(page.nonce))
  headers.set('cache-control', VISITOR_PAGE_CACHE_CONTROL)
  headers.set('etag', page.etag)
  // What a cache in front must key the page by: a member's cookie makes another page, and the body's coding.
  headers.set('vary', 'Cookie, Accept-Encoding')
  const reads = currentPageReads()
  if (reads && !reads.live)
    renderedPages.set(address, {
      digest: page.digest,
      page: new WeakRef(page),
      checks: reads.checks,
      headers,
    })
  const answer = await answerPage(request, page, new Headers(headers))
  const queries = response.headers.get('x-db-queries')
  if (queries !== null) answer.headers.set('x-db-queries', queries)
  return answer
}

/**
 * Visitor pages by address whose every read came from the API client's shared caches (docs/decisions/0033): while
 * each of those caches still holds the very result the page was rendered from, the page is answered again without
 * rendering. The caches are emptied on every instance by any write that may change what they hold (the crowd
 * issue's `search_invalidate`), so a booked seat shows on the next request; and an entry lives no longer than its
 * page may be kept by a CDN (s-maxage), which bounds what the server clock at the render (a lesson just ended) may
 * have aged.
 */
const renderedPages = new LRUCache<string, RenderedPage>({ max: 2000, ttl: 30_000 })

interface RenderedPage {
  digest: string
  /**
   * The page as answered, while servedPages still holds it. Held weakly: the 32 MB bound of servedPages holds for
   * kept pages too (2,000 addresses of distinct pages would otherwise keep their bytes alive).
   */
  page: WeakRef<ServedPage>
  /** The reads it was rendered from (page-reads.ts). */
  checks: (() => boolean)[]
  /** Its response's headers, before a content coding. */
  headers: Headers
}

/**
 * Whether this request would be rendered exactly as the visitor's page that was kept: no member, API client or
 * furigana device (isPersonal), no one-time message to show and clear (the flash cookie the login flow leaves), and
 * an Accept that takes HTML (Start answers others 406).
 */
function rendersAsKept(request: Request): boolean {
  return (
    !isPersonal(request) &&
    getCookie(request, authCookieNames(getConfig().secureCookies).flash) === undefined &&
    /(^|,)\s*(\*\/\*|text\/html)/.test(request.headers.get('accept') || '*/*')
  )
}

const pageAddress = (request: Request) => {
  const url = new URL(request.url)
  return url.pathname + url.search
}

/**
 * A visitor's page answered without rendering, if it was rendered from reads that are all still current; else
 * undefined, and the request is rendered (inside trackPageReads, so that shareVisitorPage can keep its page).
 */
export function answerRenderedPage(request: Request): Promise<Response> | undefined {
  if (request.method !== 'GET' || !rendersAsKept(request)) return undefined
  const address = pageAddress(request)
  const rendered = renderedPages.get(address)
  if (!rendered) return undefined
  // The very page it was kept with (not another render of the same content, whose bytes and ETag differ).
  const kept = rendered.page.deref()
  const page = kept && servedPages.get(rendered.digest) === kept ? kept : undefined
  if (!page || !rendered.checks.every((stillCurrent) => stillCurrent())) {
    renderedPages.delete(address)
    return undefined
  }
  const answer = answerPage(request, page, new Headers(rendered.headers))
  // Benchmarks and tests (QUERY_COUNT_HEADER=1) see that the page was kept, not rendered.
  return getConfig().queryCountHeader
    ? answer.then((response) => {
        response.headers.set('x-db-queries', '0')
        response.headers.set('x-page', 'kept')
        return response
      })
    : answer
}

/** A kept page answered: 304 to a matching If-None-Match, else its bytes in the coding the client prefers. */
async function answerPage(request: Request, page: ServedPage, headers: Headers): Promise<Response> {
  // The 304 carries the page's own headers, CSP included: a browser updates the stored response's headers from it
  // (one without a CSP would get the server's nonce-less default and block the stored page's scripts).
  if (etagMatches(request.headers.get('if-none-match'), page.etag))
    return new Response(null, { status: 304, headers })
  const encoding = preferredEncoding(request.headers.get('accept-encoding'))
  if (!encoding) return new Response(page.bytes, { status: 200, headers })
  page.compressed[encoding] ??= compress(page, encoding)
  const pending = page.compressed[encoding]
  const body = await pending.catch(() => {
    // Tried again by the next request; this one goes out as it is.
    if (page.compressed[encoding] === pending) delete page.compressed[encoding]
    return undefined
  })
  if (!body) return new Response(page.bytes, { status: 200, headers })
  // Marked as compressed, the Node server sends it as it is (scripts/serve.mjs compresses only what is not).
  headers.set('content-encoding', encoding)
  headers.set('content-length', String(body.byteLength))
  return new Response(body, { status: 200, headers })
}
