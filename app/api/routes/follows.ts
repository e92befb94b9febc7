import { createRoute } from '@hono/zod-openapi'
import {
  ClassWorkIdParams,
  FavoriteList,
  FavoriteState,
  FollowState,
  TeacherIdParams,
} from '../../contract/v1/follows'
import { requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import {
  addFavorite,
  follow,
  getFavorite,
  getFollow,
  listFavorites,
  removeFavorite,
  unfollow,
} from '../services/follows'

/**
 * Follows and favorites of the signed-in member. PUT-like semantics on POST/DELETE: repeating a call changes
 * nothing and answers the same state, so a double click or a retried request is harmless.
 */
export function registerFollowRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)
  const teacherParams = { params: TeacherIdParams }
  const classParams = { params: ClassWorkIdParams }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/followings/{teacher_id}',
      tags: ['users'],
      summary: '先生をフォローしているか（フォロワー数つき）',
      security: bearer,
      middleware: [member] as const,
      request: teacherParams,
      responses: { 200: json(FollowState, 'フォローの状態'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(await getFollow(await deps.getDb(), c.var.user.id, c.req.valid('param').teacher_id), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/users/followings/{teacher_id}',
      tags: ['users'],
      summary: '先生をフォローする（すでにフォロー中でも 200、フォローは200人まで: 409 too_many_follows）',
      security: bearer,
      middleware: [member] as const,
      request: teacherParams,
      responses: { 200: json(FollowState, 'フォロー後の状態'), ...errors(400, 401, 404, 409, 422, 503) },
    }),
    async (c) =>
      c.json(await follow(await deps.getDb(), c.var.user.id, c.req.valid('param').teacher_id), 200),
  )

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/users/followings/{teacher_id}',
      tags: ['users'],
      summary: '先生のフォローをやめる（フォローしていなくても 200）',
      security: bearer,
      middleware: [member] as const,
      request: teacherParams,
      responses: { 200: json(FollowState, 'フォロー解除後の状態'), ...errors(400, 401, 404, 422, 503) },
    }),
    async (c) =>
      c.json(await unfollow(await deps.getDb(), c.var.user.id, c.req.valid('param').teacher_id), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/favorites',
      tags: ['users'],
      summary: 'お気に入りのクラス（公開中のみ、追加が新しい順）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(FavoriteList, 'お気に入り'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await listFavorites(await deps.getDb(), c.var.user.id, deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/favorites/{class_work_id}',
      tags: ['users'],
      summary: 'クラスをお気に入りにしているか（お気に入り数つき）',
      security: bearer,
      middleware: [member] as const,
      request: classParams,
      responses: { 200: json(FavoriteState, 'お気に入りの状態'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(await getFavorite(await deps.getDb(), c.var.user.id, c.req.valid('param').class_work_id), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/users/favorites/{class_work_id}',
      tags: ['users'],
      summary: 'クラスをお気に入りに追加（追加済みでも 200、お気に入りは200件まで: 409 too_many_favorites）',
      security: bearer,
      middleware: [member] as const,
      request: classParams,
      responses: { 200: json(FavoriteState, '追加後の状態'), ...errors(400, 401, 404, 409, 503) },
    }),
    async (c) =>
      c.json(await addFavorite(await deps.getDb(), c.var.user.id, c.req.valid('param').class_work_id), 200),
  )

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/users/favorites/{class_work_id}',
      tags: ['users'],
      summary: 'クラスをお気に入りから外す（入っていなくても 200）',
      security: bearer,
      middleware: [member] as const,
      request: classParams,
      responses: { 200: json(FavoriteState, '削除後の状態'), ...errors(400, 401, 404, 503) },
    }),
    async (c) =>
      c.json(
        await removeFavorite(await deps.getDb(), c.var.user.id, c.req.valid('param').class_work_id),
        200,
      ),
  )
}
