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

/** The entries of one sitemap page, as GET /v1/sitemap_entries answers them. */
export interface SitemapPage {
  class_works: { id: number; updated_at: string }[]
  teachers: { id: number; updated_at: string }[]
  magazine_articles: { id: number; updated_at: string }[]
  page: number
  pages: number
}

/** The URLs of one sitemap page: the fixed pages on the first, then its classes, teachers and articles. */
export function sitemapPageUrls(origin: string, entries: SitemapPage): SitemapUrl[] {
  return [
    ...(entries.page === 1 ? STATIC_SITEMAP_PATHS.map((p) => ({ loc: `${origin}${p}` })) : []),
    ...entries.class_works.map((e) => ({
      loc: `${origin}/class_search/detail/${e.id}`,
      lastmod: e.updated_at,
    })),
    ...entries.teachers.map((e) => ({ loc: `${origin}/teacher/detail/${e.id}`, lastmod: e.updated_at })),
    ...entries.magazine_articles.map((e) => ({
      loc: `${origin}/magazine/detail/${e.id}`,
      lastmod: e.updated_at,
    })),
  ]
}

/** Where sitemap page `n` is served when the site has more than one. */
export const sitemapPagePath = (n: number) => `/sitemaps/${n}.xml`

/**
 * /sitemap.xml: the site's one sitemap while the first page holds everything; past that, a sitemap index of its
 * pages (/sitemaps/N.xml), as the protocol asks of sites over 50,000 URLs.
 */
export function sitemapRootXml(origin: string, first: SitemapPage): string {
  if (first.pages <= 1) return sitemapXml(sitemapPageUrls(origin, first))
  const body = Array.from(
    { length: first.pages },
    (_, i) => `<sitemap><loc>${escapeXml(`${origin}${sitemapPagePath(i + 1)}`)}</loc></sitemap>`,
  ).join('\n')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</sitemapindex>\n`
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
