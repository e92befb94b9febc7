import { createRoute } from '@hono/zod-openapi'
import {
  NotificationSettingList,
  UnsubscribeState,
  UnsubscribeToken,
  UpdateNotificationSettingBody,
} from '../../contract/v1/notifications'
import { readUnsubscribeToken } from '../../mail/unsubscribe.server'
import {
  isNotificationEnabled,
  listNotificationPreferences,
  setNotificationPreference,
} from '../../notifications/preferences.server'
import { requireUser } from '../auth'
import { ApiError } from '../errors'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'

/**
 * The member's mail settings (issue 14), and the unsubscribe link of every optional mail, which works without
 * signing in: its signed token names the member and the kind, and can do nothing else.
 */
export function registerNotificationSettingRoutes(
  app: ApiApp,
  deps: RouteDeps,
  options: { unsubscribeSecret: () => string },
) {
  const member = requireUser(deps.auth, deps.getDb)

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/notification_settings',
      tags: ['users'],
      summary: 'メール通知の設定（種類ごとのオン・オフ）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(NotificationSettingList, '種類ごとの設定'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await listNotificationPreferences(await deps.getDb(), c.var.user.id), 200),
  )

  app.openapi(
    createRoute({
      method: 'put',
      path: '/users/notification_settings',
      tags: ['users'],
      summary: 'メール通知の種類ごとのオン・オフを変更する（返金のお知らせは停止できません）',
      security: bearer,
      middleware: [member] as const,
      request: {
        body: { content: { 'application/json': { schema: UpdateNotificationSettingBody } }, required: true },
      },
      responses: { 200: json(NotificationSettingList, '変更後の設定'), ...errors(400, 401, 404, 422, 503) },
    }),
    async (c) => {
      const db = await deps.getDb()
      const { kind, enabled } = c.req.valid('json')
      if (!(await setNotificationPreference(db, c.var.user.id, kind, enabled)))
        throw new ApiError(422, 'mandatory_notification', 'この通知は停止できません')
      return c.json(await listNotificationPreferences(db, c.var.user.id), 200)
    },
  )

  const readToken = (token: string) => {
    const target = readUnsubscribeToken(options.unsubscribeSecret(), token)
    if (!target) throw new ApiError(400, 'invalid_token', '配信停止のリンクが正しくありません')
    return target
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/unsubscribe',
      tags: ['users'],
      summary: '配信停止リンクの対象（サインイン不要）',
      request: { query: UnsubscribeToken },
      responses: { 200: json(UnsubscribeState, '対象の種類と現在の設定'), ...errors(400, 503) },
    }),
    async (c) => {
      const { userId, kind } = readToken(c.req.valid('query').token)
      return c.json({ kind, enabled: await isNotificationEnabled(await deps.getDb(), userId, kind) }, 200)
    },
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/unsubscribe',
      tags: ['users'],
      summary: '配信停止リンクからその種類のメールを停止する（サインイン不要、繰り返しても同じ結果）',
      request: { body: { content: { 'application/json': { schema: UnsubscribeToken } }, required: true } },
      responses: { 200: json(UnsubscribeState, '停止後の設定'), ...errors(400, 503) },
    }),
    async (c) => {
      const { userId, kind } = readToken(c.req.valid('json').token)
      const db = await deps.getDb()
      await setNotificationPreference(db, userId, kind, false)
      return c.json({ kind, enabled: false }, 200)
    },
  )
}
