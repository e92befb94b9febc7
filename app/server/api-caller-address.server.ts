import type { Http2Bindings, HttpBindings } from '@hono/node-server'
import { apiCallerAddress } from '../lib/forwarded.js'

type Fetch = (request: Request, env: HttpBindings | Http2Bindings) => Response | Promise<Response>

/**
 * For the /v1 API served alone (scripts/api.ts): every request reaches the API with X-Real-IP set to the caller's
 * address as apiCallerAddress decides it (the app's server may pass the browser's; nobody else may choose theirs),
 * so that the audit log records where an operator's act came from.
 */
export function withCallerAddress(fetch: Fetch, trustedPeers: readonly string[]): Fetch {
  return (request, env) => {
    const headers = new Headers(request.headers)
    headers.set(
      'x-real-ip',
      apiCallerAddress(request.headers.get('x-real-ip'), env.incoming.socket.remoteAddress, trustedPeers),
    )
    return fetch(new Request(request, { headers }), env)
  }
}
