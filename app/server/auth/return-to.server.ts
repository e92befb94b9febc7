/**
 * Where a login may send the browser back to: same-origin relative paths only. Anything else — absolute URLs,
 * protocol-relative `//host`, backslash tricks (`/\host`, which browsers read as `//host`), control characters,
 * or the auth and identity-provider routes themselves — becomes `fallback` ('/').
 */
const BASE = 'http://return-to.invalid'
const MAX_LENGTH = 2048

export function sanitizeReturnTo(value: string | null | undefined, fallback = '/'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return fallback
  if (!value.startsWith('/') || value.startsWith('//')) return fallback
  // Backslashes and control characters can turn a path into another origin in some browsers.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return fallback
  let url: URL
  try {
    url = new URL(value, BASE)
  } catch {
    return fallback
  }
  if (url.origin !== BASE) return fallback
  const path = `${url.pathname}${url.search}${url.hash}`
  if (path.startsWith('//')) return fallback
  if (/^\/(auth|idp)(\/|$|\?|#)/.test(url.pathname)) return fallback
  return path
}
