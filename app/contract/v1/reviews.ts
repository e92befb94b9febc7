import { z } from 'zod'
import { DateTime, Id, paragraph } from './common'

/** Reviews and ratings (issue 16; docs/decisions/0021). */

const ReviewText = (min: number, what: string) =>
  paragraph(1000).refine((v) => v.trim().length >= min, `${what}は${min}文字以上で入力してください`)

export const CreateReviewBody = z
  .object({
    rating: z
      .number({ error: '評価を選んでください' })
      .int()
      .min(1, '評価を選んでください')
      .max(5, '評価を選んでください'),
    comment: ReviewText(10, 'コメント'),
  })
  .strict()
export type CreateReviewBody = z.infer<typeof CreateReviewBody>

export const ReplyReviewBody = z.object({ reply: ReviewText(1, '返信') }).strict()
export type ReplyReviewBody = z.infer<typeof ReplyReviewBody>

/** What a card and a page say of a class's (or teacher's) reviews. `average` is null without reviews. */
export const RatingSummary = z.object({
  average: z.number().min(1).max(5).nullable(),
  count: z.number().int().nonnegative(),
})
export type RatingSummary = z.infer<typeof RatingSummary>

export const Review = z.object({
  id: Id,
  rating: z.number().int().min(1).max(5),
  comment: z.string(),
  created_at: DateTime,
  /** The member's nickname only: never a learner's name. */
  reviewer: z.object({ nickname: z.string() }),
  reply: z.object({ body: z.string(), created_at: DateTime }).nullable(),
  /** The caller is this class's teacher and has not replied yet. */
  can_reply: z.boolean(),
  /** The caller may report it (signed in, not their own). */
  can_report: z.boolean(),
})
export type Review = z.infer<typeof Review>

export const ReviewPage = z.object({
  summary: RatingSummary.extend({
    /** Counts of ★1 … ★5, in that order. */
    histogram: z.array(z.number().int().nonnegative()).length(5),
  }),
  items: z.array(Review),
  page: z.number().int().positive(),
  total_pages: z.number().int().nonnegative(),
})
export type ReviewPage = z.infer<typeof ReviewPage>

export const ReviewPageQuery = z.object({
  page: z
    .string()
    .regex(/^[1-9]\d{0,3}$/, 'ページ番号が正しくありません')
    .transform(Number)
    .optional(),
})

export const REVIEWS_PER_PAGE = 10

export const CreatedReview = z.object({ id: Id })
export const ReviewReply = z.object({ id: Id, reply: z.object({ body: z.string(), created_at: DateTime }) })
export type ReviewReply = z.infer<typeof ReviewReply>
