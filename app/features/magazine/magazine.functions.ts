import { createServerFn } from '@tanstack/react-start'
import { type ClassCardView, toClassCardView } from '~/lib/card-view'
import { idInput } from '~/lib/ids'
import { api } from '~/server/api-client'
import { sanitizeArticleHtml } from '~/server/sanitize-article.server'
import { parseMagazineSearch } from './search-params'

/** A page of articles with the categories and tags to filter by. `page` is null when the API failed. */
export const listMagazine = createServerFn({ method: 'GET' })
  .validator((input: unknown) => parseMagazineSearch((input ?? {}) as Record<string, unknown>))
  .handler(async ({ data }) => {
    const [page, facets] = await Promise.all([
      api.listMagazineArticles({ ...data, page: data.page ? String(data.page) : undefined }),
      api.getMagazineFacets(),
    ])
    return { page: page ?? null, facets: facets ?? { categories: [], tags: [] } }
  })

const RELATED_LIMIT = 3

/**
 * Classes to suggest under an article: the first of its tags or its category that finds published classes
 * (tags are specific — 英語, 将棋 — categories are broad), else the newest classes.
 */
async function relatedClasses(terms: string[]): Promise<{ items: ClassCardView[]; term?: string }> {
  const results = await Promise.all(
    terms.slice(0, 4).map((q) => api.searchClassWorks({ q, sort: 'popular' }).then((r) => ({ q, r }))),
  )
  const hit = results.find(({ r }) => r && r.items.length > 0)
  if (hit?.r) return { items: hit.r.items.slice(0, RELATED_LIMIT).map(toClassCardView), term: hit.q }
  const newest = (await api.listNewArrivalsByClass(RELATED_LIMIT)) ?? []
  return { items: newest.slice(0, RELATED_LIMIT).map(toClassCardView) }
}

/** An article with its body sanitized on the server, related classes and articles; null when there is none (404). */
export const getMagazineArticle = createServerFn({ method: 'GET' })
  .validator(idInput)
  .handler(async ({ data }) => {
    const article = await api.getMagazineArticle(data)
    if (!article) return null
    const [related, relatedArticles] = await Promise.all([
      relatedClasses([...article.tags, article.category]),
      api.getRelatedArticles(data),
    ])
    return {
      article: { ...article, body: sanitizeArticleHtml(article.body) },
      related,
      relatedArticles: relatedArticles ?? [],
    }
  })
