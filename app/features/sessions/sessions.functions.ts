import { createServerFn } from '@tanstack/react-start'
import { getRequest } from '@tanstack/react-start/server'
import { z } from 'zod'
import { describeUserAgent } from '~/lib/user-agent'
import { getAuthFlow } from '~/server/auth/flow.server'
import { getSessionStore } from '~/server/auth/session.server'
import { setRefusalStatus } from '~/server/server-fn-errors.server'
import { UnauthorizedError } from '~/server/session-token.server'

/** The signed-in member's session for this request, or 401. */
async function currentSession() {
  const session = await getSessionStore().readSession(getRequest())
  if (!session) throw new UnauthorizedError()
  return session
}

/** The member's signed-in devices (only their own), most recently used first. */
export const getSessions = createServerFn({ method: 'GET' }).handler(async () => {
  const session = await currentSession()
  const list = await getSessionStore().listSessions(session.claims.sub, session.sid)
  return list.map((s) => ({
    id: s.id,
    device: describeUserAgent(s.userAgent),
    created_at: s.createdAt.toISOString(),
    last_seen_at: s.lastSeenAt.toISOString(),
    current: s.current,
  }))
})

/** この端末以外からログアウト: every other session of the member ends now, on every instance. */
export const endOtherSessions = createServerFn({ method: 'POST' }).handler(async () => {
  await currentSession()
  const deleted = await getAuthFlow().endSessions(getRequest(), 'others')
  return { ok: true as const, deleted: deleted ?? 0 }
})

/** Ends one of the member's other sessions; another member's (or an unknown) id is 404 and changes nothing. */
export const endSession = createServerFn({ method: 'POST' })
  .validator(z.object({ id: z.string().min(1).max(100) }))
  .handler(async ({ data }) => {
    await currentSession()
    const deleted = await getAuthFlow().endSessions(getRequest(), { id: data.id })
    if (!deleted) {
      setRefusalStatus(404)
      return { ok: false as const, message: 'この端末のログインは見つかりませんでした' }
    }
    return { ok: true as const, deleted }
  })
