import { createRoute } from '@hono/zod-openapi'
import { CalendarFeed, CalendarSubscription, CalendarTokenParams } from '../../contract/v1/calendar'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { calendarFeed, calendarSubscription, regenerateCalendarToken } from '../services/calendar'

/** Calendar sync (issue 16): the member's feed secret, and the feed itself (addressed by the secret alone). */
export function registerCalendarRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/calendar',
      tags: ['users'],
      summary: 'カレンダー連携の秘密のURL（初回に作成）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(CalendarSubscription, '秘密のトークン'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await calendarSubscription(await deps.getDb(), c.var.user), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/users/calendar/regenerate',
      tags: ['users'],
      summary: 'カレンダー連携のURLを作り直す（前のURLは使えなくなります）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(CalendarSubscription, '新しいトークン'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await regenerateCalendarToken(await deps.getDb(), c.var.user), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/calendar_feeds/{token}',
      tags: ['users'],
      summary: '会員の授業の予定（秘密のトークンで読む。iCalendar はサイトの /calendar/{token}.ics）',
      request: { params: CalendarTokenParams },
      responses: { 200: json(CalendarFeed, '予定'), ...errors(400, 404, 503) },
    }),
    async (c) => {
      const feed = await calendarFeed(await deps.getDb(), c.req.valid('param').token, deps.now())
      // Read without a cookie or token, but one member's lessons and children: no shared cache may keep it.
      c.header('Cache-Control', 'private, no-store')
      return c.json(feed, 200)
    },
  )
}
