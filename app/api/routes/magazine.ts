import { createRoute } from '@hono/zod-openapi'
import { IdParams } from '../../contract/v1/common'
import {
  Article,
  ArticlePage,
  MagazineFacets,
  MagazineQuery,
  RelatedArticles,
} from '../../contract/v1/magazine'
import { type ApiApp, errors, json, type RouteDeps } from '../openapi'
import { articleFacets, getArticle, listArticles, relatedArticles } from '../services/magazine'

export function registerMagazineRoutes(app: ApiApp, deps: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/magazine_articles',
      tags: ['magazine'],
      summary: 'マガジン記事の一覧（q, category, tag, page）',
      request: { query: MagazineQuery },
      responses: { 200: json(ArticlePage, '記事'), ...errors(400, 503) },
    }),
    async (c) => c.json(await listArticles(await deps.getDb(), c.req.valid('query'), deps.now()), 200),
  )

  // Before /magazine_articles/{id}, so that `facets` is never taken for an id.
  app.openapi(
    createRoute({
      method: 'get',
      path: '/magazine_articles/facets',
      tags: ['magazine'],
      summary: '公開中の記事のカテゴリとタグ（件数の多い順）',
      responses: { 200: json(MagazineFacets, 'カテゴリとタグ'), ...errors(503) },
    }),
    async (c) => c.json(await articleFacets(await deps.getDb(), deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/magazine_articles/{id}',
      tags: ['magazine'],
      summary: 'マガジン記事',
      request: { params: IdParams },
      responses: { 200: json(Article, '記事'), ...errors(400, 404, 503) },
    }),
    async (c) => c.json(await getArticle(await deps.getDb(), c.req.valid('param').id, deps.now()), 200),
  )

  app.openapi(
    createRoute({
      method: 'get',
      path: '/magazine_articles/{id}/related',
      tags: ['magazine'],
      summary: 'あわせて読みたい記事（同じタグの多い順、同じカテゴリ）',
      request: { params: IdParams },
      responses: { 200: json(RelatedArticles, '記事'), ...errors(400, 404, 503) },
    }),
    async (c) => c.json(await relatedArticles(await deps.getDb(), c.req.valid('param').id, deps.now()), 200),
  )
}
