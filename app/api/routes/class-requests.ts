import { createRoute } from '@hono/zod-openapi'
import { IdParams } from '../../contract/v1/common'
import {
  ClassRequestList,
  ClassRequestReceipt,
  CreateClassRequestBody,
  MyClassRequest,
} from '../../contract/v1/requests'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { createClassRequest, myClassRequest, teacherClassRequests } from '../services/class-requests'

/** リクエスト開催 (issue 16). */
export function registerClassRequestRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)

  app.openapi(
    createRoute({
      method: 'post',
      path: '/class_works/{id}/requests',
      tags: ['class_works'],
      summary: '開催をリクエストする（予定された日程がないクラスに、希望の曜日と時間帯を伝える）',
      security: bearer,
      middleware: [member] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: CreateClassRequestBody } }, required: true },
      },
      responses: {
        201: json(ClassRequestReceipt, '受け付けたリクエスト'),
        ...errors(400, 401, 404, 409, 422, 503),
      },
    }),
    async (c) =>
      c.json(
        await createClassRequest(
          await deps.getDb(),
          c.var.user,
          c.req.valid('param').id,
          c.req.valid('json'),
          deps.now(),
        ),
        201,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/class_works/{id}/requests/mine',
      tags: ['class_works'],
      summary: '自分の開催リクエスト（このクラスに未対応のリクエストがあるか）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(MyClassRequest, '自分のリクエスト'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => c.json(await myClassRequest(await deps.getDb(), c.var.user, c.req.valid('param').id), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/class_works/{id}/requests',
      tags: ['teachers'],
      summary: '自分のクラスへの開催リクエスト（未対応のもの、古い順）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(ClassRequestList, 'リクエスト'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(await teacherClassRequests(await deps.getDb(), c.var.user, c.req.valid('param').id), 200),
  )
}
