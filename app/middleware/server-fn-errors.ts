import { createMiddleware } from '@tanstack/react-start'

/**
 * Every server function's failure reaches the browser as a non-2xx status with a Japanese message and a stable
 * `code` (never HTTP 200 with the error inside, never a stack): see app/server/server-fn-errors.server.ts.
 * The mapper is imported on the server only, when something failed.
 */
export const serverFnErrors = createMiddleware({ type: 'function' }).server(async ({ next }) => {
  try {
    return await next()
  } catch (error) {
    const { toServerFnError } = await import('../server/server-fn-errors.server')
    throw toServerFnError(error)
  }
})
