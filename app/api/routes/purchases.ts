import { createRoute } from '@hono/zod-openapi'
import { IdParams } from '../../contract/v1/common'
import { CreatePurchaseBody, Purchase, PurchaseList, PurchaseListQuery } from '../../contract/v1/purchases'
import type { PaymentProvider } from '../../payments/provider.server'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import type { ReceiptIssuer } from '../services/payments'
import { cancelPurchase, createPurchase, listPurchases } from '../services/purchases'

export interface PurchaseRouteOptions {
  /** The configured payment provider (read when a paid seat is held). */
  payment: () => PaymentProvider
  /** COMMISSION_RATE; read when a purchase is made. */
  commissionRate: () => number
  /** Who issues receipts now: recorded on a payment a cancellation finds already taken. */
  issuer: () => ReceiptIssuer
}

export function registerPurchaseRoutes(app: ApiApp, deps: RouteDeps, options: PurchaseRouteOptions) {
  const member = requireUser(deps.auth, deps.getDb)

  app.openapi(
    createRoute({
      method: 'post',
      path: '/purchases',
      tags: ['purchases'],
      summary:
        '予約する（learner_id を省くと本人）。無料は reserved、有料は pending（10分間席を確保し、payment を支払う）。満席 409 full、中止 409 canceled、開始済み 409 started、同じ人の二重予約 409 already_reserved、キャンセル待ちで確保した席を別の受講者で予約 409 offer_for_another_attendee',
      security: bearer,
      middleware: [member] as const,
      request: { body: { content: { 'application/json': { schema: CreatePurchaseBody } }, required: true } },
      responses: { 201: json(Purchase, '予約'), ...errors(400, 401, 404, 409, 413, 422, 503) },
    }),
    async (c) =>
      c.json(
        await createPurchase(await deps.getDb(), c.var.user, c.req.valid('json'), {
          now: deps.now(),
          provider: options.payment(),
          commissionRate: options.commissionRate(),
        }),
        201,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/purchases',
      tags: ['purchases'],
      summary: '自分の予約（upcoming: 終了前 / past: 終了後）。meeting_url は予約中かつ開始15分前〜終了のみ',
      security: bearer,
      middleware: [member] as const,
      request: { query: PurchaseListQuery },
      responses: { 200: json(PurchaseList, '予約'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(
        await listPurchases(await deps.getDb(), c.var.user.id, c.req.valid('query').scope, deps.now()),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/purchases/{id}/cancel',
      tags: ['purchases'],
      summary:
        '自分の予約をキャンセル（開始24時間前まで、支払い済みは全額返金）。支払い待ちの席はそのまま手放す',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(Purchase, 'キャンセル後の予約'), ...errors(400, 401, 404, 409, 503) },
    }),
    async (c) =>
      c.json(
        await cancelPurchase(await deps.getDb(), c.var.user.id, c.req.valid('param').id, {
          now: deps.now(),
          provider: options.payment(),
          issuer: options.issuer(),
        }),
        200,
      ),
  )
}
