import { createFileRoute } from '@tanstack/react-router'
import { sitemapPageUrls, sitemapXml } from '~/lib/sitemap'
import { api } from '~/server/api-client'
import { getConfig } from '~/server/config'
import { keptFor } from '~/server/kept-for.server'
import { orUnavailable } from '~/server/unavailable.server'

const FILE = /^([1-9]\d{0,2}|1000)\.xml$/

/** GET /sitemaps/N.xml — page N of a large catalogue's sitemap, listed by the index at /sitemap.xml. */
export const Route = createFileRoute('/sitemaps/$file')({
  server: {
    handlers: {
      GET: ({ params }) => {
        const n = FILE.exec(params.file)?.[1]
        if (!n) return notFound()
        return orUnavailable('sitemap', async () => {
          const body = await pageBody(Number(n))
          if (body === null) return notFound()
          return new Response(body, {
            headers: {
              'content-type': 'application/xml; charset=utf-8',
              'cache-control': 'public, max-age=3600',
            },
          })
        })
      },
    },
  },
})

const notFound = () =>
  new Response('サイトマップが見つかりません', {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=600' },
  })

/** Each page built at most every 10 minutes on an instance, as /sitemap.xml is (pages past the last are null). */
const pages = new Map<number, () => Promise<string | null>>()
function pageBody(n: number) {
  let kept = pages.get(n)
  if (!kept) {
    kept = keptFor(10 * 60_000, async () => {
      const entries = await api.getSitemapEntries(n)
      if (!entries) throw new Error('the API refused the sitemap entries')
      return n > entries.pages ? null : sitemapXml(sitemapPageUrls(getConfig().siteOrigin, entries))
    })
    pages.set(n, kept)
  }
  return kept()
}
