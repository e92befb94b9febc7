import { and, desc, eq, isNull, lte } from 'drizzle-orm'
import type { SitemapEntries } from '../../contract/v1/sitemap'
import type { Db } from '../../db/client'
import { classWorks, magazineArticles, users } from '../../db/schema'
import { iso } from './class-cards'

/** A sitemap file holds at most 50,000 URLs; the fixed pages take a few of them. */
export const SITEMAP_LIMIT_PER_KIND = 16_000

/** What a search engine may index: published classes, teachers' public pages, published articles. */
export async function sitemapEntries(db: Db, now: Date): Promise<SitemapEntries> {
  const [classes, teachers, articles] = await Promise.all([
    db
      .select({ id: classWorks.id, updatedAt: classWorks.updatedAt })
      .from(classWorks)
      .where(eq(classWorks.isPublished, true))
      .orderBy(desc(classWorks.updatedAt), desc(classWorks.id))
      .limit(SITEMAP_LIMIT_PER_KIND),
    db
      .select({ id: users.id, updatedAt: users.updatedAt })
      .from(users)
      .where(and(eq(users.isTeacher, true), isNull(users.suspendedAt)))
      .orderBy(desc(users.updatedAt), desc(users.id))
      .limit(SITEMAP_LIMIT_PER_KIND),
    db
      .select({ id: magazineArticles.id, updatedAt: magazineArticles.publishedAt })
      .from(magazineArticles)
      .where(lte(magazineArticles.publishedAt, now))
      .orderBy(desc(magazineArticles.publishedAt), desc(magazineArticles.id))
      .limit(SITEMAP_LIMIT_PER_KIND),
  ])
  const entry = (r: { id: number; updatedAt: Date }) => ({ id: r.id, updated_at: iso(r.updatedAt) })
  return {
    class_works: classes.map(entry),
    teachers: teachers.map(entry),
    magazine_articles: articles.map(entry),
  }
}
