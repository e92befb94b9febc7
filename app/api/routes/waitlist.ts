import { createRoute } from '@hono/zod-openapi'
import { IdParams } from '../../contract/v1/common'
import { JoinWaitlistBody, WaitlistEntryList, WaitlistReceipt } from '../../contract/v1/waitlist'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { joinWaitlist, leaveWaitlist, myWaitlist } from '../services/waitlist'

/** キャンセル待ち (issue 16). */
export function registerWaitlistRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)

  app.openapi(
    createRoute({
      method: 'post',
      path: '/class_work_schedules/{id}/waitlist',
      tags: ['purchases'],
      summary: 'キャンセル待ちする（満席の日程。空きが出ると先頭の人に12時間、席を確保して知らせます）',
      security: bearer,
      middleware: [member] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: JoinWaitlistBody } }, required: true },
      },
      responses: { 201: json(WaitlistReceipt, '順番'), ...errors(400, 401, 404, 409, 422, 503) },
    }),
    async (c) =>
      c.json(
        await joinWaitlist(
          await deps.getDb(),
          c.var.user,
          c.req.valid('param').id,
          c.req.valid('json').learner_id ?? null,
          deps.now(),
        ),
        201,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/waitlist',
      tags: ['purchases'],
      summary: '自分のキャンセル待ち（待っている・席を確保中）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(WaitlistEntryList, 'キャンセル待ち'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await myWaitlist(await deps.getDb(), c.var.user, deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/waitlist/{id}',
      tags: ['purchases'],
      summary: 'キャンセル待ちをやめる（確保中の席は次の人へ）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(WaitlistEntryList, '残りのキャンセル待ち'), ...errors(400, 401, 404, 409, 503) },
    }),
    async (c) => {
      const db = await deps.getDb()
      await leaveWaitlist(db, c.var.user, c.req.valid('param').id, deps.now())
      return c.json(await myWaitlist(db, c.var.user, deps.now()), 200)
    },
  )
}
