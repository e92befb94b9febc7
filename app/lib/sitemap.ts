/** A sitemaps.org URL entry. */
export type SitemapUrl = { loc: string; lastmod?: string }

const escapeXml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!)

/** The public pages that are not data: the top page, search, magazine and the legal pages. */
export const STATIC_SITEMAP_PATHS = [
  '/',
  '/class_search',
  '/magazine',
  '/company',
  '/terms_of_service',
  '/privacy_policy',
  '/commercial_transactions',
] as const

/** sitemap.xml text (UTF-8, at most 50,000 URLs as the protocol allows). */
export function sitemapXml(urls: readonly SitemapUrl[]): string {
  const body = urls
    .slice(0, 50_000)
    .map(
      (u) =>
        `<url><loc>${escapeXml(u.loc)}</loc>${u.lastmod ? `<lastmod>${escapeXml(u.lastmod)}</lastmod>` : ''}</url>`,
    )
    .join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`
}

/** robots.txt: crawl the public site, not the API, sign-in, registration or test pages; point at the sitemap. */
export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    'Disallow: /test/',
    'Disallow: /auth/',
    'Disallow: /register/',
    'Disallow: /v1/',
    'Disallow: /idp/',
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n')
}
