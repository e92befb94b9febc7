import { appConfig } from '../../app.config'
import { formatTitle } from './page-title'

export type SeoInput = {
  /** Page title without the site suffix; omit for the top page. */
  title?: string
  description?: string
  /** Absolute or root-relative image URL. */
  image?: string
  magazine?: boolean
  type?: 'website' | 'article'
  noindex?: boolean
  /** schema.org structured data, written as a `<script type="application/ld+json">` (escaped by the router). */
  jsonLd?: Record<string, unknown>
}

type Site = { siteOrigin: string; titlePrefix: string }

const absolute = (site: Site, url: string) => (url.startsWith('http') ? url : `${site.siteOrigin}${url}`)

/**
 * Title, description and social-share tags of one page (spec §2): the page's own values when given,
 * else the site defaults. Child routes override the root's tags by name/property.
 */
export function seo(site: Site, input: SeoInput = {}) {
  const title = formatTitle(input.title, { prefix: site.titlePrefix, magazine: input.magazine })
  const description = input.description?.slice(0, 160) || appConfig.defaultDescription
  const image = absolute(site, input.image ?? appConfig.defaultImage)
  return [
    { title },
    { name: 'description', content: description },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:image', content: image },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:site_name', content: input.magazine ? appConfig.magazineName : appConfig.siteName },
    { property: 'og:locale', content: 'ja_JP' },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
    { name: 'twitter:image', content: image },
    ...(input.noindex ? [{ name: 'robots', content: 'noindex, nofollow' }] : []),
    ...(input.jsonLd ? [{ 'script:ld+json': input.jsonLd }] : []),
  ]
}

/** A plain document title with the environment prefix, used by the error pages. */
export function plainTitle(site: Pick<Site, 'titlePrefix'> | undefined, title: string) {
  return `${site?.titlePrefix ?? ''}${title}`
}

/**
 * head() of a page route: its SEO tags while the page rendered, nothing when it errored or was not found
 * (then the root's error title stands).
 */
export function pageHead(
  match: { status: string; context: { site: Site } },
  input: SeoInput | (() => SeoInput),
): { meta: ReturnType<typeof seo> | [] } {
  if (match.status !== 'success') return { meta: [] }
  return { meta: seo(match.context.site, typeof input === 'function' ? input() : input) }
}
