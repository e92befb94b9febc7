import { createServerFn } from '@tanstack/react-start'
import { z } from 'zod'
import { NOTIFICATION_KIND_NAMES } from '~/lib/notification-kinds'
import { memberActionResult } from '~/server/action-result.server'
import { api } from '~/server/api-client'
import { setRefusalStatus } from '~/server/server-fn-errors.server'
import { requireAccessToken } from '~/server/session-token.server'

/** The signed-in member's mail settings, per kind. */
export const getNotificationSettings = createServerFn({ method: 'GET' }).handler(async () => {
  const token = await requireAccessToken()
  return api.listNotificationSettings(token)
})

export const updateNotificationSetting = createServerFn({ method: 'POST' })
  .validator(z.object({ kind: z.enum(NOTIFICATION_KIND_NAMES), enabled: z.boolean() }).strict())
  .handler(async ({ data }) => {
    return memberActionResult((token) => api.updateNotificationSetting(token, data))
  })

const tokenInput = z.object({ token: z.string().min(1).max(200) }).strict()

/** What a mail's unsubscribe link stops (no sign-in: the signed token is the authority); null for a bad link. */
export const getUnsubscribeTarget = createServerFn({ method: 'GET' })
  .validator(tokenInput)
  .handler(async ({ data }) => {
    const state = await api.getUnsubscribe(data.token)
    if (!state) setRefusalStatus(400, 'invalid_token')
    return state ?? null
  })

export const unsubscribeByToken = createServerFn({ method: 'POST' })
  .validator(tokenInput)
  .handler(async ({ data }) => {
    const state = await api.unsubscribe(data.token)
    if (!state) {
      setRefusalStatus(400, 'invalid_token')
      return { ok: false as const, message: '配信停止のリンクが正しくありません' }
    }
    return { ok: true as const, kind: state.kind }
  })
