import { createRoute } from '@hono/zod-openapi'
import {
  AdminNotice,
  AdminNoticeList,
  AdminNoticeQuery,
  AuditPage,
  AuditQuery,
  CreateNoticeBody,
  HeldMessageList,
  ModerationResult,
} from '../../contract/v1/admin'
import { IdParams } from '../../contract/v1/common'
import { requireOperator } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import {
  adminAuditPage,
  adminCreateNotice,
  adminHeldMessages,
  adminListNotices,
  adminModerateMessage,
  adminWithdrawNotice,
} from '../services/admin'

/**
 * /v1/admin/* (issue 15): operators only. A visitor is 401, every other member 404; the role is read from the
 * database on each call. The caller's address (x-real-ip, set by the server for every request) goes to the audit log.
 */
export function registerAdminRoutes(app: ApiApp, deps: RouteDeps) {
  const operator = requireOperator(deps.auth, deps.getDb)
  const address = (raw: Request) => raw.headers.get('x-real-ip') ?? undefined

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/notices',
      tags: ['admin'],
      summary: '運営のお知らせ（予約投稿・取り下げ済みを含む、新しい順、200件ずつ）',
      security: bearer,
      middleware: [operator] as const,
      request: { query: AdminNoticeQuery },
      responses: { 200: json(AdminNoticeList, 'お知らせの1ページ'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(await adminListNotices(await deps.getDb(), deps.now(), c.req.valid('query').page), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/notices',
      tags: ['admin'],
      summary: 'お知らせを作成する（published_at が未来なら予約投稿）',
      security: bearer,
      middleware: [operator] as const,
      request: { body: { content: { 'application/json': { schema: CreateNoticeBody } }, required: true } },
      responses: { 201: json(AdminNotice, '作成したお知らせ'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(
        await adminCreateNotice(
          await deps.getDb(),
          c.var.user,
          c.req.valid('json'),
          deps.now(),
          address(c.req.raw),
        ),
        201,
      ),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/admin/notices/{id}/withdraw',
      tags: ['admin'],
      summary: 'お知らせを取り下げる',
      security: bearer,
      middleware: [operator] as const,
      request: { params: IdParams },
      responses: { 200: json(AdminNotice, '取り下げたお知らせ'), ...errors(400, 401, 404, 409, 503) },
    }),
    async (c) =>
      c.json(
        await adminWithdrawNotice(
          await deps.getDb(),
          c.var.user,
          Number(c.req.valid('param').id),
          deps.now(),
          address(c.req.raw),
        ),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/audit',
      tags: ['admin'],
      summary: '監査ログ（新しい順、50件ずつ）',
      security: bearer,
      middleware: [operator] as const,
      request: { query: AuditQuery },
      responses: { 200: json(AuditPage, '監査ログの1ページ'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => c.json(await adminAuditPage(await deps.getDb(), c.req.valid('query')), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/admin/messages',
      tags: ['admin'],
      summary: '確認待ちのメッセージ（連絡先を含むため保留中、古い順）',
      security: bearer,
      middleware: [operator] as const,
      responses: { 200: json(HeldMessageList, '確認待ちのメッセージ'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await adminHeldMessages(await deps.getDb(), c.var.user.id), 200),
  )

  for (const decision of ['release', 'delete'] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path: `/admin/messages/{id}/${decision}`,
        tags: ['admin'],
        summary:
          decision === 'release' ? '確認待ちのメッセージを相手に届ける' : '確認待ちのメッセージを削除する',
        security: bearer,
        middleware: [operator] as const,
        request: { params: IdParams },
        responses: { 200: json(ModerationResult, '処理後の状態'), ...errors(400, 401, 404, 409, 503) },
      }),
      async (c) =>
        c.json(
          await adminModerateMessage(
            await deps.getDb(),
            c.var.user,
            Number(c.req.valid('param').id),
            decision,
            deps.now(),
            address(c.req.raw),
          ),
          200,
        ),
    )
  }
}
