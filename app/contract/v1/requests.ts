import { z } from 'zod'
import { DAY_TIMES, type DayTime, WEEKDAYS, type Weekday } from '../../lib/request-slots'
import { DateTime, Id, paragraph } from './common'

/** リクエスト開催 (issue 16). */

const Weekdays = z
  .array(z.enum(Object.keys(WEEKDAYS) as [Weekday, ...Weekday[]]), { error: '希望の曜日を選んでください' })
  .min(1, '希望の曜日を選んでください')
  .max(7)
  .transform((v) => [...new Set(v)])
const Times = z
  .array(z.enum(Object.keys(DAY_TIMES) as [DayTime, ...DayTime[]]), { error: '希望の時間帯を選んでください' })
  .min(1, '希望の時間帯を選んでください')
  .max(3)
  .transform((v) => [...new Set(v)])

export const CreateClassRequestBody = z
  .object({ weekdays: Weekdays, times: Times, note: paragraph(300).default('') })
  .strict()
export type CreateClassRequestBody = z.input<typeof CreateClassRequestBody>

export const ClassRequestReceipt = z.object({ id: Id, request_count: z.number().int().nonnegative() })

/**
 * GET /v1/class_works/{id}/requests/mine: whether the caller has an open request for the class (one the teacher has
 * not answered with a date yet), so that the class page says so instead of offering the form again.
 */
export const MyClassRequest = z.object({ requested: z.boolean(), requested_at: DateTime.nullable() })
export type MyClassRequest = z.infer<typeof MyClassRequest>

/** GET /v1/teachers/class_works/{id}/requests: the open requests of the teacher's class. */
export const ClassRequestList = z.object({
  count: z.number().int().nonnegative(),
  items: z.array(
    z.object({
      id: Id,
      nickname: z.string(),
      weekdays: z.array(z.string()),
      times: z.array(z.string()),
      note: z.string(),
      created_at: DateTime,
    }),
  ),
})
export type ClassRequestList = z.infer<typeof ClassRequestList>
