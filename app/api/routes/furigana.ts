import { createRoute } from '@hono/zod-openapi'
import { FuriganaMap, FuriganaQuery } from '../../contract/v1/furigana'
import { optionalUser, type UserRow } from '../auth'
import { type ApiApp, errors, json, type RouteDeps } from '../openapi'
import { furiganaOf } from '../services/furigana'

/** Furigana (issue 19): read by anyone for public content, by members for their class announcements. */
export function registerFuriganaRoutes(app: ApiApp, deps: RouteDeps) {
  const viewer = optionalUser(deps.auth, deps.getDb)
  app.openapi(
    createRoute({
      method: 'get',
      path: '/furigana',
      tags: ['furigana'],
      summary: 'クラス・先生の紹介文・お知らせのふりがな（本文ごと）',
      request: { query: FuriganaQuery },
      middleware: [viewer] as const,
      responses: { 200: json(FuriganaMap, 'ふりがな'), ...errors(400, 401, 503) },
    }),
    async (c) => {
      const q = c.req.valid('query')
      return c.json(
        await furiganaOf(
          await deps.getDb(),
          { classIds: q.class_ids, userIds: q.user_ids, announcementIds: q.announcement_ids },
          c.get('user') as UserRow | undefined,
        ),
        200,
      )
    },
  )
}
