import { createRoute } from '@hono/zod-openapi'
import { IdParams } from '../../contract/v1/common'
import {
  BankAccount,
  BankAccountInput,
  Checkout,
  ConfirmPaymentBody,
  PaymentHistory,
  PaymentReceipt,
  PayoutStatement,
  ReceiptNameBody,
} from '../../contract/v1/payments'
import { MonthQuery } from '../../contract/v1/sales'
import { RateLimitedError } from '../../db/rate-limit'
import type { PaymentProvider } from '../../payments/provider.server'
import { WebhookSignatureError } from '../../payments/provider.server'
import { requireUser } from '../auth'
import { ApiError } from '../errors'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import {
  checkoutOf,
  confirmPayment,
  handleProviderEvent,
  type PaymentDeps,
  paymentHistory,
  type ReceiptIssuer,
  receiptOf,
  setReceiptName,
} from '../services/payments'
import { bankAccountOf, payoutStatement, saveBankAccount } from '../services/payouts'
import { purchaseById } from '../services/purchases'

export interface PaymentRouteOptions {
  payment: () => PaymentProvider
  /** Who issues receipts now (the platform's name and 適格請求書発行事業者登録番号), recorded on each payment. */
  issuer: () => ReceiptIssuer
  /** The key that encrypts teachers' bank accounts. */
  dataSecret: () => string
}

