import { z } from 'zod'

/**
 * GET /v1/furigana (issue 19, docs/decisions/0028): the stored furigana of content, by the content's ids. Ids are
 * comma-separated, at most 60 of each kind; what the caller may not see, or what has no reading yet, is left out.
 */
const IdList = z
  .string()
  .regex(/^[1-9]\d{0,8}(,[1-9]\d{0,8}){0,59}$/, 'IDはカンマ区切りで60件まで指定してください')
  .transform((s) => [...new Set(s.split(',').map(Number))])

export const FuriganaQuery = z.object({
  class_ids: IdList.optional(),
  user_ids: IdList.optional(),
  announcement_ids: IdList.optional(),
})
export type FuriganaQuery = z.input<typeof FuriganaQuery>

/** The same ids as numbers, as the BFF and the pages hold them. */
export interface FuriganaIds {
  class_ids?: number[]
  user_ids?: number[]
  announcement_ids?: number[]
}

export const RubySegment = z.union([z.string(), z.tuple([z.string(), z.string()])])
export const RubyText = z.array(RubySegment)

/** Segments by the exact text they read: a page looks its texts up as it renders them. */
export const FuriganaMap = z.object({ texts: z.record(z.string(), RubyText) })
export type FuriganaMap = z.infer<typeof FuriganaMap>
