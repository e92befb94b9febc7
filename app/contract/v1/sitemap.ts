import { z } from 'zod'
import { DateTime, Id } from './common'

const Entry = z.object({ id: Id, updated_at: DateTime })

/** GET /v1/sitemap_entries: every public detail page's id and last change, for sitemap.xml. */
export const SitemapEntries = z.object({
  class_works: z.array(Entry),
  teachers: z.array(Entry),
  magazine_articles: z.array(Entry),
})
export type SitemapEntries = z.infer<typeof SitemapEntries>
