import { createMiddleware } from '@tanstack/react-start'

/**
 * One idempotency key per user action on every POST server function, with no change at the call sites
 * (issue #13). In the browser the key comes from app/middleware/idempotency-keys.ts, imported with the first write
 * (a first load makes none). On the server the key is claimed in the database and a repeat gets the first result
 * (app/server/idempotency.server.ts).
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key'

export const idempotentWrites = createMiddleware({ type: 'function' })
  .client(async ({ next, data, method, serverFnMeta }) => {
    if (method !== 'POST' || !serverFnMeta?.id) return next()
    const { actionOf, keyFor, settle } = await import('./idempotency-keys')
    const action = actionOf(serverFnMeta.id, data)
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
