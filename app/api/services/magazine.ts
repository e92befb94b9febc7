import { and, desc, eq, lte, type SQL, sql } from 'drizzle-orm'
import type { Article, ArticlePage, ArticleSummary, MagazineFacets } from '../../contract/v1/magazine'
import type { Db } from '../../db/client'
import { magazineArticles } from '../../db/schema'
import { searchTerms } from '../../lib/search-normalize'
import { notFound } from '../errors'
import { iso } from './class-cards'

export const MAGAZINE_PER_PAGE = 12

const summaryColumns = {
  id: magazineArticles.id,
  title: magazineArticles.title,
  lead: magazineArticles.lead,
  imageUrl: magazineArticles.imageUrl,
  category: magazineArticles.category,
  tags: magazineArticles.tags,
  publishedAt: magazineArticles.publishedAt,
}

function toSummary(r: {
  id: number
  title: string
  lead: string
  imageUrl: string | null
  category: string
  tags: string[]
  publishedAt: Date
}): ArticleSummary {
  return {
    id: r.id,
    title: r.title,
    lead: r.lead,
    image_url: r.imageUrl,
    category: r.category,
    tags: r.tags,
    published_at: iso(r.publishedAt),
  }
}

export async function listArticles(
  db: Db,
  p: { q?: string; category?: string; tag?: string; page?: number },
  now: Date,
): Promise<ArticlePage> {
  // Scheduled articles (published_at in the future) are not shown yet.
  const where: SQL[] = [lte(magazineArticles.publishedAt, now)]
  for (const term of searchTerms(p.q)) where.push(sql`strpos(${magazineArticles.searchText}, ${term}) > 0`)
  if (p.category) where.push(eq(magazineArticles.category, p.category))
  if (p.tag) where.push(sql`${magazineArticles.tags} @> array[${p.tag}]::text[]`)
  const condition = and(...where)
  const page = p.page ?? 1
  const [totalRow] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(magazineArticles)
    .where(condition)
  const total = Number(totalRow?.n ?? 0)
  const rows =
    total === 0
      ? []
      : await db
          .select(summaryColumns)
          .from(magazineArticles)
          .where(condition)
          .orderBy(desc(magazineArticles.publishedAt), desc(magazineArticles.id))
          .limit(MAGAZINE_PER_PAGE)
          .offset((page - 1) * MAGAZINE_PER_PAGE)
  return {
    items: rows.map(toSummary),
    total,
    page,
    per_page: MAGAZINE_PER_PAGE,
    total_pages: Math.ceil(total / MAGAZINE_PER_PAGE),
  }
}

export async function getArticle(db: Db, id: number, now: Date): Promise<Article> {
  const [row] = await db
    .select({ ...summaryColumns, body: magazineArticles.body })
    .from(magazineArticles)
    .where(and(eq(magazineArticles.id, id), lte(magazineArticles.publishedAt, now)))
    .limit(1)
  if (!row) throw notFound('記事')
  return { ...toSummary(row), body: row.body }
}

export const RELATED_ARTICLES_LIMIT = 3

/**
 * Articles to read next (GET /v1/magazine_articles/{id}/related): published ones sharing a tag or the category,
 * two points per shared tag and one for the category, newest first among equals. 404 like the article itself.
 */
export async function relatedArticles(db: Db, id: number, now: Date): Promise<ArticleSummary[]> {
  const published = lte(magazineArticles.publishedAt, now)
  const [self] = await db
    .select({ category: magazineArticles.category, tags: magazineArticles.tags })
    .from(magazineArticles)
    .where(and(eq(magazineArticles.id, id), published))
    .limit(1)
  if (!self) throw notFound('記事')
  const tags = sql`array[${sql.join(
    self.tags.map((t) => sql`${t}`),
    sql`, `,
  )}]::text[]`
  const score = sql<number>`(cardinality(array(select unnest(${magazineArticles.tags}) intersect select unnest(${tags}))) * 2
    + (${magazineArticles.category} = ${self.category})::int)`
  const rows = await db
    .select(summaryColumns)
    .from(magazineArticles)
    .where(
      and(
        published,
        sql`${magazineArticles.id} <> ${id}`,
        sql`(${magazineArticles.tags} && ${tags} or ${magazineArticles.category} = ${self.category})`,
      ),
    )
    .orderBy(desc(score), desc(magazineArticles.publishedAt), desc(magazineArticles.id))
    .limit(RELATED_ARTICLES_LIMIT)
  return rows.map(toSummary)
}

/** Categories and tags of the published articles with their counts, most used first, then by name. */
export async function articleFacets(db: Db, now: Date): Promise<MagazineFacets> {
  const published = lte(magazineArticles.publishedAt, now)
  const n = sql<number>`count(*)::int`
  const [categories, tags] = await Promise.all([
    db
      .select({ name: magazineArticles.category, count: n })
      .from(magazineArticles)
      .where(published)
      .groupBy(magazineArticles.category)
      .orderBy(desc(n), magazineArticles.category),
    db
      .select({ name: sql<string>`t.tag`, count: n })
      .from(sql`${magazineArticles} cross join lateral unnest(${magazineArticles.tags}) as t(tag)`)
      .where(published)
      .groupBy(sql`t.tag`)
      .orderBy(desc(n), sql`t.tag`),
  ])
  const facet = (r: { name: string; count: number }) => ({ name: r.name, count: Number(r.count) })
  return { categories: categories.map(facet), tags: tags.map(facet) }
}
