import type { User } from '../../contract/v1/users'
import type { MeResult } from './client'
import { ApiError } from './errors'

/**
 * The member's own record, for a page or action that depends on who they are (teaching or not): undefined when
 * they have not registered yet (404). Anything else that is not an answer (the API or its database away, no
 * answer, a refusal) is thrown, so that the page answers it (503, sign in again) instead of showing a teacher the
 * page of someone who does not teach.
 */
export function meOf(result: MeResult): User | undefined {
  if (result.status === 200) return result.data
  if (result.status === 404) return undefined
  throw new ApiError(
    result.status,
    result.code ?? 'upstream_unavailable',
    result.message ?? 'サーバーに接続できませんでした',
  )
}
