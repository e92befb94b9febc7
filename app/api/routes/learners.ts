import { createRoute, z } from '@hono/zod-openapi'
import { IdParams } from '../../contract/v1/common'
import { CreateLearnerBody, Learner, UpdateLearnerBody } from '../../contract/v1/users'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { addLearner, listMyLearners, removeLearner, updateLearner } from '../services/learners'

/** The member's learner profiles (お子さまのプロフィール). */
export function registerLearnerRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/me/learners',
      tags: ['users'],
      summary: 'お子さまのプロフィール一覧',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(z.array(Learner), 'お子さま'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await listMyLearners(await deps.getDb(), c.var.user.id), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/users/me/learners',
      tags: ['users'],
      summary: 'お子さまのプロフィールを追加（保護者のみ、10人まで）',
      security: bearer,
      middleware: [member] as const,
      request: { body: { content: { 'application/json': { schema: CreateLearnerBody } }, required: true } },
      responses: {
        201: json(Learner, '追加したお子さま'),
        ...errors(400, 401, 403, 404, 409, 413, 422, 503),
      },
    }),
    async (c) => c.json(await addLearner(await deps.getDb(), c.var.user, c.req.valid('json')), 201),
  )

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/users/me/learners/{id}',
      tags: ['users'],
      summary: 'お子さまのプロフィールを変更',
      security: bearer,
      middleware: [member] as const,
      request: {
        params: IdParams,
        body: { content: { 'application/json': { schema: UpdateLearnerBody } }, required: true },
      },
      responses: { 200: json(Learner, '変更後のお子さま'), ...errors(400, 401, 404, 413, 503) },
    }),
    async (c) =>
      c.json(
        await updateLearner(await deps.getDb(), c.var.user.id, c.req.valid('param').id, c.req.valid('json')),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/users/me/learners/{id}',
      tags: ['users'],
      summary: 'お子さまのプロフィールを削除（予約があると 409 has_reservations）',
      security: bearer,
      middleware: [member] as const,
      request: { params: IdParams },
      responses: { 204: { description: '削除しました' }, ...errors(400, 401, 404, 409, 503) },
    }),
    async (c) => {
      await removeLearner(await deps.getDb(), c.var.user.id, c.req.valid('param').id, deps.now())
      return c.body(null, 204)
    },
  )
}
