import { createRoute } from '@hono/zod-openapi'
import { SitemapEntries, SitemapQuery } from '../../contract/v1/sitemap'
import { type ApiApp, errors, json, type RouteDeps } from '../openapi'
import { sitemapEntries } from '../services/sitemap'

export function registerSitemapRoutes(app: ApiApp, deps: RouteDeps) {
  app.openapi(
    createRoute({
      method: 'get',
      path: '/sitemap_entries',
      tags: ['sitemap'],
      summary:
        'サイトマップ用の公開ページ一覧（公開中のクラス、先生、マガジン記事。種類ごとに15,000件ずつのページ）',
      request: { query: SitemapQuery },
      responses: { 200: json(SitemapEntries, '公開ページのIDと更新日時'), ...errors(400, 503) },
    }),
    async (c) => c.json(await sitemapEntries(await deps.getDb(), deps.now(), c.req.valid('query').page), 200),
  )
}
