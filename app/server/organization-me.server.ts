import '@tanstack/react-start/server-only'
import { appendResponseHeader, getRequest } from '@tanstack/react-start/server'
import type { OrganizationDeepMe } from '~/contract/v1/organizations'
import { ApiError, api } from './api-client'
import { getSessionAccessToken } from './auth/flow.server'
import { UnauthorizedError } from './session-token.server'

/**
 * GET /v1/organizations/deep_me for the signed-in person, asked every time. It was cached per session in each
 * instance for 30 s: another instance's write (a join, a rename, a member removed) was not seen there, and a read
 * racing the session's own write refilled it with the old answer (docs/decisions/0007). The pages that use it are
 * private and ask once per load.
 */

async function currentSession() {
  const session = await getSessionAccessToken(getRequest(), {
    onSetCookie: (header) => appendResponseHeader('set-cookie', header),
  })
  if (!session) throw new UnauthorizedError()
  return session
}

/** The signed-in person's access token and session id. */
export async function requireSession(): Promise<{ token: string; sessionId: string }> {
  const s = await currentSession()
  return { token: s.accessToken, sessionId: s.sessionId }
}

/** The organisation the session's user belongs to (null when none). */
export async function currentOrganization(session: { token: string }): Promise<OrganizationDeepMe | null> {
  try {
    return await api.getOrganizationDeepMe(session.token)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code === 'not_found') return null
    throw error
  }
}
