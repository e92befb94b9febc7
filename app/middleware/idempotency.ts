import { createMiddleware } from '@tanstack/react-start'

/**
 * One idempotency key per user action on every POST server function, with no change at the call sites
 * (issue #13). In the browser: a call reuses the key of an earlier call of the same function with the same input
 * until one of them succeeds — so a double tap, or a retry after a network error or a 5xx, carries the same key —
 * and a later identical action (the same message sent again on purpose) gets a new one. On the server the key is
 * claimed in the database and a repeat gets the first result (app/server/idempotency.server.ts).
 */

const pending = new Map<string, string>()

function newKey(): string {
  // crypto.randomUUID needs a secure context; a demo served over plain http on a LAN address is not one.
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

/** The action a call performs: the function and its input (FormData uploads are not keyed). */
export function actionOf(functionId: string, data: unknown): string | undefined {
  if (typeof FormData !== 'undefined' && data instanceof FormData) return undefined
  return `${functionId}:${JSON.stringify(data ?? null)}`
}

/** The key for this action: the pending one of an earlier unfinished attempt, or a new one. */
export function keyFor(action: string): string {
  let key = pending.get(action)
  if (!key) {
    key = newKey()
    pending.set(action, key)
  }
  return key
}

/** After an attempt: keep the key only when the same action may be retried (no answer, or our fault). */
export function settle(action: string, error?: unknown): void {
  const status = (error as { status?: unknown } | undefined)?.status
  const retryable = error !== undefined && (typeof status !== 'number' || status >= 500)
  if (!retryable) pending.delete(action)
}

export const IDEMPOTENCY_HEADER = 'idempotency-key'

export const idempotentWrites = createMiddleware({ type: 'function' })
  .client(async ({ next, data, method, serverFnMeta }) => {
    const action = method === 'POST' && serverFnMeta?.id ? actionOf(serverFnMeta.id, data) : undefined
    if (!action) return next()
    const key = keyFor(action)
    try {
      const result = await next({ headers: { [IDEMPOTENCY_HEADER]: key } })
      settle(action)
      return result
    } catch (error) {
      settle(action, error)
      throw error
    }
  })
  .server(async (ctx) => {
    const { runIdempotent } = await import('../server/idempotency.server')
    const next = ctx.next as unknown as () => Promise<{ result?: unknown }>
    return runIdempotent(ctx.serverFnMeta?.id, ctx.data, next, ctx) as unknown as ReturnType<typeof ctx.next>
  })
