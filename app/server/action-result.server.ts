import '@tanstack/react-start/server-only'
import { type ActionResult, fieldErrorsOf } from '~/lib/action-result'
import { ApiError } from './api-client'
import { setRefusalStatus } from './server-fn-errors.server'
import { requireAccessToken, UnauthorizedError } from './session-token.server'

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

/**
 * toActionResult for a member's write: the session is read inside it, so a session that ended meanwhile comes back
 * as a 401 refusal the page can act on (the login modal), not as a thrown error shown as "try again later".
 */
export function memberActionResult<T>(run: (token: string) => Promise<T>): Promise<ActionResult<T>> {
  return toActionResult(async () => run(await requireAccessToken()))
}
