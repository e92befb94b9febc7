import { z } from 'zod'
import { DateTime, Id, PageString, paged, searchText } from './common'

export const ArticleSummary = z.object({
  id: Id,
  title: z.string(),
  lead: z.string(),
  image_url: z.string().nullable(),
  category: z.string(),
  tags: z.array(z.string()),
  published_at: DateTime,
})
export type ArticleSummary = z.infer<typeof ArticleSummary>

export const Article = ArticleSummary.extend({
  /** Sanitized HTML. */
  body: z.string(),
})
export type Article = z.infer<typeof Article>

/** GET /v1/magazine_articles/{id}/related: other published articles, most shared tags first, then same category. */
export const RelatedArticles = z.array(ArticleSummary)
export type RelatedArticles = z.infer<typeof RelatedArticles>

export const MagazineQuery = z.object({
  q: searchText(100, 'キーワードは100文字以内で入力してください').optional(),
  category: searchText(50).optional(),
  tag: searchText(50).optional(),
  page: PageString.optional(),
})
export type MagazineQuery = z.input<typeof MagazineQuery>

export const ArticlePage = paged(ArticleSummary)
export type ArticlePage = z.infer<typeof ArticlePage>

const Facet = z.object({ name: z.string(), count: z.number().int().positive() })

/** GET /v1/magazine_articles/facets: the categories and tags of published articles, most used first. */
export const MagazineFacets = z.object({ categories: z.array(Facet), tags: z.array(Facet) })
export type MagazineFacets = z.infer<typeof MagazineFacets>
