import { appConfig } from '../../app.config'

export type Environment = 'production' | 'staging' | 'development'

/**
 * The environment prefix of every document title (spec §9): local and swagger hosts first,
 * then staging, then any other non-production environment.
 */
export function titlePrefixFor(host: string, environment: Environment): string {
  const h = host.toLowerCase()
  if (/^(localhost|127\.|\[::1\]|0\.0\.0\.0)/.test(h) || h.includes('swagger'))
    return appConfig.titlePrefixes.local
  if (environment === 'staging' || /(^|[.-])(stg|staging)([.-]|$)/.test(h))
    return appConfig.titlePrefixes.staging
  if (environment !== 'production') return appConfig.titlePrefixes.nonProduction
  return ''
}

export function formatTitle(
  title: string | undefined,
  opts: { prefix?: string; magazine?: boolean } = {},
): string {
  const template = opts.magazine ? appConfig.magazineTitleTemplate : appConfig.titleTemplate
  // A replacer function: a string's `$&`, `$'` or `$$` (a class title may hold them) would be read as patterns.
  const body = title ? template.replace('%s', () => title) : `${appConfig.siteName} | ${appConfig.tagline}`
  return `${opts.prefix ?? ''}${body}`
}

/** A class name for <body> from a route id: '/_default/class_search/detail/$id' → 'page-class_search-detail-id'. */
export function routeBodyClass(routeId: string): string {
  const parts = routeId
    .split('/')
    .filter((p) => p && !p.startsWith('_') && p !== '__root__')
    .map((p) => p.replace(/^\$/, '').replace(/[^a-zA-Z0-9_-]/g, ''))
    .filter(Boolean)
  return `page-${parts.length ? parts.join('-') : 'index'}`
}

/** The path a page's canonical link and og:url name: without the trailing slash an index route's pathname has. */
export function canonicalPath(pathname: string | undefined): string {
  return (pathname ?? '/').replace(/\/+$/, '') || '/'
}
