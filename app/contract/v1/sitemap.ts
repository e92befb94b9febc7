import { z } from 'zod'
import { DateTime, Id } from './common'

const Entry = z.object({ id: Id, updated_at: DateTime })

export const SitemapQuery = z.object({
  page: z.coerce.number().int().min(1).max(1000).default(1),
})

/**
 * GET /v1/sitemap_entries?page=N: public detail pages' ids and last changes, for the sitemap. Each page holds up to
 * 15,000 of each kind, in id order; `pages` is how many there are (a large catalogue's sitemap is an index of them).
 */
export const SitemapEntries = z.object({
  class_works: z.array(Entry),
  teachers: z.array(Entry),
  magazine_articles: z.array(Entry),
  page: z.number().int().min(1),
  pages: z.number().int().min(1),
})
export type SitemapEntries = z.infer<typeof SitemapEntries>
