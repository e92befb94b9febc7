import '@tanstack/react-start/server-only'
import { type ActionResult, fieldErrorsOf } from '~/lib/action-result'
import { ApiError } from './api-client'
import { setRefusalStatus } from './server-fn-errors.server'
import { requireAccessToken, UnauthorizedError } from './session-token.server'

/**
 * The refusal of a write whose session ended (401, 'ログインしてください'): an answer the page can act on (the login
 * modal, or the message by the form), not a thrown error shown as "try again later".
 */
export function sessionEnded(): {
  ok: false
  status: 401
  code: 'unauthorized'
  message: string
  fieldErrors: Record<string, string>
} {
  setRefusalStatus(401)
  return {
    ok: false,
    status: 401,
    code: 'unauthorized',
    message: new UnauthorizedError().message,
    fieldErrors: {},
  }
}

/** Runs a /v1 write and turns a refusal (4xx) into an ActionResult the page can show; 5xx still throw. */
export async function toActionResult<T>(run: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await run() }
  } catch (error) {
    if (error instanceof UnauthorizedError) return sessionEnded()
    if (error instanceof ApiError && error.status < 500) {
      setRefusalStatus(error.status, error.code, error.retryAfterS)
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
