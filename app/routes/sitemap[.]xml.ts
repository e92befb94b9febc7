import { createFileRoute } from '@tanstack/react-router'
import { type SitemapUrl, STATIC_SITEMAP_PATHS, sitemapXml } from '~/lib/sitemap'
import { api } from '~/server/api-client'
import { getConfig } from '~/server/config'
import { keptFor } from '~/server/kept-for.server'
import { orUnavailable } from '~/server/unavailable.server'

/** GET /sitemap.xml — the public pages with absolute URLs from the site origin. */
export const Route = createFileRoute('/sitemap.xml')({
  server: {
    handlers: {
      GET: () =>
        orUnavailable('sitemap', async () => {
          return new Response(await sitemapBody(), {
            headers: {
              'content-type': 'application/xml; charset=utf-8',
              'cache-control': 'public, max-age=3600',
            },
          })
        }),
    },
  },
})

/**
 * Built at most every 10 minutes on an instance: it reads and sorts every published class, teacher and article,
 * and anyone may ask for it in a loop. Crawlers are told an hour (max-age) anyway.
 */
const sitemapBody = keptFor(10 * 60_000, buildSitemap)

async function buildSitemap(): Promise<string> {
  const origin = getConfig().siteOrigin
  const entries = await api.getSitemapEntries()
  // Refused (a 4xx the public call logged): nothing is kept, and the answer is 503 like an outage's.
  if (!entries) throw new Error('the API refused the sitemap entries')
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
  return sitemapXml(urls)
}
