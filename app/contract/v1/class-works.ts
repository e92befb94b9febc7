import { z } from 'zod'
import { SEARCH_YEARS } from '../../lib/search-values'
import { DateTime, Id, Lesson, MasterRef, PersonRef, paged, ScheduleSummary, searchText } from './common'
import { RatingSummary } from './reviews'

/** A schedule entry as anyone may see it (no meeting URL). */
export const PublicSchedule = z.object({
  id: Id,
  started_at: DateTime,
  ended_at: DateTime,
  capacity: z.number().int().positive(),
  purchased_count: z.number().int().nonnegative(),
  /** Seats held for someone on the waitlist (issue 16): not free for anyone else. */
  held_count: z.number().int().nonnegative(),
  is_canceled: z.boolean(),
  /**
   * Its lessons in time order (issue 16): one for a single lesson (the schedule's own period), N for a course run
   * (全N回), whose started_at/ended_at then span them.
   */
  lessons: z.array(Lesson).min(1),
})
export type PublicSchedule = z.infer<typeof PublicSchedule>

/** A class in a list (search results, home page rows, a teacher's classes). */
export const ClassWorkCard = z.object({
  id: Id,
  title: z.string(),
  image_url: z.string().nullable(),
  price: z.number().int().nonnegative(),
  capacity: z.number().int().positive(),
  duration_minutes: z.number().int().positive(),
  /** 1, or N ≥ 2 for a course (全N回): each schedule is then N lessons booked together. */
  lesson_count: z.number().int().min(1).max(20),
  category: MasterRef,
  class_style: MasterRef,
  target_grades: z.array(MasterRef),
  /** is_verified: 本人確認済み (issue 15). */
  teacher: PersonRef.extend({ is_verified: z.boolean() }),
  /** The earliest schedule that has not started and is not canceled. */
  next_schedule: PublicSchedule.nullable(),
  favorite_count: z.number().int().nonnegative(),
  /** Visible reviews (issue 16): average (one decimal) and count. */
  rating: RatingSummary,
  created_at: DateTime,
})
export type ClassWorkCard = z.infer<typeof ClassWorkCard>
export const ClassWorkCardList = z.array(ClassWorkCard)

export const ClassWorkDetail = ClassWorkCard.extend({
  description: z.string(),
  organization: z.object({ id: Id, name: z.string() }).nullable(),
  /** Schedules from 30 days ago onwards, by start. */
  schedules: z.array(PublicSchedule),
  /** Over every schedule of the class (spec §3). */
  summary: ScheduleSummary,
  updated_at: DateTime,
})
export type ClassWorkDetail = z.infer<typeof ClassWorkDetail>

/** GET /v1/class_works/close_to_starts: one row per upcoming schedule. */
export const CloseToStart = z.object({ schedule: PublicSchedule, class_work: ClassWorkCard })
export type CloseToStart = z.infer<typeof CloseToStart>
export const CloseToStartList = z.array(CloseToStart)

export const ListLimitQuery = z.object({
  limit: z
    .string()
    .regex(/^[1-9]\d?$/, '件数は1〜50で指定してください')
    .transform(Number)
    .pipe(z.number().max(50, '件数は1〜50で指定してください'))
    .optional(),
})

export const searchSorts = ['new', 'start', 'price_asc', 'price_desc', 'popular', 'rating'] as const
export type SearchSort = (typeof searchSorts)[number]

const Yen = z.number().int().min(0).max(10_000_000)
const Day = z.iso.date({ error: '日付は YYYY-MM-DD の形式で指定してください' }).refine((d) => {
  const year = Number(d.slice(0, 4))
  return year >= SEARCH_YEARS.min && year <= SEARCH_YEARS.max
}, `日付は${SEARCH_YEARS.min}年から${SEARCH_YEARS.max}年までで指定してください`)

/** POST /v1/class_works/search: PRODUCT.md's search parameters. Dates are Tokyo calendar days. */
export const ClassWorkSearchBody = z
  .object({
    q: searchText(100, 'キーワードは100文字以内で入力してください').optional(),
    category: Id.optional(),
    grade: Id.optional(),
    style: Id.optional(),
    price_min: Yen.optional(),
    price_max: Yen.optional(),
    from: Day.optional(),
    to: Day.optional(),
    /** Lessons on these Tokyo weekdays (issue 16) … */
    weekday: z
      .array(z.enum(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], { message: '曜日が正しくありません' }))
      .min(1)
      .max(7)
      .optional(),
    /** … and at these times of day (morning < 12:00 ≤ afternoon < 17:00 ≤ evening), upcoming only. */
    time: z
      .array(z.enum(['morning', 'afternoon', 'evening'], { message: '時間帯が正しくありません' }))
      .min(1)
      .max(3)
      .optional(),
    /** At least this average of stars (1–5, halves allowed). */
    rating_min: z
      .number()
      .min(1, '評価は1〜5で指定してください')
      .max(5, '評価は1〜5で指定してください')
      .multipleOf(0.5, '評価は0.5刻みで指定してください')
      .optional(),
    sort: z.enum(searchSorts).optional(),
    page: z.number().int().min(1).max(1000).optional(),
  })
  .strict()
  // A reversed range would match nothing: say so instead (the search page swaps it before it asks).
  .refine((b) => b.price_min === undefined || b.price_max === undefined || b.price_min <= b.price_max, {
    path: ['price_max'],
    message: '料金の上限は下限以上で指定してください',
  })
  .refine((b) => !b.from || !b.to || b.from <= b.to, {
    path: ['to'],
    message: '終了日は開始日と同じか、それより後の日付を指定してください',
  })
export type ClassWorkSearchBody = z.input<typeof ClassWorkSearchBody>

/**
 * A page of a class search. The count stops at SEARCH_COUNT_CAP (1,000) matches: `total_capped` says that there are
 * more than `total`, and `total_pages` then covers the first 1,000 (docs/decisions/0011-search-sort-keys.md).
 */
export const ClassWorkSearchResult = paged(ClassWorkCard).extend({ total_capped: z.boolean() })
export type ClassWorkSearchResult = z.infer<typeof ClassWorkSearchResult>

/** GET /v1/teachers/my_class_works: the caller's classes, published or not. */
export const MyClassWork = ClassWorkCard.extend({
  is_published: z.boolean(),
  organization_id: Id.nullable(),
  summary: ScheduleSummary,
  schedule_count: z.number().int().nonnegative(),
  upcoming_schedule_count: z.number().int().nonnegative(),
  updated_at: DateTime,
})
export type MyClassWork = z.infer<typeof MyClassWork>
export const MyClassWorkList = z.array(MyClassWork)

export const MyClassWorksQuery = z.object({ is_published: z.enum(['true', 'false']).optional() })

/** GET /v1/teachers/my_class_work_schedules/{id}/students: who reserved one of the caller's schedules. */
export const Student = z.object({
  purchase_id: Id,
  status: z.enum(['reserved', 'canceled_by_user', 'canceled_by_teacher']),
  reserved_at: DateTime,
  canceled_at: DateTime.nullable(),
  user: PersonRef,
  learner: z.object({ id: Id, nickname: z.string(), school_type_id: Id, target_grade_id: Id }).nullable(),
})
export type Student = z.infer<typeof Student>
export const StudentList = z.array(Student)
