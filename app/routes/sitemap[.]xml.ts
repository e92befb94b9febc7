import { createFileRoute } from '@tanstack/react-router'
import { type SitemapUrl, STATIC_SITEMAP_PATHS, sitemapXml } from '~/lib/sitemap'
import { api } from '~/server/api-client'
import { getConfig } from '~/server/config'

/** GET /sitemap.xml — the public pages with absolute URLs from the site origin. */
export const Route = createFileRoute('/sitemap.xml')({
  server: {
    handlers: {
      GET: async () => {
        const origin = getConfig().siteOrigin
        const entries = await api.getSitemapEntries()
        if (!entries) return new Response('サイトマップを作成できませんでした', { status: 503 })
        const urls: SitemapUrl[] = [
          ...STATIC_SITEMAP_PATHS.map((p) => ({ loc: `${origin}${p}` })),
          ...entries.class_works.map((e) => ({
            loc: `${origin}/class_search/detail/${e.id}`,
            lastmod: e.updated_at,
          })),
          ...entries.teachers.map((e) => ({
            loc: `${origin}/teacher/detail/${e.id}`,
            lastmod: e.updated_at,
          })),
          ...entries.magazine_articles.map((e) => ({
            loc: `${origin}/magazine/detail/${e.id}`,
            lastmod: e.updated_at,
          })),
        ]
        return new Response(sitemapXml(urls), {
          headers: {
            'content-type': 'application/xml; charset=utf-8',
            'cache-control': 'public, max-age=3600',
          },
        })
      },
    },
  },
})
