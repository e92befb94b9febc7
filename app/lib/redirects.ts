/**
 * Redirects of spec §2, as a pure function so that the request middleware and its tests share it.
 * Returns the target (path + query) or undefined.
 */
const APPLE_TOUCH_ICON = '/apple-touch-icon.png'
const appleTouchIconPattern = /^\/apple-touch-icon(-\d+x\d+)?(-precomposed)?\.png$/

export function redirectTarget(pathname: string, search = ''): string | undefined {
  if (pathname !== APPLE_TOUCH_ICON && appleTouchIconPattern.test(pathname)) return APPLE_TOUCH_ICON
  if (pathname.includes('/private/') || pathname.endsWith('/private')) {
    // One leading slash only: `/private//evil.example` must not become the protocol-relative `//evil.example`.
    const stripped = pathname.replace(/\/private(?=\/|$)/g, '').replace(/^[/\\]*/, '/')
    return stripped + search
  }
  return undefined
}
