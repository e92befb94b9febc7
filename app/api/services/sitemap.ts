import { and, asc, count, eq, isNull, lte, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { SitemapEntries } from '../../contract/v1/sitemap'
import type { Db } from '../../db/client'
import { classWorks, magazineArticles, users } from '../../db/schema'
import { iso } from './class-cards'
import { publicTeacher } from './teachers'

/**
 * Entries of each kind a sitemap page holds: three kinds and the fixed pages stay under the 50,000 URLs a sitemap
 * file may hold. A catalogue past it gets more pages, listed by a sitemap index (/sitemap.xml).
 */
export const SITEMAP_PAGE_SIZE = 15_000

/** What a search engine may index: published classes, teachers' public pages, published articles. */
export async function sitemapEntries(
  db: Db,
  now: Date,
  page = 1,
  pageSize = SITEMAP_PAGE_SIZE,
): Promise<SitemapEntries> {
  const kinds = [
    {
      table: classWorks,
      id: classWorks.id,
      updatedAt: classWorks.updatedAt,
      where: eq(classWorks.isPublished, true),
    },
    {
      table: users,
      id: users.id,
      updatedAt: users.updatedAt,
      where: and(publicTeacher, isNull(users.suspendedAt))!,
    },
    {
      table: magazineArticles,
      id: magazineArticles.id,
      updatedAt: magazineArticles.publishedAt,
      where: lte(magazineArticles.publishedAt, now),
    },
  ] satisfies { table: PgTable; id: PgColumn; updatedAt: PgColumn; where: SQL }[]
  // Pages are cut in id order, which an edit does not move. A class published or withdrawn between the reads of two
  // pages (each kept 10 minutes) shifts the cut by one: an entry at the edge may be listed twice or wait a while.
  const [lists, counts] = await Promise.all([
    Promise.all(
      kinds.map((k) =>
        db
          .select({ id: k.id, updatedAt: k.updatedAt })
          .from(k.table)
          .where(k.where)
          .orderBy(asc(k.id))
          .limit(pageSize)
          .offset((page - 1) * pageSize),
      ),
    ),
    Promise.all(kinds.map((k) => db.select({ n: count() }).from(k.table).where(k.where))),
  ])
  const entry = (r: { id: number; updatedAt: Date }) => ({ id: r.id, updated_at: iso(r.updatedAt) })
  const largest = Math.max(...counts.map(([c]) => Number(c?.n ?? 0)))
  return {
    class_works: lists[0]!.map(entry),
    teachers: lists[1]!.map(entry),
    magazine_articles: lists[2]!.map(entry),
    page,
    pages: Math.max(1, Math.ceil(largest / pageSize)),
  }
}
