import { createRoute } from '@hono/zod-openapi'
import {
  ClassWorkCardList,
  ClassWorkDetail,
  ClassWorkSearchBody,
  ClassWorkSearchResult,
  CloseToStartList,
  ListLimitQuery,
} from '../../contract/v1/class-works'
import { IdParams } from '../../contract/v1/common'
import { type ApiApp, errors, json, type RouteDeps } from '../openapi'
import {
  classWorkDetail,
  closeToStarts,
  closeToStartsByClass,
  newArrivals,
  searchClassWorks,
} from '../services/class-works'

export function registerClassWorkRoutes(app: ApiApp, deps: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/class_works/new_arrivals_by_class',
      tags: ['class_works'],
      summary: '新着クラス',
      request: { query: ListLimitQuery },
      responses: { 200: json(ClassWorkCardList, 'クラス'), ...errors(400, 503) },
    }),
    async (c) => c.json(await newArrivals(await deps.getDb(), deps.now(), c.req.valid('query').limit), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/class_works/close_to_starts',
      tags: ['class_works'],
      summary: 'もうすぐ始まる授業（スケジュールごと）',
      request: { query: ListLimitQuery },
      responses: { 200: json(CloseToStartList, 'スケジュールとクラス'), ...errors(400, 503) },
    }),
    async (c) => c.json(await closeToStarts(await deps.getDb(), deps.now(), c.req.valid('query').limit), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/class_works/close_to_starts_by_class',
      tags: ['class_works'],
      summary: 'もうすぐ始まるクラス（クラスごと）',
      request: { query: ListLimitQuery },
      responses: { 200: json(ClassWorkCardList, 'クラス'), ...errors(400, 503) },
    }),
    async (c) =>
      c.json(await closeToStartsByClass(await deps.getDb(), deps.now(), c.req.valid('query').limit), 200),
  )

  app.openapi(
    createRoute({
      method: 'post',
      path: '/class_works/search',
      tags: ['class_works'],
      summary: 'クラス検索',
      request: { body: { content: { 'application/json': { schema: ClassWorkSearchBody } }, required: true } },
      responses: { 200: json(ClassWorkSearchResult, '検索結果'), ...errors(400, 413, 503) },
    }),
    async (c) =>
      c.json(
        await searchClassWorks(await deps.getDb(), c.req.valid('json'), deps.now(), deps.cardCache),
        200,
      ),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/class_works/{id}',
      tags: ['class_works'],
      summary: 'クラスの詳細（公開中のみ。スケジュールと実績つき）',
      request: { params: IdParams },
      responses: { 200: json(ClassWorkDetail, 'クラス'), ...errors(400, 404, 410, 503) },
    }),
    async (c) => c.json(await classWorkDetail(await deps.getDb(), c.req.valid('param').id, deps.now()), 200),
  )
}
