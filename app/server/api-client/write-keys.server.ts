import '@tanstack/react-start/server-only'
import { AsyncLocalStorage } from 'node:async_hooks'
import { createHash } from 'node:crypto'

/**
 * The Idempotency-Key of each /v1 write a server function makes while it runs under the browser's key
 * (app/server/idempotency.server.ts). Derived from that key, the write's place in the function (1st, 2nd…) and the
 * request itself, so a retry of the function sends the same keys in the same order. /v1 then keeps its claim when
 * its answer was its request timeout (0043): a write that went on and committed after that 503 is not made again
 * by the retry the browser sends under the same key (a message sent twice). The request is in the key too, so that
 * one key never stands for two different writes (a function whose write depends on what it read first).
 */
const scope = new AsyncLocalStorage<{ key: string; writes: number }>()

export function withWriteKeys<T>(key: string, run: () => Promise<T>): Promise<T> {
  return scope.run({ key, writes: 0 }, run)
}

/**
 * The key for the next /v1 write of this server function (`request`: its path and JSON body, written only when a
 * key is made; a page render's reads make none), or undefined outside one run under a key.
 */
export function nextWriteKey(method: string, request: () => string): string | undefined {
  const current = scope.getStore()
  if (!current || method === 'GET') return undefined
  current.writes += 1
  const hash = createHash('sha256').update(`${current.key}\n${current.writes}\n${method}\n${request()}`)
  return `bff-${hash.digest('base64url')}`
}
