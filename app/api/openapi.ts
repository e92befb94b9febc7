import type { OpenAPIHono } from '@hono/zod-openapi'
import type { z } from 'zod'
import { ErrorBody } from '../contract/v1/common'
import type { Db } from '../db/client'
import type { LimitName } from '../lib/limits'
import type { AuthConfigSource, AuthVariables } from './auth'
import type { CardCache } from './card-cache'

export type ApiEnv = { Variables: AuthVariables }
export type ApiApp = OpenAPIHono<ApiEnv>

/** What route modules get from createApiApp. */
export interface RouteDeps {
  getDb: () => Promise<Db>
  /** Counts one action under a rate limit (app/lib/limits.ts); throws RateLimitedError (429) when over it. */
  rateLimit: (name: LimitName, key: string) => Promise<void>
  /** Returns one action counted by rateLimit that was then refused (it did not do what the limit guards). */
  giveBack: (name: LimitName, key: string) => Promise<void>
  /** Throws RateLimitedError (429) when `key` is already over the limit, without counting an action. */
  refuseIfLimited: (name: LimitName, key: string) => Promise<void>
  auth: AuthConfigSource
  now: () => Date
  /** Class cards kept between searches (card-cache.ts); none: every search reads its cards. */
  cardCache?: CardCache
}

export function json<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description }
}

const errorDescriptions = {
  400: '入力内容に誤りがあります (invalid_request)',
  401: 'アクセストークンがないか正しくありません (unauthorized)',
  402: 'お支払いができませんでした（card_declined、insufficient_funds など）',
  403: '許可されていない操作です',
  404: '見つかりません (not_found / unregistered)',
  409: '競合しています',
  410: '運営が公開を停止しました (gone)',
  422: '処理できない操作です（自分自身のフォローなど）',
  413: 'リクエストが大きすぎます',
  429: '回数の上限に達しました。Retry-After 秒後に再度お試しください (rate_limited)',
  503: '一時的に利用できません',
} as const

/** Error responses for the OpenAPI document; the handlers throw ApiError, app.onError writes them. */
export function errors<S extends keyof typeof errorDescriptions>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((s) => [s, json(ErrorBody, errorDescriptions[s])])) as Record<
    S,
    ReturnType<typeof json<typeof ErrorBody>>
  >
}

export const bearer = [{ bearerAuth: [] }]