/** Checkout, receipts, refunds and payouts (issue 17; docs/decisions/0025). */
export function registerPaymentRoutes(app: ApiApp, deps: RouteDeps, options: PaymentRouteOptions) {
  const member = requireUser(deps.auth, deps.getDb)
  const tags = ['payments']
  // `now` read at each use, as the jobs do (app/payments/jobs.server.ts): a payment the provider confirms slowly
  // is dated when it is recorded.
  const paymentDeps = (): PaymentDeps => ({
    get now() {
      return deps.now()
    },
    provider: options.payment(),
    issuer: options.issuer(),
  })
  const checkout = async (userId: number, paymentId: number) => {
    const db = await deps.getDb()
    return checkoutOf(
      db,
      userId,
      paymentId,
      paymentDeps(),
      (purchaseId) => purchaseById(db, userId, purchaseId, deps.now()),
      await cardsPaused(userId),
    )
  }
  /** Past the card-testing limit (5 refusals in 10 minutes): no card is tried until it passes. */
  const cardsPaused = (userId: number) =>
    deps.refuseIfLimited('paymentDeclines', String(userId)).then(
      () => false,
      (error) => {
        if (error instanceof RateLimitedError) return true
        throw error
      },
    )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/payments',
      tags,
      summary: '購入履歴：月ごとの支払いと返金（新しい順）',
      security: bearer,
      middleware: [member] as const,
      request: { query: MonthQuery },
      responses: { 200: json(PaymentHistory, '購入履歴'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(
        await paymentHistory(await deps.getDb(), c.var.user.id, c.req.valid('query').month, deps.now()),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/payments/{id}',
      tags,
      summary: 'お支払い（確認画面）：予約、金額と消費税、席の確保期限',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(Checkout, 'お支払い'), ...errors(400, 401, 404, 503) },
    }),
    // With Stripe the browser tries cards at Stripe with the client secret this hands out: a member past the
    // card-testing limit gets none (cards_paused) until it passes.
    async (c) => c.json(await checkout(c.var.user.id, c.req.valid('param').id), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/payments/{id}/confirm',
      tags,
      summary:
        '支払う（組み込みのテスト決済ではテストカード、Stripe では Stripe.js の確定後に結果を読む）。カードが通らなければ 402（席は期限まで確保）、期限切れは 409 hold_expired',
      security: bearer,
      middleware: [member] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: ConfirmPaymentBody } }, required: true },
      },
      responses: { 200: json(Checkout, '支払い後'), ...errors(400, 401, 402, 404, 409, 422, 429, 503) },
    }),
    async (c) => {
      const paymentId = c.req.valid('param').id
      const key = String(c.var.user.id)
      // Counted before the card is tried, so that confirmations sent at once cannot all pass the limit together;
      // given back unless the card was refused: paying many lessons never reaches it.
      await deps.rateLimit('paymentDeclines', key)
      let declined = false
      try {
        await confirmPayment(await deps.getDb(), c.var.user.id, paymentId, c.req.valid('json'), paymentDeps())
      } catch (err) {
        // With Stripe the refusal is counted by its webhook (the card was tried at Stripe): not twice.
        declined = err instanceof ApiError && err.status === 402 && options.payment().name !== 'stripe'
        throw err
      } finally {
        if (!declined) await deps.giveBack('paymentDeclines', key).catch(() => {})
      }
      return c.json(await checkout(c.var.user.id, paymentId), 200)
    },
  )

  const receipt = async (userId: number, paymentId: number) =>
    receiptOf(await deps.getDb(), userId, paymentId, options.issuer())

  app.openapi(
    createRoute({
      method: 'get',
      path: '/payments/{id}/receipt',
      tags,
      summary: '領収書（支払いが完了したもの）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 200: json(PaymentReceipt, '領収書'), ...errors(400, 401, 404, 503) },
    }),
    async (c) => c.json(await receipt(c.var.user.id, c.req.valid('param').id), 200),
  )

  app.openapi(
    createRoute({
      method: 'put',
      path: '/payments/{id}/receipt/name',
      tags,
      summary: '領収書の宛名（一度だけ設定できます。2回目は 409 receipt_name_set）',
      security: bearer,
      middleware: [member] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: ReceiptNameBody } }, required: true },
      },
      responses: { 200: json(PaymentReceipt, '領収書'), ...errors(400, 401, 404, 409, 503) },
    }),
    async (c) => {
      const id = c.req.valid('param').id
      await setReceiptName(await deps.getDb(), c.var.user.id, id, c.req.valid('json').name)
      return c.json(await receipt(c.var.user.id, id), 200)
    },
  )

  // ── the provider's webhooks (signed; no bearer token) ──
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/webhooks/stripe',
    tags,
    summary:
      'Stripe の Webhook（Stripe-Signature を検証、イベント ID ごとに一度だけ処理）。署名が正しくなければ 400',
    responses: { 200: { description: '受け付けました' }, ...errors(400, 404, 503) },
  })
  app.post('/webhooks/stripe', async (c) => {
    const provider = options.payment()
    if (provider.name !== 'stripe') throw new ApiError(404, 'not_found', 'Stripe は設定されていません')
    const raw = await c.req.text()
    let event: ReturnType<PaymentProvider['verifyWebhook']>
    try {
      event = provider.verifyWebhook(raw, c.req.header('stripe-signature'))
    } catch (err) {
      if (err instanceof WebhookSignatureError)
        throw new ApiError(400, 'invalid_signature', 'Webhook の署名が正しくありません')
      throw err
    }
    // Each refusal counts against its member's card-testing limit, as a refusal through confirm does.
    const outcome = await handleProviderEvent(await deps.getDb(), provider, event, paymentDeps(), (userId) =>
      deps.rateLimit('paymentDeclines', String(userId)).catch(() => {}),
    )
    return c.json({ received: true, outcome }, 200)
  })

  // ── teachers: payouts and the bank account ──
  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/payouts',
      tags,
      summary: '月ごとの振込明細（売上、手数料、返金、振込額、振込日：翌月末）',
      security: bearer,
      middleware: [member] as const,
      request: { query: MonthQuery },
      responses: { 200: json(PayoutStatement, '振込明細'), ...errors(400, 401, 403, 503) },
    }),
    async (c) =>
      c.json(
        await payoutStatement(await deps.getDb(), c.var.user, c.req.valid('query').month, deps.now()),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/teachers/bank_account',
      tags,
      summary: '振込先口座（一部を伏せて表示。未登録は null）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(BankAccount, '振込先'), ...errors(401, 403, 503) },
    }),
    async (c) => c.json(await bankAccountOf(await deps.getDb(), c.var.user, options.dataSecret()), 200),
  )

  app.openapi(
    createRoute({
      method: 'put',
      path: '/teachers/bank_account',
      tags,
      summary: '振込先口座を登録・変更（口座番号と名義は暗号化して保存）',
      security: bearer,
      middleware: [member] as const,
      request: { body: { content: { 'application/json': { schema: BankAccountInput } }, required: true } },
      responses: { 200: json(BankAccount, '振込先'), ...errors(400, 401, 403, 503) },
    }),
    async (c) =>
      c.json(
        await saveBankAccount(
          await deps.getDb(),
          c.var.user,
          c.req.valid('json'),
          options.dataSecret(),
          deps.now(),
          // Set by the server for every request; for the audit log.
          c.req.raw.headers.get('x-real-ip') ?? undefined,
        ),
        200,
      ),
  )
}
