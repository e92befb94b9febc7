import { z } from 'zod'
import { DateTime, Id } from './common'

/** キャンセル待ち (issue 16). */

/** learner_id null or left out: the member themself, as in POST /v1/purchases. */
export const JoinWaitlistBody = z.object({ learner_id: Id.nullable().optional() }).strict()
export type JoinWaitlistBody = z.infer<typeof JoinWaitlistBody>

export const WaitlistReceipt = z.object({ id: Id, position: z.number().int().positive() })

export const WaitlistEntry = z.object({
  id: Id,
  /** waiting: in line (position); offered: a seat is held for the member until offer_expires_at. */
  status: z.enum(['waiting', 'offered']),
  position: z.number().int().positive().nullable(),
  offer_expires_at: DateTime.nullable(),
  created_at: DateTime,
  attendee: z.string(),
  /** lesson_count > 1: a course (全N回), whose run spans schedule.started_at … ended_at. */
  class_work: z.object({ id: Id, title: z.string(), lesson_count: z.number().int().positive() }),
  schedule: z.object({ id: Id, started_at: DateTime, ended_at: DateTime }),
})
export type WaitlistEntry = z.infer<typeof WaitlistEntry>
export const WaitlistEntryList = z.array(WaitlistEntry)
