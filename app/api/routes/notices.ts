import { createRoute } from '@hono/zod-openapi'
import { ClassAnnouncement, ReadResult } from '../../contract/v1/announcements'
import { IdParams } from '../../contract/v1/common'
import { Notice, NoticeList } from '../../contract/v1/notices'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import {
  getClassAnnouncement,
  getNotice,
  listNotices,
  markClassAnnouncementRead,
  markNoticeRead,
} from '../services/notices'

/** Operator notices and single class announcements, with read marks (GET /v1/class_announcements is in messages). */
export function registerNoticeRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)
  const byId = { params: IdParams }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/notices',
      tags: ['notices'],
      summary: '運営からのお知らせ（公開済み、既読状態つき）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(NoticeList, 'お知らせ'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await listNotices(await deps.getDb(), c.var.user.id, deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/notices/{id}',
      tags: ['notices'],
      summary: '運営からのお知らせ 1件',
      security: bearer,
      middleware: [member] as const,
      request: byId,
      responses: { 200: json(Notice, 'お知らせ'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(await getNotice(await deps.getDb(), c.var.user.id, c.req.valid('param').id, deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/notices/{id}/read',
      tags: ['notices'],
      summary: '運営からのお知らせを既読にする（何度でも同じ結果）',
      security: bearer,
      middleware: [member] as const,
      request: byId,
      responses: { 200: json(ReadResult, '既読'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(
        await markNoticeRead(await deps.getDb(), c.var.user.id, c.req.valid('param').id, deps.now()),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/class_announcements/{id}',
      tags: ['messages'],
      summary: '予約したクラスからのお知らせ 1件',
      security: bearer,
      middleware: [member] as const,
      request: byId,
      responses: { 200: json(ClassAnnouncement, 'クラスのお知らせ'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(await getClassAnnouncement(await deps.getDb(), c.var.user.id, c.req.valid('param').id), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/class_announcements/{id}/read',
      tags: ['messages'],
      summary: 'クラスからのお知らせを既読にする（何度でも同じ結果）',
      security: bearer,
      middleware: [member] as const,
      request: byId,
      responses: { 200: json(ReadResult, '既読'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(
        await markClassAnnouncementRead(
          await deps.getDb(),
          c.var.user.id,
          c.req.valid('param').id,
          deps.now(),
        ),
        200,
      ),
  )
}
