import { z } from 'zod'
import { DateTime, Id } from './common'

/** Calendar sync (issue 16): the member's private feed of booked lessons. */

/** 32 random bytes, base64url. */
export const CALENDAR_TOKEN = /^[A-Za-z0-9_-]{43}$/
export const CalendarTokenParams = z.object({
  token: z.string().regex(CALENDAR_TOKEN, 'カレンダーのURLが正しくありません'),
})

/** GET /v1/users/calendar, POST /v1/users/calendar/regenerate: the secret of the member's feed. */
export const CalendarSubscription = z.object({ token: z.string().regex(CALENDAR_TOKEN) })
export type CalendarSubscription = z.infer<typeof CalendarSubscription>

export const CalendarLesson = z.object({
  purchase_id: Id,
  class_work_id: Id,
  class_title: z.string(),
  teacher_nickname: z.string(),
  /** Who attends: a learner's nickname or the member's own. */
  attendee: z.string(),
  started_at: DateTime,
  ended_at: DateTime,
  /** Which lesson of the reservation this is: 1 of 1 for a single lesson, n of N for a course run (全N回). */
  lesson_number: z.number().int().min(1),
  lesson_count: z.number().int().min(1),
  /** A cancelled reservation stays in the feed for a while as cancelled, so calendars drop it. */
  status: z.enum(['confirmed', 'cancelled']),
  /** When it last changed (booked, its time moved, cancelled): the event's DTSTAMP. */
  updated_at: DateTime,
  /** How often it changed (each move of its time, and its cancellation): the event's SEQUENCE, never lower. */
  sequence: z.number().int().nonnegative(),
})
export type CalendarLesson = z.infer<typeof CalendarLesson>

/** GET /v1/calendar_feeds/{token}: what the feed shows (the BFF writes it as iCalendar). */
export const CalendarFeed = z.object({ owner: z.string(), lessons: z.array(CalendarLesson) })
export type CalendarFeed = z.infer<typeof CalendarFeed>
