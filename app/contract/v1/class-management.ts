import { z } from 'zod'
import { MyClassWork, PublicSchedule } from './class-works'
import { DateTime, Id, line, paragraph } from './common'

/**
 * Class management (issue #7): the teacher's writes on their own classes, schedules and announcements.
 * A caller who is not a teacher gets 403 `not_teacher`; another teacher's class or schedule is 404.
 */

const int = (label: string) =>
  z.number({ error: `${label}を数値で入力してください` }).int(`${label}は整数で入力してください`)

/** Only https links (a meeting room, an organisation's site). */
export const HttpsUrl = z
  .string()
  .trim()
  .max(500, '500文字以内で入力してください')
  .regex(/^https:\/\/[^\s/?#]+\.[^\s]+$/, 'https:// で始まるURLを入力してください')

/** An uploaded class image (`/uploads/classes/<random>.<ext>`) or one of the site's own images. */
export const ClassImageUrl = z
  .string()
  .regex(
    /^\/(uploads\/classes\/[a-f0-9]{32}\.(png|jpg|webp)|images\/[a-z0-9\-/]+\.(svg|png|jpg|webp))$/,
    '画像が正しくありません',
  )

/** The lowest price of a paid class (yen). */
export const MIN_PAID_PRICE = 50

/** The most lessons a course (全N回) may have. */
export const MAX_LESSONS = 20

const requiredText = (max: number) => paragraph(max).refine((v) => v.trim().length > 0, '入力してください')

export const ClassWorkInput = z
  .object({
    title: line(60),
    description: requiredText(4000),
    category_id: Id,
    class_style_id: Id,
    target_grade_ids: z
      .array(Id)
      .min(1, '対象学年を1つ以上選択してください')
      .max(30)
      .refine((ids) => new Set(ids).size === ids.length, '対象学年が重複しています'),
    price: int('料金')
      .min(0, '料金は0円以上で入力してください')
      .max(1_000_000, '料金は100万円以下で入力してください')
      // Card payments in yen start at ¥50 (Stripe's minimum charge): a dearer-than-free class below it could be
      // published but never paid for.
      .refine(
        (yen) => yen === 0 || yen >= MIN_PAID_PRICE,
        `有料のクラスは${MIN_PAID_PRICE}円以上にしてください`,
      ),
    capacity: int('定員')
      .min(1, '定員は1人以上で入力してください')
      .max(100, '定員は100人以下で入力してください'),
    duration_minutes: int('時間')
      .min(10, '時間は10分以上で入力してください')
      .max(480, '時間は480分以下で入力してください'),
    /** 全N回: 2–20 makes the class a course (issue 16); 1 or absent, a single lesson. */
    lesson_count: int('回数')
      .min(1, '回数は1回以上で入力してください')
      .max(MAX_LESSONS, `回数は${MAX_LESSONS}回以下で入力してください`)
      .optional(),
    image_url: ClassImageUrl.nullable().optional(),
    is_published: z.boolean().optional(),
  })
  .strict()
export type ClassWorkInput = z.infer<typeof ClassWorkInput>

export const ClassWorkPatch = ClassWorkInput.partial()
  .extend({
    /** The class's updated_at when the edit began: a change saved meanwhile elsewhere is not overwritten (409). */
    expected_updated_at: DateTime.optional(),
  })
  .strict()
export type ClassWorkPatch = z.infer<typeof ClassWorkPatch>

/** A schedule as its teacher sees it (with the meeting URL). */
export const TeacherSchedule = PublicSchedule.extend({ meeting_url: z.string().nullable() })
export type TeacherSchedule = z.infer<typeof TeacherSchedule>

/** GET /v1/teachers/class_works/{id}: the owner's full view, published or not. */
export const TeacherClassWork = MyClassWork.extend({
  description: z.string(),
  organization: z.object({ id: Id, name: z.string() }).nullable(),
  schedules: z.array(TeacherSchedule),
  /** Nobody ever reserved it (a cancelled or unpaid reservation counts): DELETE takes it, otherwise 409. */
  deletable: z.boolean(),
  /** The server's clock when it answered: the page tells started lessons from coming ones by it (serverClockAt). */
  now: DateTime,
})
export type TeacherClassWork = z.infer<typeof TeacherClassWork>

const Lessons = z
  .array(z.object({ started_at: DateTime, ended_at: DateTime }).strict())
  .min(2, 'コースの日時は2回分以上入力してください')
  .max(MAX_LESSONS, `コースの日時は${MAX_LESSONS}回分までです`)
  .superRefine((lessons, ctx) => {
    lessons.forEach((l, i) => {
      if (Date.parse(l.ended_at) <= Date.parse(l.started_at))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'ended_at'],
          message: `第${i + 1}回の終了日時は開始日時より後にしてください`,
        })
      const prev = lessons[i - 1]
      if (prev && Date.parse(l.started_at) < Date.parse(prev.ended_at))
        ctx.addIssue({
          code: 'custom',
          path: [i, 'started_at'],
          message: `第${i + 1}回は第${i}回が終わってから始まる日時にしてください`,
        })
    })
  })

const scheduleFields = {
  /** A single lesson's period; a course run gives `lessons` instead. */
  started_at: DateTime.optional(),
  ended_at: DateTime.optional(),
  /** A course run (全N回): exactly the class's lesson_count lessons, in time order, none overlapping. */
  lessons: Lessons.optional(),
  /** Defaults to the class's capacity. */
  capacity: int('定員')
    .min(1, '定員は1人以上で入力してください')
    .max(100, '定員は100人以下で入力してください')
    .optional(),
  meeting_url: HttpsUrl.nullable().optional(),
}

const periodOrLessons = (v: { started_at?: string; ended_at?: string; lessons?: unknown }) =>
  v.lessons === undefined || (v.started_at === undefined && v.ended_at === undefined)

/** POST …/schedules: a single lesson (started_at + ended_at) or a course run (lessons). */
export const ScheduleInput = z
  .object(scheduleFields)
  .strict()
  .refine(periodOrLessons, { message: '日時は started_at/ended_at か lessons のどちらかで指定してください' })
  .refine((v) => v.lessons !== undefined || (v.started_at !== undefined && v.ended_at !== undefined), {
    message: '開始日時と終了日時を入力してください',
    path: ['started_at'],
  })
export type ScheduleInput = z.infer<typeof ScheduleInput>

export const SchedulePatch = z
  .object(scheduleFields)
  .strict()
  .refine(periodOrLessons, { message: '日時は started_at/ended_at か lessons のどちらかで指定してください' })
export type SchedulePatch = z.infer<typeof SchedulePatch>

/** POST /v1/teachers/class_work_schedules/{id}/cancel */
export const ScheduleCancelResult = z.object({
  schedule: TeacherSchedule,
  canceled_reservations: z.number().int().nonnegative(),
  refunded_amount: z.number().int().nonnegative(),
})
export type ScheduleCancelResult = z.infer<typeof ScheduleCancelResult>

export const AnnouncementInput = z
  .object({
    title: line(100),
    body: requiredText(2000),
  })
  .strict()
export type AnnouncementInput = z.infer<typeof AnnouncementInput>

export const AnnouncementCreated = z.object({
  id: Id,
  class_work_id: Id,
  title: z.string(),
  body: z.string(),
  created_at: DateTime,
  /** Members holding a reservation on the class when it was posted. */
  recipient_count: z.number().int().nonnegative(),
})
export type AnnouncementCreated = z.infer<typeof AnnouncementCreated>

export const Deleted = z.object({ id: Id, deleted: z.literal(true) })
