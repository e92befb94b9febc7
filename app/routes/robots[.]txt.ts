import { createFileRoute } from '@tanstack/react-router'
import { robotsTxt } from '~/lib/sitemap'
import { getConfig } from '~/server/config'

/** GET /robots.txt — generated so that the Sitemap line carries the configured site origin. */
export const Route = createFileRoute('/robots.txt')({
  server: {
    handlers: {
      GET: () =>
        new Response(robotsTxt(getConfig().siteOrigin), {
          headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' },
        }),
    },
  },
})
