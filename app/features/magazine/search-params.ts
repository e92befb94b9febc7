import { intIn, textUpTo } from '~/lib/search-values'

/**
 * Typed search parameters of /magazine (PRODUCT.md: q, category, tag, page). Like the class search, a bad
 * value falls back to its default instead of failing the page (plain readers: app/lib/search-values.ts).
 */
export type MagazineSearchParams = { q?: string; category?: string; tag?: string; page?: number }

/**
 * validateSearch of /magazine: never throws. Every known key is present, undefined when missing or invalid
 * (the router merges the validated search over the raw one, see parseClassSearch); page 1 is the default.
 */
export function parseMagazineSearch(input: Record<string, unknown>): MagazineSearchParams {
  const page = intIn(input.page, 1, 1000)
  return {
    q: textUpTo(input.q, 100),
    category: textUpTo(input.category, 50),
    tag: textUpTo(input.tag, 50),
    page: page === 1 ? undefined : page,
  }
}
