import '@tanstack/react-start/server-only'
import { type ActionResult, fieldErrorsOf } from '~/lib/action-result'
import { ApiError } from './api-client'
import { setRefusalStatus } from './server-fn-errors.server'
import { UnauthorizedError } from './session-token.server'

/** Runs a /v1 write and turns a refusal (4xx) into an ActionResult the page can show; 5xx still throw. */
export async function toActionResult<T>(run: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run() }
  } catch (error) {
    if (error instanceof UnauthorizedError) {
      setRefusalStatus(401)
      return { ok: false, status: 401, code: 'unauthorized', message: error.message, fieldErrors: {} }
    }
    if (error instanceof ApiError && error.status < 500) {
      setRefusalStatus(error.status, error.code)
      return {
        ok: false,
        status: error.status,
        code: error.code,
        message: error.message,
        fieldErrors: fieldErrorsOf(error.issues),
      }
    }
    throw error
  }
}
