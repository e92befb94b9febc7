import '@tanstack/react-start/server-only'
import { appendResponseHeader, getRequest } from '@tanstack/react-start/server'
import type { OrganizationDeepMe } from '~/contract/v1/organizations'
import { ApiError, api } from './api-client'
import { getSessionAccessToken, onLogout } from './auth/flow.server'
import { UnauthorizedError } from './session-token.server'

/**
 * GET /v1/organizations/deep_me, cached per session on the server (spec §4) for a short time. The cache is
 * cleared on logout (onLogout) and after the session's own organisation writes; another person's change
 * (an owner removing this member) shows within the TTL.
 */

export const ORG_CACHE_TTL_MS = 30_000
const cache = new Map<string, { expiresAt: number; value: OrganizationDeepMe | null }>()

onLogout(({ sessionId }) => {
  if (sessionId) cache.delete(sessionId)
})

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

/** The organisation the session's user belongs to (null when none), from the cache when fresh. */
export async function cachedOrganization(session: { token: string; sessionId: string }) {
  const hit = cache.get(session.sessionId)
  if (hit && hit.expiresAt > Date.now()) return hit.value
  let value: OrganizationDeepMe | null
  try {
    value = await api.getOrganizationDeepMe(session.token)
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code === 'not_found') value = null
    else throw error
  }
  // Keep the map small: drop expired entries now and then.
  if (cache.size > 1000) for (const [k, v] of cache) if (v.expiresAt <= Date.now()) cache.delete(k)
  cache.set(session.sessionId, { expiresAt: Date.now() + ORG_CACHE_TTL_MS, value })
  return value
}

export function clearOrganizationCache(sessionId: string): void {
  cache.delete(sessionId)
}
