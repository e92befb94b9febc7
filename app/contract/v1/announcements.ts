import { z } from 'zod'
import { DateTime, Id } from './common'

export const ClassAnnouncement = z.object({
  id: Id,
  class_work_id: Id,
  class_work_title: z.string(),
  title: z.string(),
  body: z.string(),
  created_at: DateTime,
  is_read: z.boolean(),
})
export type ClassAnnouncement = z.infer<typeof ClassAnnouncement>
export const ClassAnnouncementList = z.array(ClassAnnouncement)

/** POST /v1/class_announcements/{id}/read and POST /v1/notices/{id}/read */
export const ReadResult = z.object({ id: Id, is_read: z.literal(true) })
export type ReadResult = z.infer<typeof ReadResult>
