import { createRoute } from '@hono/zod-openapi'
import {
  DeepMe,
  FollowingList,
  FuriganaSetting,
  RegisterUserBody,
  UpdateUserBody,
  User,
} from '../../contract/v1/users'
import { requireToken, requireUser } from '../auth'
import { type ApiApp, bearer, errors, json, type RouteDeps } from '../openapi'
import { deepMe, followings, registerUser, setFurigana, toUserJson, updateMe } from '../services/users'

export function registerUserRoutes(app: ApiApp, deps: RouteDeps) {
  const member = requireUser(deps.auth, deps.getDb)
  const signedIn = requireToken(deps.auth)

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/me',
      tags: ['users'],
      summary: '自分のユーザー情報（プロフィール未登録なら 404 unregistered）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(User, 'ユーザー情報'), ...errors(401, 404, 503) },
    }),
    (c) => c.json(toUserJson(c.var.user), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/deep_me',
      tags: ['users'],
      summary: '自分のユーザー情報（お子さま、所属団体、先生としての数値を含む）',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(DeepMe, 'ユーザー詳細'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await deepMe(await deps.getDb(), c.var.user, deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/users/followings',
      tags: ['users'],
      summary: 'フォロー中の先生',
      security: bearer,
      middleware: [member] as const,
      responses: { 200: json(FollowingList, 'フォロー中の先生'), ...errors(401, 404, 503) },
    }),
    async (c) => c.json(await followings(await deps.getDb(), c.var.user.id), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/users',
      tags: ['users'],
      summary: 'プロフィール登録（会員登録）',
      security: bearer,
      middleware: [signedIn] as const,
      request: { body: { content: { 'application/json': { schema: RegisterUserBody } }, required: true } },
      responses: { 201: json(User, '登録したユーザー'), ...errors(400, 401, 403, 409, 413, 503) },
    }),
    async (c) => {
      const user = await registerUser(await deps.getDb(), c.var.claims, c.req.valid('json'))
      return c.json(user, 201)
    },
  )

  app.openapi(
    createRoute({
      method: 'patch',
      path: '/users/me',
      tags: ['users'],
      summary: '自分のプロフィールを変更',
      security: bearer,
      middleware: [member] as const,
      request: { body: { content: { 'application/json': { schema: UpdateUserBody } }, required: true } },
      responses: { 200: json(User, '変更後のユーザー'), ...errors(400, 401, 404, 413, 503) },
    }),
    async (c) => c.json(await updateMe(await deps.getDb(), c.var.user, c.req.valid('json')), 200),
  )

  app.openapi(
    createRoute({
      method: 'put',
      path: '/users/me/furigana',
      tags: ['users'],
      summary: 'ふりがな表示の設定（公開ページのキャッシュは変えない）',
      security: bearer,
      middleware: [member] as const,
      request: { body: { content: { 'application/json': { schema: FuriganaSetting } }, required: true } },
      responses: { 200: json(FuriganaSetting, '変更後の設定'), ...errors(400, 401, 404, 413, 503) },
    }),
    async (c) =>
      c.json(await setFurigana(await deps.getDb(), c.var.user.id, c.req.valid('json').furigana), 200),
  )
}
