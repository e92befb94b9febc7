/**
 * The app's HTTP response policy, as pure functions (unit-tested; applied by the request middleware in
 * app/start.ts): the Content-Security-Policy of a page and the Cache-Control of any response.
 */

export interface CspOptions {
  /** Per-request nonce carried by every script and style the app itself writes into a page. */
  nonce: string
  /** Extra origins a form submission may end at (Auth0's logout, when configured). */
  formActions?: string[]
  /** https sites: upgrade any stray http sub-resource. */
  secure?: boolean
  /** Stripe is the payment provider: its Stripe.js, frames and API (only then; issue 17). */
  stripe?: boolean
}

/**
 * A nonce-based policy: scripts only from the app's origin or carrying this response's nonce ('strict-dynamic'
 * lets those load the code-split chunks they import); no plugins, no <base>, never framed.
 * React's `style={…}` attributes need style-src-attr 'unsafe-inline'; style elements need the nonce.
 */
export function contentSecurityPolicy({
  nonce,
  formActions = [],
  secure = false,
  stripe = false,
}: CspOptions): string {
  const n = `'nonce-${nonce}'`
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${n} 'strict-dynamic'${stripe ? ' https://js.stripe.com' : ''}`,
    `style-src 'self' ${n}`,
    `style-src-elem 'self' ${n}`,
    "style-src-attr 'unsafe-inline'",
    `img-src 'self' data: blob:${stripe ? ' https://*.stripe.com' : ''}`,
    "font-src 'self' data:",
    `connect-src 'self'${stripe ? ' https://api.stripe.com' : ''}`,
    ...(stripe ? ["frame-src 'self' https://js.stripe.com https://hooks.stripe.com"] : []),
    "media-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    ["form-action 'self'", ...formActions].join(' '),
    "frame-ancestors 'none'",
    "manifest-src 'self'",
    "worker-src 'self'",
  ]
  if (secure) directives.push('upgrade-insecure-requests')
  return directives.join('; ')
}

/**
 * Paths whose pages are private to a member (the spec's sign-in-required and registration routes), and those
 * rendered for one member by a secret in the address (the unsubscribe link of a mail), signed in or not.
 */
const PRIVATE_PATH =
  /^\/(admin|class_attendance|class_management|checkout|follow|information|message|mypage|notification_settings|organization_management|profile|purchase_history|sales_management|register|downloads|auth|test|unsubscribe)(\/|$)/

export interface CacheInput {
  method: string
  pathname: string
  /** The request carries a session cookie (a signed-in member) or an Authorization header. */
  personal: boolean
  status: number
  /** Cache-Control the handler chose itself, if any. */
  existing: string | null
}

/**
 * What may be cached. Anything answered for a person, any private page and every server function or write:
 * `private, no-store` (Back after logout must not show the previous member's page). Public pages: any cache may
 * keep them but must ask again before reuse (they carry a per-response nonce and the signed-in state).
 * A public handler's own choice (uploads, robots.txt) is kept; an immutable public file (an upload under its random
 * name) keeps it even for a signed-in member.
 */
export function cacheControlFor(input: CacheInput): string {
  const { method, pathname, personal, status, existing } = input
  // Content-addressed public files (uploads under random names) are the same for everyone.
  if (existing?.includes('immutable') && existing.includes('public') && method === 'GET') return existing
  if (personal || PRIVATE_PATH.test(pathname) || pathname.startsWith('/_serverFn')) return 'private, no-store'
  if (method !== 'GET' && method !== 'HEAD') return 'no-store'
  if (existing) return existing
  if (status >= 400) return 'no-store'
  return PUBLIC_REVALIDATE
}

/**
 * Cache-Control of a public page rendered for a visitor (no cookie, no token): a shared cache (CDN, reverse proxy)
 * may answer it for 30 s and serve it stale for 60 s more while it revalidates with If-None-Match; browsers always
 * ask again (max-age=0). Seat counts on it are then at most 30 s old for a visitor, who cannot book without signing
 * in, and a signed-in member's pages are never shared (docs/decisions/0026).
 */
export const VISITOR_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=30, stale-while-revalidate=60'

/** What cacheControlFor answers for a public page with no choice of its own. */
export const PUBLIC_REVALIDATE = 'public, max-age=0, must-revalidate'

export interface StablePage {
  /** Identifies the content: the same for two renders that differ only in nonce and render time. */
  digest: string
  /** The page's UTF-8 bytes, carrying `nonce`. */
  bytes: Uint8Array<ArrayBuffer>
  nonce: string
  etag: string
}

/**
 * The render times written into a page's dehydrated state: TanStack Router's and Query's (a match's `u`, a query's
 * `dehydratedAt` / `dataUpdatedAt` / `errorUpdatedAt`, epoch milliseconds) and the server clock a loader hands the
 * page (`now`, ISO 8601; the class page splits past and upcoming lessons by it). Two renders of the same content
 * differ only in these and in the nonce. Unquoted keys: content strings are always quoted in the serialized state.
 * ASCII only, and `\b`, `\d` are ASCII classes, so it matches the page's UTF-8 bytes read as Latin-1 exactly where
 * it matches the page's text.
 */
export const RENDER_TIMES =
  /\b(u|dehydratedAt|dataUpdatedAt|errorUpdatedAt):\d{13}\b|\bnow:"\d{4}-\d\d-\d\dT[\d:.]+Z"/g

/** RENDER_TIMES where it starts at a given place (lastIndex). */
const RENDER_TIME_AT = new RegExp(RENDER_TIMES.source, 'y')
const COLON_BEFORE_KEY = {
  u: ['u'],
  w: ['now'],
  t: ['dehydratedAt', 'dataUpdatedAt', 'errorUpdatedAt'],
} as Record<string, string[] | undefined>

/**
 * The matches of RENDER_TIMES in `text`, in order, found from its colons: every render time has one right after its
 * key. The same matches as `text.matchAll(RENDER_TIMES)` in a third of the time (18 µs instead of 53 on the home
 * page): the pattern's leading `\b` and alternation make the engine try it at every character, and a page has a
 * colon every ~80.
 */
export function renderTimesIn(text: string): { index: number; time: string }[] {
  const found: { index: number; time: string }[] = []
  for (let colon = text.indexOf(':'); colon !== -1; colon = text.indexOf(':', colon + 1)) {
    const keys = COLON_BEFORE_KEY[text.charAt(colon - 1)]
    if (!keys) continue
    for (const key of keys) {
      const index = colon - key.length
      if (index < 0 || !text.startsWith(key, index)) continue
      RENDER_TIME_AT.lastIndex = index
      const time = RENDER_TIME_AT.exec(text)?.[0]
      if (time === undefined) continue
      found.push({ index, time })
      // Matches never overlap: the search goes on after this one (an ISO time holds colons of its own).
      colon = index + time.length - 1
      break
    }
  }
  return found
}

/**
 * Makes a visitor's page the same for every visitor while its content is the same: the per-request nonce is
 * replaced by one derived from the content (an HMAC under a server secret, so an injected script could only carry
 * it by predicting the HMAC of a page that contains itself), and the strong ETag names the resulting bytes.
 * `digest` names the content without render times: `known(digest)` gives the page already served for it,
 * whose exact bytes are answered again (shareVisitorPage) without building or hashing them a second time.
 * `hmac(parts)` is a keyed HMAC-SHA-256 of the parts in order and `hash(data)` a SHA-256, both as base64url.
 *
 * It works on the page's bytes, never on its text: the page is sent as bytes, and reading them as Latin-1 (one
 * character a byte, ASCII where the text is ASCII) finds the nonce (ASCII) and the render times at byte offsets. So
 * the page is neither encoded again for the digest nor joined and encoded again for the answer (~0.1 ms of a
 * 68 KB home page, a third of this function's cost, docs/decisions/0026).
 */
export function stabilizePage(
  html: Uint8Array,
  requestNonce: string,
  crypto: { hmac: (parts: (Uint8Array | string)[]) => string; hash: (data: string) => string },
  known: (digest: string) => StablePage | undefined = () => undefined,
): StablePage {
  const source = Buffer.from(html.buffer, html.byteOffset, html.byteLength)
  const text = source.toString('latin1')
  const nonceAt: number[] = []
  // (An empty nonce is found nowhere: searching for it would find it everywhere, for ever.)
  for (
    let at = requestNonce ? text.indexOf(requestNonce) : -1;
    at !== -1;
    at = text.indexOf(requestNonce, at + requestNonce.length)
  )
    nonceAt.push(at)
  const times: string[] = []
  // The content as the digest reads it: the page without its nonce, each render time as `<time>`.
  const content: (Uint8Array | string)[] = []
  let from = 0
  const cut = (at: number, end: number, instead?: string) => {
    if (at > from) content.push(source.subarray(from, at))
    if (instead) content.push(instead)
    from = end
  }
  let next = 0
  for (const { index, time } of renderTimesIn(text)) {
    // The nonces before this render time. The two never overlap: base64 has no ':', which every render time holds.
    for (; next < nonceAt.length && nonceAt[next]! < index; next++)
      cut(nonceAt[next]!, nonceAt[next]! + requestNonce.length)
    // Its place in the page without the nonce, which any request's nonce leaves the same.
    times.push(`${index - next * requestNonce.length}:${time}`)
    cut(index, index + time.length, '<time>')
  }
  for (; next < nonceAt.length; next++) cut(nonceAt[next]!, nonceAt[next]! + requestNonce.length)
  if (from < source.length) content.push(source.subarray(from))
  const digest = crypto.hmac(content)
  const served = known(digest)
  if (served) return served
  // base64url has no '/' or '+', so the nonce is valid in a CSP source and an HTML attribute as it is.
  const nonce = digest.slice(0, 24)
  const bytes = withNonce(source, nonceAt, requestNonce.length, nonce)
  // The bytes follow from what the digest names, where the nonce stood and each render time with its place, so
  // hashing those names them as surely as hashing the whole page again would, at a fraction of the cost.
  const made = `${digest}\n${nonceAt.map((at, i) => at - i * requestNonce.length).join(',')}\n${times.join('\n')}`
  return { digest, bytes, nonce, etag: `"${crypto.hash(made).slice(0, 32)}"` }
}

/** A copy of `page` with the `length` bytes at each offset in `at` replaced by `nonce` (ASCII). */
function withNonce(page: Buffer, at: number[], length: number, nonce: string): Uint8Array<ArrayBuffer> {
  const stable = Buffer.from(nonce, 'latin1')
  const parts: Uint8Array[] = []
  let from = 0
  for (const start of at) {
    parts.push(page.subarray(from, start), stable)
    from = start + length
  }
  parts.push(page.subarray(from))
  return Buffer.concat(parts) as Uint8Array<ArrayBuffer>
}

/** RFC 9110 §13.1.2: If-None-Match compares weakly; `*` matches any current representation. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag))
}
