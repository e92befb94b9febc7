import { createFileRoute } from '@tanstack/react-router'
import { sitemapRootXml } from '~/lib/sitemap'
import { api } from '~/server/api-client'
import { getConfig } from '~/server/config'
import { keptFor } from '~/server/kept-for.server'
import { orUnavailable } from '~/server/unavailable.server'

/**
 * GET /sitemap.xml — the public pages with absolute URLs from the site origin; for a catalogue past one sitemap
 * file, the index of its pages (/sitemaps/N.xml).
 */
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
 * Built at most every 10 minutes on an instance: it reads every published class, teacher and article of the first
 * page, and anyone may ask for it in a loop. Crawlers are told an hour (max-age) anyway.
 */
const sitemapBody = keptFor(10 * 60_000, async () => {
  const first = await api.getSitemapEntries(1)
  // Refused (a 4xx the public call logged): nothing is kept, and the answer is 503 like an outage's.
  if (!first) throw new Error('the API refused the sitemap entries')
  return sitemapRootXml(getConfig().siteOrigin, first)
})
