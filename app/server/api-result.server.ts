import '@tanstack/react-start/server-only'
import { ApiError } from './api-client'
import { setRefusalStatus } from './server-fn-errors.server'

/** What a write server function answers: success, or the API's Japanese message with per-field errors. */
export type WriteResult<T> =
  | { ok: true; data: T }
  | { ok: false; status: number; code: string; message: string; fieldErrors: Record<string, string> }

/** Runs an API write; a 4xx becomes `{ ok: false }` (the form keeps its state), anything else throws. */
export async function writeResult<T>(run: () => Promise<T>): Promise<WriteResult<T>> {
  try {
    return { ok: true, data: await run() }
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      setRefusalStatus(error.status, error.code)
      const fieldErrors: Record<string, string> = {}
      for (const issue of (error.issues ?? []) as { path?: (string | number)[]; message?: string }[]) {
        const key = issue.path?.join('.')
        if (key && issue.message && !fieldErrors[key]) fieldErrors[key] = issue.message
      }
      return { ok: false, status: error.status, code: error.code, message: error.message, fieldErrors }
    }
    throw error
  }
}
