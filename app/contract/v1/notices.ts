import { z } from 'zod'
import { DateTime, Id } from './common'

/** An operator notice (お知らせ) with the caller's read state. */
export const Notice = z.object({
  id: Id,
  title: z.string(),
  body: z.string(),
  /** The operator's Markdown, rendered and sanitised when written; null: show `body` as plain text. */
  body_html: z.string().nullable(),
  published_at: DateTime,
  is_read: z.boolean(),
})
export type Notice = z.infer<typeof Notice>
export const NoticeList = z.array(Notice)
