import type { ServerResponse } from 'node:http'

/**
 * Works around a Node 20 behaviour that drops cookies: `res.writeHead(status, reason, rawHeaders)` with a flat
 * `[name, value, name, value…]` array, on a response that already had any header set with `setHeader` (Vite's
 * dev middlewares set `Vary`), keeps only the last value of a repeated header — so of several `Set-Cookie`
 * headers only the last one reaches the browser. srvx (Start's Node adapter) writes responses exactly that way.
 *
 * Call it on every Node response before the Start handler writes it (dev middleware and production server alike).
 * Repeated Set-Cookie values are moved into one `setHeader('set-cookie', [...])`, which Node sends as separate
 * header lines. Dependency-free, so vite.config.ts and plain .mjs servers can use it.
 */
const PATCHED = Symbol.for('manabi.preserveRepeatedSetCookie')

type Patched = ServerResponse & { [PATCHED]?: true }

export function preserveRepeatedSetCookie(res: ServerResponse): void {
  const target = res as Patched
  if (target[PATCHED]) return
  target[PATCHED] = true
  const original = res.writeHead
  res.writeHead = function writeHead(this: ServerResponse, statusCode: number, ...rest: unknown[]) {
    const last = rest.length - 1
    const headers = rest[last]
    if (Array.isArray(headers) && headers.length > 0 && !Array.isArray(headers[0])) {
      const cookies: string[] = []
      const others: unknown[] = []
      for (let i = 0; i + 1 < headers.length; i += 2) {
        if (String(headers[i]).toLowerCase() === 'set-cookie') cookies.push(String(headers[i + 1]))
        else others.push(headers[i], headers[i + 1])
      }
      if (cookies.length > 0) {
        const existing = this.getHeader('set-cookie')
        const before = existing === undefined ? [] : Array.isArray(existing) ? existing : [String(existing)]
        this.setHeader('set-cookie', [...before, ...cookies])
        rest[last] = others
      }
    }
    return (original as (...args: unknown[]) => ServerResponse).call(this, statusCode, ...rest)
  } as ServerResponse['writeHead']
}
