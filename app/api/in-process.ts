/**
 * Requests the app's own BFF hands to the API in the same process (app/server/api-client/transport.ts). They come
 * from a signed-in page render or server function, already behind the session, so the per-token API limit does
 * not count them; only the exact Request objects registered here are recognised (no header or URL can claim it).
 */
const inProcess = new WeakSet<Request>()

export function markInProcess(request: Request): Request {
  inProcess.add(request)
  return request
}

export function isInProcess(request: Request): boolean {
  return inProcess.has(request)
}
