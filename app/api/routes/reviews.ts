import { createRoute } from '@hono/zod-openapi'
import { IdParams } from '../../contract/v1/common'
import {
  CreatedReview,
  CreateReviewBody,
  ReplyReviewBody,
  ReviewPage,
  ReviewPageQuery,
  ReviewReply,
} from '../../contract/v1/reviews'
import { optionalUser, requireUser, type UserRow } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { classReviews, createReview, replyToReview } from '../services/reviews'

/** Reviews (issue 16): read by anyone, written by the member who attended, answered once by the teacher. */
export function registerReviewRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)
  const viewer = optionalUser(deps.auth, deps.getDb)

  app.openapi(
    createRoute({
      method: 'get',
      path: '/class_works/{id}/reviews',
      tags: ['reviews'],
      summary: 'クラスのレビュー（新しい順、10件ずつ）と平均・件数・分布',
      request: { params: IdParams, query: ReviewPageQuery },
      middleware: [viewer] as const,
      responses: { 200: json(ReviewPage, 'レビュー'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(
        await classReviews(
          await deps.getDb(),
          c.req.valid('param').id,
          c.req.valid('query').page ?? 1,
          // Set by optionalUser only when the caller sent a token.
          c.get('user') as UserRow | undefined,
        ),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/purchases/{id}/review',
      tags: ['reviews'],
      summary: '受講した授業のレビューを書く（授業の終了後、予約ごとに1回）',
      security: bearer,
      middleware: [member] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: CreateReviewBody } }, required: true },
      },
      responses: {
        201: json(CreatedReview, '書いたレビュー'),
        ...errors(400, 401, 403, 404, 409, 410, 422, 503),
      },
    }),
    async (c) =>
      c.json(
        await createReview(
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
      method: 'post',
      path: '/teachers/reviews/{id}/reply',
      tags: ['reviews'],
      summary: 'レビューに返信する（クラスの先生が1回だけ）',
      security: bearer,
      middleware: [member] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: ReplyReviewBody } }, required: true },
      },
      responses: { 200: json(ReviewReply, '返信'), ...errors(400, 401, 403, 404, 409, 422, 503) },
    }),
    async (c) =>
      c.json(
        await replyToReview(
          await deps.getDb(),
          c.var.user,
          c.req.valid('param').id,
          c.req.valid('json'),
          deps.now(),
        ),
        200,
      ),
  )
}
