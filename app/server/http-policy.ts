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

/** Paths whose pages are private to a member (the spec's sign-in-required and registration routes). */
const PRIVATE_PATH =
  /^\/(class_attendance|class_management|checkout|follow|information|message|mypage|organization_management|profile|purchase_history|sales_management|register|downloads|auth|test)(\/|$)/

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
  return 'public, max-age=0, must-revalidate'
}
