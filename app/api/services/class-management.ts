import { and, asc, eq, gt, inArray, isNull, lt, ne, type SQL, sql } from 'drizzle-orm'
import type {
  AnnouncementCreated,
  AnnouncementInput,
  ClassWorkInput,
  ClassWorkPatch,
  ScheduleCancelResult,
  ScheduleInput,
  SchedulePatch,
  TeacherClassWork,
  TeacherSchedule,
} from '../../contract/v1/class-management'
import type { Db, DbOrTx, Tx } from '../../db/client'
import {
  categories,
  classAnnouncements,
  classWorkScheduleLessons,
  classWorkSchedules,
  classWorks,
  classWorkTargetGrades,
  jobs,
  organizations,
  orgUsers,
  purchases,
  reviews,
  users,
  waitlistEntries,
} from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { containsContactInfo } from '../../lib/contact-detector'
import { nextEditVersion } from '../../lib/edit-version'
import { formatRunJa, formatScheduleJa } from '../../lib/format'
import { CANCEL_DEADLINE_MS } from '../../lib/reservation-rules'
import { findOverlap } from '../../lib/schedule-overlap'
import { classSearchText } from '../../lib/search-normalize'
import type { UserRow } from '../auth'
import { ApiError, notFound, refuseContactInfo, refuseContactInfoIn } from '../errors'
import { refuseIfSuspended } from './account-state'
import { iso, scheduleColumns, selectClassRows, summaryJson, toCards, toPublicSchedule } from './class-cards'
import { releaseClassImage, requireOwnClassImage } from './class-images'
import { queueRequestNotices, queueRequestNoticesOnPublish } from './class-requests'
import { courseLessonsOf, type LessonPeriod, lessonsOr } from './lessons'
import { givePaymentUp, requestRefund } from './payments'
import { requireVerifiedTeacher } from './verifications'
import { cancelWaitlistOf, OFFER_MS, offerFreedSeats, offerSeatsOfClass, withdrawOffersOf } from './waitlist'

/**
 * Class management (issue #7). Rules:
 * - only teachers (users.is_teacher) may call these: anyone else gets 403 `not_teacher`;
 * - a class or schedule that is not the caller's own is 404 (ids cannot be probed);
 * - each write runs in one transaction and touches only `tx` (PGlite is one connection), retried on a deadlock or
 *   serialization failure (`transaction` in app/db/transaction.ts);
 * - locks are taken at the start, class → schedule → purchase (docs/decisions/0015-lock-order.md).
 */

export function requireTeacher(user: UserRow): void {
  if (!user.isTeacher)
    throw new ApiError(
      403,
      'not_teacher',
      '先生として登録すると利用できます。基本情報から先生の登録をしてください',
    )
}

/** The longest lesson: a class's longest duration (ClassWorkInput.duration_minutes). */
const MAX_LESSON_MINUTES = 480
const invalidPeriod = () => new ApiError(422, 'invalid_period', '終了日時は開始日時より後にしてください')
const overlap = () =>
  new ApiError(409, 'schedule_overlap', 'このクラスの別のスケジュールと時間が重なっています')
const teacherOverlap = (other: LiveLesson) =>
  new ApiError(
    409,
    'teacher_schedule_overlap',
    `同じ時間に別のクラス「${other.title}」の授業（${formatScheduleJa(other.startedAt, other.endedAt)}）があります`,
  )
const started = () => new ApiError(409, 'schedule_started', '開始時刻を過ぎたスケジュールは変更できません')

async function organizationIdOf(tx: DbOrTx, userId: number): Promise<number | null> {
  const [m] = await tx
    .select({ id: orgUsers.organizationId })
    .from(orgUsers)
    .where(eq(orgUsers.userId, userId))
    .limit(1)
  return m?.id ?? null
}

/**
 * The caller's class row, locked for the rest of the transaction; 404 when it is not theirs. Lock order
 * (docs/decisions/0015): the class first, then its schedules, then their purchases. FOR NO KEY UPDATE unless the
 * class is deleted: it queues with reservations (which take the same lock) without blocking foreign-key checks of
 * rows that point at the class (favorites, announcements…) or plain readers.
 */
async function lockOwnClass(
  tx: Tx,
  userId: number,
  classWorkId: number,
  strength: 'update' | 'no key update' = 'no key update',
) {
  const [row] = await tx
    .select()
    .from(classWorks)
    .where(and(eq(classWorks.id, classWorkId), eq(classWorks.teacherId, userId)))
    .for(strength)
  if (!row) throw notFound('クラス')
  return row
}

/**
 * Locks every class of a teacher in id order, before a statement that updates several of them: class rows are
 * always locked in ascending id, so two such writers cannot deadlock each other (docs/decisions/0015).
 */
export async function lockClassesOfTeacher(tx: Tx, teacherId: number): Promise<number[]> {
  const rows = await tx
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(eq(classWorks.teacherId, teacherId))
    .orderBy(asc(classWorks.id))
    .for('no key update')
  return rows.map((r) => r.id)
}

async function searchTextFor(
  tx: Tx,
  parts: { title: string; description: string; categoryId: number; teacherId: number },
) {
  const [row] = await tx
    .select({ category: categories.name, nickname: users.nickname })
    .from(categories)
    .innerJoin(users, eq(users.id, parts.teacherId))
    .where(eq(categories.id, parts.categoryId))
  if (!row) throw new ApiError(400, 'invalid_request', '存在しないカテゴリーが指定されています')
  return classSearchText({
    title: parts.title,
    description: parts.description,
    teacherNickname: row.nickname,
    categoryName: row.category,
  })
}

const toTeacherSchedule = (
  s: Parameters<typeof toPublicSchedule>[0] & { meetingUrl: string | null },
  courseLessons?: Map<number, LessonPeriod[]> | LessonPeriod[],
): TeacherSchedule => ({ ...toPublicSchedule(s, courseLessons), meeting_url: s.meetingUrl })

/** GET /v1/teachers/class_works/{id}: the owner's full view (published or not, every schedule). */
export async function teacherClassWork(
  db: DbOrTx,
  user: UserRow,
  classWorkId: number,
  now: Date,
): Promise<TeacherClassWork> {
  requireTeacher(user)
  const [row] = await selectClassRows(db)
    .where(and(eq(classWorks.id, classWorkId), eq(classWorks.teacherId, user.id)))
    .limit(1)
  if (!row) throw notFound('クラス')
  const [[card], schedules, org] = await Promise.all([
    toCards(db, [row], now),
    db
      .select({ ...scheduleColumns, meetingUrl: classWorkSchedules.meetingUrl })
      .from(classWorkSchedules)
      .where(eq(classWorkSchedules.classWorkId, classWorkId))
      .orderBy(asc(classWorkSchedules.startedAt), asc(classWorkSchedules.id)),
    row.organizationId
      ? db
          .select({ id: organizations.id, name: organizations.name })
          .from(organizations)
          .where(eq(organizations.id, row.organizationId))
          .then((r) => r[0] ?? null)
      : Promise.resolve(null),
  ])
  const lessons =
    row.lessonCount > 1
      ? await courseLessonsOf(
          db,
          schedules.map((s) => s.id),
        )
      : undefined
  return {
    ...card!,
    is_published: row.isPublished,
    organization_id: row.organizationId,
    organization: org,
    description: row.description,
    summary: summaryJson(schedules, now),
    schedule_count: schedules.length,
    upcoming_schedule_count: schedules.filter((s) => !s.isCanceled && s.startedAt.getTime() >= now.getTime())
      .length,
    updated_at: iso(row.updatedAt),
    schedules: schedules.map((s) => toTeacherSchedule(s, lessons)),
    deletable: !(await anyReservationOf(db, classWorkId)),
    now: iso(now),
  }
}

/** Whether any reservation (in any state) points at the class: deleteClassWork refuses such a class. */
async function anyReservationOf(db: DbOrTx, classWorkId: number): Promise<boolean> {
  const [booked] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .where(eq(classWorkSchedules.classWorkId, classWorkId))
    .limit(1)
  return booked !== undefined
}

/**
 * A class's title and description are the most public text a member writes (its page, search, cards, mails): contact
 * details there would take a lesson off the platform past every message check (422 `contact_info`, by the field).
 */
function refuseContactInClass(
  text: { title?: string; description?: string },
  whole: { title: string; description: string } | undefined = undefined,
) {
  refuseContactInfoIn({
    title: { label: 'タイトル', text: text.title },
    description: { label: '説明', text: text.description },
  })
  // Read together too, as a page shows them: a number begun at the end of the title and ended in the description.
  // (Not when a part flags alone: that is old text the edit did not touch, judged by the field when it changes.)
  if (
    whole &&
    (text.title !== undefined || text.description !== undefined) &&
    !containsContactInfo(whole.title) &&
    !containsContactInfo(whole.description)
  )
    refuseContactInfoIn({
      description: { label: 'タイトルと説明', text: `${whole.title}\n${whole.description}` },
    })
}

/** POST /v1/teachers/class_works: a new class (unpublished unless is_published), under the caller's organisation. */
export async function createClassWork(
  db: Db,
  user: UserRow,
  input: ClassWorkInput,
  now: Date,
): Promise<TeacherClassWork> {
  requireTeacher(user)
  if (input.is_published) requireVerifiedTeacher(user, 'publish')
  refuseContactInClass(input, input)
  const id = await transaction(db, async (tx) => {
    await refuseIfSuspended(tx, user.id, 'share')
    await requireOwnClassImage(tx, user.id, input.image_url)
    const searchText = await searchTextFor(tx, {
      title: input.title,
      description: input.description,
      categoryId: input.category_id,
      teacherId: user.id,
    })
    const [row] = await tx
      .insert(classWorks)
      .values({
        teacherId: user.id,
        organizationId: await organizationIdOf(tx, user.id),
        title: input.title,
        description: input.description,
        categoryId: input.category_id,
        classStyleId: input.class_style_id,
        price: input.price,
        capacity: input.capacity,
        durationMinutes: input.duration_minutes,
        lessonCount: input.lesson_count ?? 1,
        imageUrl: input.image_url ?? null,
        isPublished: input.is_published ?? false,
        searchText,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: classWorks.id })
    await tx
      .insert(classWorkTargetGrades)
      .values(input.target_grade_ids.map((g) => ({ classWorkId: row!.id, targetGradeId: g })))
    return row!.id
  })
  return teacherClassWork(db, user, id, now)
}

/** PATCH /v1/teachers/class_works/{id} */
export async function updateClassWork(
  db: Db,
  user: UserRow,
  classWorkId: number,
  patch: ClassWorkPatch,
  now: Date,
): Promise<TeacherClassWork> {
  requireTeacher(user)
  await transaction(db, async (tx) => {
    const current = await lockOwnClass(tx, user.id, classWorkId)
    // A form opened before another tab's save sends every field as it read them: saved, it would put back what the
    // other tab changed (publish a class just withdrawn, restore an old price).
    if (
      patch.expected_updated_at !== undefined &&
      Date.parse(patch.expected_updated_at) !== current.updatedAt.getTime()
    )
      throw new ApiError(
        409,
        'class_changed',
        'このクラスは、この画面を開いたあとにほかの画面で変更されました。ページを読み込み直してから保存してください',
      )
    // Only what changes: text saved before this rule must not block an edit of another field.
    refuseContactInClass(
      {
        title: patch.title !== current.title ? patch.title : undefined,
        description: patch.description !== current.description ? patch.description : undefined,
      },
      { title: patch.title ?? current.title, description: patch.description ?? current.description },
    )
    // Read after the class lock: a suspension that committed meanwhile (it holds the classes first) is seen here.
    await refuseIfSuspended(tx, user.id)
    await requireOwnClassImage(tx, user.id, patch.image_url, current.imageUrl)
    if (patch.is_published && !current.isPublished) {
      requireVerifiedTeacher(user, 'publish')
      if (current.hiddenAt)
        throw new ApiError(
          409,
          'hidden_by_operator',
          'このクラスは運営が非表示にしたため、公開できません。お問い合わせください',
        )
    }
    if (patch.lesson_count !== undefined && patch.lesson_count !== current.lessonCount) {
      // Every schedule of a class has its lesson_count lessons: the count is fixed once the first one exists.
      const [any] = await tx
        .select({ id: classWorkSchedules.id })
        .from(classWorkSchedules)
        .where(eq(classWorkSchedules.classWorkId, classWorkId))
        .limit(1)
      if (any)
        throw new ApiError(
          409,
          'lesson_count_locked',
          '日程を追加したクラスの回数は変更できません。回数の違うコースは新しいクラスとして作成してください',
        )
    }
    const next = {
      title: patch.title ?? current.title,
      description: patch.description ?? current.description,
      categoryId: patch.category_id ?? current.categoryId,
    }
    await tx
      .update(classWorks)
      .set({
        ...next,
        classStyleId: patch.class_style_id ?? current.classStyleId,
        price: patch.price ?? current.price,
        capacity: patch.capacity ?? current.capacity,
        durationMinutes: patch.duration_minutes ?? current.durationMinutes,
        lessonCount: patch.lesson_count ?? current.lessonCount,
        imageUrl: patch.image_url === undefined ? current.imageUrl : patch.image_url,
        isPublished: patch.is_published ?? current.isPublished,
        searchText: await searchTextFor(tx, { ...next, teacherId: user.id }),
        updatedAt: nextEditVersion(now, current.updatedAt),
      })
      .where(eq(classWorks.id, classWorkId))
    if (patch.target_grade_ids) {
      await tx.delete(classWorkTargetGrades).where(eq(classWorkTargetGrades.classWorkId, classWorkId))
      await tx
        .insert(classWorkTargetGrades)
        .values(patch.target_grade_ids.map((g) => ({ classWorkId, targetGradeId: g })))
    }
    if (patch.image_url !== undefined && patch.image_url !== current.imageUrl)
      await releaseClassImage(tx, current.imageUrl, classWorkId)
    // The waitlist follows whether the class takes bookings (0023).
    if (patch.is_published === false && current.isPublished) await withdrawOffersOf(tx, classWorkId, now)
    if (patch.is_published === true && !current.isPublished) {
      await offerSeatsOfClass(tx, classWorkId, now)
      // Those who asked for a date hear of the next one now that it can be booked (0022).
      await queueRequestNoticesOnPublish(tx, classWorkId, now)
    }
  })
  return teacherClassWork(db, user, classWorkId, now)
}

/** DELETE /v1/teachers/class_works/{id}: only a class nobody ever reserved (409 `has_reservations`). */
export async function deleteClassWork(db: Db, user: UserRow, classWorkId: number): Promise<void> {
  requireTeacher(user)
  await transaction(db, async (tx) => {
    // FOR UPDATE: the row goes, so foreign-key checks of rows pointing at it must wait.
    const current = await lockOwnClass(tx, user.id, classWorkId, 'update')
    if (await anyReservationOf(tx, classWorkId))
      throw new ApiError(
        409,
        'has_reservations',
        '予約のあるクラスは削除できません。非公開にするか、スケジュールを休講にしてください',
      )
    await tx.delete(classWorks).where(eq(classWorks.id, classWorkId))
    await releaseClassImage(tx, current.imageUrl, classWorkId)
  })
}

interface LiveLesson extends LessonPeriod {
  /** The title of the lesson's class, to name it in a refusal. */
  title: string
}

/**
 * The lessons of the live schedules that match `where` and have not ended, with their class's title: a new or moved
 * lesson starts in the future, so only those can overlap it (the past stays out of every schedule write).
 */
async function liveLessons(tx: Tx, where: SQL[], now: Date): Promise<LiveLesson[]> {
  const schedules = await tx
    .select({
      id: classWorkSchedules.id,
      startedAt: classWorkSchedules.startedAt,
      endedAt: classWorkSchedules.endedAt,
      title: classWorks.title,
    })
    .from(classWorkSchedules)
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .where(and(eq(classWorkSchedules.isCanceled, false), gt(classWorkSchedules.endedAt, now), ...where))
    .orderBy(asc(classWorkSchedules.startedAt), asc(classWorkSchedules.id))
  const courseLessons = await courseLessonsOf(
    tx,
    schedules.map((s) => s.id),
  )
  return schedules.flatMap((s) => lessonsOr(s, courseLessons).map((l) => ({ ...l, title: s.title })))
}

/** The lessons of the class's other live schedules: what a new or moved lesson must not overlap. */
function otherLiveLessons(tx: Tx, classWorkId: number, now: Date, exceptId?: number) {
  const where = [eq(classWorkSchedules.classWorkId, classWorkId)]
  if (exceptId !== undefined) where.push(ne(classWorkSchedules.id, exceptId))
  return liveLessons(tx, where, now)
}

/**
 * The lessons a schedule write asks for, checked against the class: a single lesson takes started_at/ended_at, a
 * course (全N回) exactly lesson_count lessons. `current`: the schedule's lessons before a PATCH.
 */
function requestedLessons(
  cls: { lessonCount: number },
  input: { started_at?: string; ended_at?: string; lessons?: { started_at: string; ended_at: string }[] },
  current?: LessonPeriod[],
): LessonPeriod[] {
  if (cls.lessonCount > 1) {
    if (input.started_at !== undefined || input.ended_at !== undefined)
      throw new ApiError(
        422,
        'course_needs_lessons',
        `このクラスは全${cls.lessonCount}回のコースです。${cls.lessonCount}回分の日時を入力してください`,
      )
    if (!input.lessons) {
      if (current) return current
      throw new ApiError(
        422,
        'course_needs_lessons',
        `このクラスは全${cls.lessonCount}回のコースです。${cls.lessonCount}回分の日時を入力してください`,
      )
    }
    if (input.lessons.length !== cls.lessonCount)
      throw new ApiError(
        422,
        'lesson_count_mismatch',
        `このクラスは全${cls.lessonCount}回です。${cls.lessonCount}回分の日時を入力してください`,
      )
    return input.lessons.map((l) => ({ startedAt: new Date(l.started_at), endedAt: new Date(l.ended_at) }))
  }
  if (input.lessons)
    throw new ApiError(422, 'not_a_course', 'このクラスはコースではないため、日時は1回分だけ指定してください')
  const period = {
    startedAt: input.started_at ? new Date(input.started_at) : current?.[0]?.startedAt,
    endedAt: input.ended_at ? new Date(input.ended_at) : current?.[0]?.endedAt,
  }
  if (!period.startedAt || !period.endedAt)
    throw new ApiError(422, 'invalid_period', '開始日時と終了日時を入力してください')
  if (period.endedAt <= period.startedAt) throw invalidPeriod()
  return [{ startedAt: period.startedAt, endedAt: period.endedAt }]
}

/**
 * Refuses a lesson longer than a class's duration may be: an end left on the next day blocked a day of dates and
 * kept the meeting link open for it, while the pages (which name the end's time, not its day) showed an hour. Only
 * for new or moved times: a lesson saved before this rule can still have its capacity or link changed.
 */
function checkLengths(lessons: LessonPeriod[]) {
  for (const l of lessons)
    if (l.endedAt.getTime() - l.startedAt.getTime() > MAX_LESSON_MINUTES * 60_000)
      throw new ApiError(422, 'lesson_too_long', `1回の授業は${MAX_LESSON_MINUTES}分以内にしてください`)
}

/** Refuses lessons that overlap each other's or another live schedule's of the class. */
function checkOverlaps(lessons: LessonPeriod[], others: LessonPeriod[]) {
  for (const [i, l] of lessons.entries()) {
    if (l.endedAt <= l.startedAt) throw invalidPeriod()
    if (findOverlap(l, others) || findOverlap(l, lessons.slice(0, i))) throw overlap()
  }
}

/**
 * Serializes the schedule writes of one teacher across all their classes (docs/decisions/0056): the teacher's own
 * row, before any class (0015's order: account, class, schedules). FOR NO KEY UPDATE queues with itself and with a
 * suspension's FOR UPDATE, not with the KEY SHARE that readers of the account take.
 */
async function lockTeacherSchedules(tx: Tx, teacherId: number) {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, teacherId)).for('no key update')
}

/**
 * The live lessons of the teacher's other classes (drafts included: their dates are the teacher's too) that meet
 * the span of `lessons`: a teacher gives one lesson at a time (docs/decisions/0056).
 */
function teacherOtherLessons(
  tx: Tx,
  teacherId: number,
  classWorkId: number,
  lessons: LessonPeriod[],
  now: Date,
) {
  const span = spanOf(lessons)
  return liveLessons(
    tx,
    [
      eq(classWorks.teacherId, teacherId),
      ne(classWorks.id, classWorkId),
      gt(classWorkSchedules.endedAt, span.startedAt),
      lt(classWorkSchedules.startedAt, span.endedAt),
    ],
    now,
  )
}

/** Refuses lessons at a time the teacher teaches another class (the first such lesson is named). */
function checkTeacherOverlaps(lessons: LessonPeriod[], others: LiveLesson[]) {
  for (const l of lessons) {
    const other = findOverlap(l, others)
    if (other) throw teacherOverlap(other)
  }
}

/** Writes a course run's lessons (replacing any) and returns them; a single lesson keeps no rows. */
async function writeLessons(tx: Tx, scheduleId: number, lessons: LessonPeriod[], isCourse: boolean) {
  if (!isCourse) return undefined
  await tx.delete(classWorkScheduleLessons).where(eq(classWorkScheduleLessons.scheduleId, scheduleId))
  await tx
    .insert(classWorkScheduleLessons)
    .values(
      lessons.map((l, i) => ({ scheduleId, position: i + 1, startedAt: l.startedAt, endedAt: l.endedAt })),
    )
  return lessons
}

const spanOf = (lessons: LessonPeriod[]) => ({
  startedAt: lessons[0]!.startedAt,
  endedAt: lessons[lessons.length - 1]!.endedAt,
})

const scheduleReturning = {
  id: classWorkSchedules.id,
  startedAt: classWorkSchedules.startedAt,
  endedAt: classWorkSchedules.endedAt,
  capacity: classWorkSchedules.capacity,
  purchasedCount: classWorkSchedules.purchasedCount,
  heldCount: classWorkSchedules.heldCount,
  isCanceled: classWorkSchedules.isCanceled,
  meetingUrl: classWorkSchedules.meetingUrl,
}

/** A booked lesson moves only to a start this far away: its members get a day after the mail to cancel (0036). */
const MOVE_NOTICE_MS = CANCEL_DEADLINE_MS + 24 * 60 * 60 * 1000

/**
 * Dates a class may have ahead of it at once: more than a year of weekly lessons, and a bound on what its page and
 * every schedule write read.
 */
export const MAX_UPCOMING_SCHEDULES = 100

/** POST /v1/teachers/class_works/{id}/schedules: one lesson, or a course run of the class's lesson_count lessons. */
export async function addSchedule(
  db: Db,
  user: UserRow,
  classWorkId: number,
  input: ScheduleInput,
  now: Date,
): Promise<TeacherSchedule> {
  requireTeacher(user)
  return transaction(db, async (tx) => {
    // Locking the teacher, then the class, serializes the teacher's schedule writes, so two overlapping inserts
    // cannot both pass, in one class or in two.
    await lockTeacherSchedules(tx, user.id)
    const cls = await lockOwnClass(tx, user.id, classWorkId)
    const lessons = requestedLessons(cls, input)
    const period = spanOf(lessons)
    if (period.startedAt <= now)
      throw new ApiError(422, 'starts_in_past', '開始日時には現在より後の日時を指定してください')
    const others = await otherLiveLessons(tx, classWorkId, now)
    const [upcoming] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(classWorkSchedules)
      .where(
        and(
          eq(classWorkSchedules.classWorkId, classWorkId),
          eq(classWorkSchedules.isCanceled, false),
          gt(classWorkSchedules.endedAt, now),
        ),
      )
    if (Number(upcoming?.n ?? 0) >= MAX_UPCOMING_SCHEDULES)
      throw new ApiError(
        409,
        'too_many_schedules',
        `1つのクラスに予定できる日程は${MAX_UPCOMING_SCHEDULES}件までです。日程が終わってから追加してください`,
      )
    checkOverlaps(lessons, others)
    checkTeacherOverlaps(lessons, await teacherOtherLessons(tx, user.id, classWorkId, lessons, now))
    checkLengths(lessons)
    const [row] = await tx
      .insert(classWorkSchedules)
      .values({
        classWorkId,
        ...period,
        capacity: input.capacity ?? cls.capacity,
        meetingUrl: input.meeting_url ?? null,
        createdAt: now,
      })
      .returning(scheduleReturning)
    const written = await writeLessons(tx, row!.id, lessons, cls.lessonCount > 1)
    // リクエスト開催: whoever asked for a date hears of this one (issue 16).
    await queueRequestNotices(tx, classWorkId, row!.id)
    return toTeacherSchedule(row!, written)
  })
}

/**
 * The caller's schedule and its class, both locked in the order class → schedule (the class is found by a plain
 * read first; a schedule never changes class); 404 when the class is not theirs.
 */
async function lockOwnSchedule(tx: Tx, userId: number, scheduleId: number) {
  const [ref] = await tx
    .select({ classWorkId: classWorkSchedules.classWorkId })
    .from(classWorkSchedules)
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .where(and(eq(classWorkSchedules.id, scheduleId), eq(classWorks.teacherId, userId)))
  if (!ref) throw notFound('スケジュール')
  const cls = await lockOwnClass(tx, userId, ref.classWorkId)
  const [schedule] = await tx
    .select()
    .from(classWorkSchedules)
    .where(eq(classWorkSchedules.id, scheduleId))
    .for('no key update')
  if (!schedule) throw notFound('スケジュール')
  return { cls, schedule }
}

/**
 * PATCH /v1/teachers/class_work_schedules/{id}: only before it starts, never below the seats sold. The meeting URL
 * alone may change until it ends: a course run's later lessons, or a link that broke during a lesson.
 */
export async function updateSchedule(
  db: Db,
  user: UserRow,
  scheduleId: number,
  patch: SchedulePatch,
  now: Date,
): Promise<TeacherSchedule> {
  requireTeacher(user)
  return transaction(db, async (tx) => {
    await lockTeacherSchedules(tx, user.id)
    const { cls, schedule } = await lockOwnSchedule(tx, user.id, scheduleId)
    if (schedule.isCanceled)
      throw new ApiError(409, 'schedule_canceled', '休講にしたスケジュールは変更できません')
    const isCourse = cls.lessonCount > 1
    if (schedule.startedAt <= now) {
      const onlyMeetingUrl = patch.meeting_url !== undefined && Object.keys(patch).length === 1
      if (!onlyMeetingUrl || schedule.endedAt <= now) throw started()
      const [row] = await tx
        .update(classWorkSchedules)
        .set({ meetingUrl: patch.meeting_url })
        .where(eq(classWorkSchedules.id, scheduleId))
        .returning(scheduleReturning)
      return toTeacherSchedule(
        row!,
        lessonsOr(schedule, isCourse ? await courseLessonsOf(tx, [scheduleId]) : undefined),
      )
    }
    const current = lessonsOr(schedule, isCourse ? await courseLessonsOf(tx, [scheduleId]) : undefined)
    const lessons = requestedLessons(cls, patch, current)
    const period = spanOf(lessons)
    if ((patch.started_at || patch.lessons) && period.startedAt <= now)
      throw new ApiError(422, 'starts_in_past', '開始日時には現在より後の日時を指定してください')
    checkOverlaps(lessons, await otherLiveLessons(tx, schedule.classWorkId, now, scheduleId))
    const moved = !samePeriods(current, lessons)
    if (moved) {
      // Only a move is checked: lessons saved before the rule keep their capacity and link edits.
      checkTeacherOverlaps(
        lessons,
        await teacherOtherLessons(tx, user.id, schedule.classWorkId, lessons, now),
      )
      checkLengths(lessons)
    }
    // Members who booked the old time hear of the new one, and have a day after hearing to cancel with a full
    // refund (bookings lock the class first, 0015, so none can arrive between this count and the update).
    const booked = moved ? await liveReservationCount(tx, scheduleId) : 0
    if (booked > 0 && period.startedAt.getTime() < now.getTime() + MOVE_NOTICE_MS)
      throw new ApiError(
        409,
        'booked_move_too_late',
        '予約のある回は、今から48時間より後に始まる日時にだけ変更できます（受講者がキャンセルを選べるように）。この日時にするには、休講にしてから新しい日程を追加してください',
      )
    const capacity = patch.capacity ?? schedule.capacity
    if (capacity < schedule.purchasedCount + schedule.heldCount)
      throw new ApiError(
        409,
        'capacity_below_sold',
        schedule.heldCount > 0
          ? `定員は予約済みとキャンセル待ちに確保した席の合計（${schedule.purchasedCount + schedule.heldCount}人）より少なくできません`
          : `定員は予約済みの人数（${schedule.purchasedCount}人）より少なくできません`,
      )
    // Its line hears of it too: a seat held, or a wait, for a time that changed (nothing is refused for them: they
    // have not paid, and may simply not book).
    const inLine = moved ? await liveWaitlistCount(tx, scheduleId) : 0
    const [row] = await tx
      .update(classWorkSchedules)
      .set({
        ...period,
        capacity,
        meetingUrl: patch.meeting_url === undefined ? schedule.meetingUrl : patch.meeting_url,
        // Calendars that hold the old time take the new one only from a higher SEQUENCE (RFC 5545).
        ...(moved ? { revision: sql`${classWorkSchedules.revision} + 1`, movedAt: now } : {}),
      })
      .where(eq(classWorkSchedules.id, scheduleId))
      .returning(scheduleReturning)
    const written = patch.lessons ? await writeLessons(tx, scheduleId, lessons, isCourse) : current
    if (booked > 0 || inLine > 0)
      // Keyed by the move: the same times again later (moved away and back) are another move to tell.
      await enqueue(
        tx,
        'notify.schedule_moved',
        {
          scheduleId,
          movedAt: now.toISOString(),
          // The families to tell: those booked before this move (a later one chose the new time). Bookings take
          // the class lock this holds, so ids, not two app clocks, draw that line.
          bookedUpTo: await lastPurchaseId(tx, scheduleId),
          startedAt: period.startedAt.toISOString(),
          endedAt: period.endedAt.toISOString(),
          ...(await lastToldTime(tx, scheduleId, schedule)),
        },
        {
          dedupeKey: `schedule-moved:${scheduleId}:${now.getTime()}:${period.startedAt.getTime()}:${period.endedAt.getTime()}`,
        },
      )
    // An offer runs its 12 hours, never past the lesson's (new) start: a lesson moved later gives back the hours an
    // earlier start had cut. Only a live offer: one already over (a suspension ends its member's at once) stays
    // over, for the expiry job to pass on.
    if (period.startedAt.getTime() !== schedule.startedAt.getTime())
      await tx
        .update(waitlistEntries)
        .set({
          offerExpiresAt: sql`least(${waitlistEntries.offeredAt} + make_interval(secs => ${OFFER_MS / 1000}), ${period.startedAt.toISOString()}::timestamptz)`,
        })
        .where(
          and(
            eq(waitlistEntries.scheduleId, scheduleId),
            eq(waitlistEntries.status, 'offered'),
            gt(waitlistEntries.offerExpiresAt, now),
          ),
        )
    // A larger capacity frees seats: the waitlist gets them first (issue 16).
    if (capacity > schedule.capacity && (await offerFreedSeats(tx, scheduleId, now)) > 0) {
      const [fresh] = await tx
        .select(scheduleReturning)
        .from(classWorkSchedules)
        .where(eq(classWorkSchedules.id, scheduleId))
      return toTeacherSchedule(fresh!, written)
    }
    return toTeacherSchedule(row!, written)
  })
}

const samePeriods = (a: LessonPeriod[], b: LessonPeriod[]) =>
  a.length === b.length &&
  a.every(
    (l, i) =>
      l.startedAt.getTime() === b[i]!.startedAt.getTime() && l.endedAt.getTime() === b[i]!.endedAt.getTime(),
  )

/** Reservations on a schedule that a change of its time concerns: paid ones and ones being paid for. */
async function liveReservationCount(tx: Tx, scheduleId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(purchases)
    .where(and(eq(purchases.scheduleId, scheduleId), inArray(purchases.status, ['reserved', 'pending'])))
  return row?.n ?? 0
}

/**
 * The time members last heard of, for a move's mail: a move whose mail has not gone yet (its job finds the lesson
 * moved again and sends nothing) leaves them knowing the time before it, not the one between. Only a job no worker
 * has claimed: one running (or failed part-way) may have told some members the time between already, and this move
 * must then be told from it, not skipped as a move back.
 */
async function lastToldTime(
  tx: Tx,
  scheduleId: number,
  schedule: { startedAt: Date; endedAt: Date },
): Promise<{ previousStartedAt: string; previousEndedAt: string }> {
  const [untold] = await tx
    .select({ payload: jobs.payload })
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, 'notify.schedule_moved'),
        isNull(jobs.finishedAt),
        eq(jobs.attempts, 0),
        sql`${jobs.payload}->>'scheduleId' = ${String(scheduleId)}`,
      ),
    )
    .orderBy(asc(jobs.id))
    .limit(1)
  const p = untold?.payload as { previousStartedAt?: unknown; previousEndedAt?: unknown } | undefined
  return typeof p?.previousStartedAt === 'string' && typeof p.previousEndedAt === 'string'
    ? { previousStartedAt: p.previousStartedAt, previousEndedAt: p.previousEndedAt }
    : { previousStartedAt: schedule.startedAt.toISOString(), previousEndedAt: schedule.endedAt.toISOString() }
}

/** The newest purchase of a schedule, reserved or not (0 when none). */
async function lastPurchaseId(tx: Tx, scheduleId: number): Promise<number> {
  const [row] = await tx
    .select({ id: sql<number | null>`max(${purchases.id})` })
    .from(purchases)
    .where(eq(purchases.scheduleId, scheduleId))
  return Number(row?.id ?? 0)
}

/** Places in a schedule's line that a change of its time concerns: waiting, or holding an offered seat. */
async function liveWaitlistCount(tx: Tx, scheduleId: number): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.scheduleId, scheduleId),
        inArray(waitlistEntries.status, ['waiting', 'offered']),
      ),
    )
  return row?.n ?? 0
}

const CANCEL_REASONS = {
  teacher: { by: '先生の都合により', status: 'canceled_by_teacher' },
  operator: { by: '運営の判断により', status: 'canceled_by_teacher' },
} as const

/**
 * Cancels a schedule whose class and schedule rows the caller has locked (in that order): every live reservation
 * becomes canceled_by_teacher with the refund of its payment queued (paid out by a job, exactly once), seats still
 * waiting for their payment are given back unpaid, the seat counter empties, a class announcement tells the
 * members and their mails are queued — all in the caller's transaction.
 */
export async function cancelHeldSchedule(
  tx: Tx,
  cls: { id: number; title: string; lessonCount: number },
  schedule: { id: number; startedAt: Date; endedAt: Date },
  now: Date,
  by: keyof typeof CANCEL_REASONS,
) {
  // Purchases last: class and schedule are held, so no member can cancel or book one of these meanwhile.
  const canceled = await tx
    .update(purchases)
    .set({ status: CANCEL_REASONS[by].status, canceledAt: now })
    .where(and(eq(purchases.scheduleId, schedule.id), eq(purchases.status, 'reserved')))
    .returning({ id: purchases.id, price: purchases.price, userId: purchases.userId })
  const unpaid = await tx
    .update(purchases)
    .set({ status: 'expired', holdExpiresAt: null })
    .where(and(eq(purchases.scheduleId, schedule.id), eq(purchases.status, 'pending')))
    .returning({ id: purchases.id })
  for (const p of unpaid) await givePaymentUp(tx, p.id, now)
  // Nobody waits for a cancelled lesson (issue 16): the waitlist ends and no seat stays held.
  const waiting = await cancelWaitlistOf(tx, schedule.id)
  // Those in its line (an offered seat included) hear that it will not take place: before it starts. A lesson
  // under way (a run stopped midway) leaves them quietly; they never had a seat in it.
  if (waiting.length > 0 && schedule.startedAt > now)
    await enqueue(tx, 'notify.waitlist_canceled', {
      entryIds: waiting,
      ...(by === 'operator' ? { by } : {}),
    })
  const [row] = await tx
    .update(classWorkSchedules)
    .set({ isCanceled: true, purchasedCount: 0, heldCount: 0 })
    .where(eq(classWorkSchedules.id, schedule.id))
    .returning(scheduleReturning)
  let refunded = 0
  for (const p of canceled)
    refunded += await requestRefund(tx, p.id, by === 'operator' ? 'operator' : 'teacher_cancel')
  if (canceled.length > 0) {
    const when = formatRunJa(schedule.startedAt, schedule.endedAt, cls.lessonCount)
    await tx.insert(classAnnouncements).values({
      classWorkId: cls.id,
      // For this date's members only (0036), not those of the class's other dates.
      scheduleId: schedule.id,
      title: `【休講】${when} の回`,
      // A refund is promised only where money was paid (a free class's members paid nothing).
      body: `「${cls.title}」の ${when} の回は、${CANCEL_REASONS[by].by}休講になりました。\n${refunded > 0 ? 'ご予約はキャンセルされ、お支払いの全額を返金します。' : 'ご予約はキャンセルされました。'}ご迷惑をおかけして申し訳ありません。`,
      createdAt: now,
    })
    await enqueue(tx, 'notify.schedule_canceled', {
      purchaseIds: canceled.map((p) => p.id),
      ...(by === 'operator' ? { by } : {}),
    })
  }
  return { canceled, refunded, row: row! }
}

/**
 * POST /v1/teachers/class_work_schedules/{id}/cancel: the schedule is canceled, every live reservation on it
 * becomes canceled_by_teacher (refunded in full: the purchase's whole price), and a class announcement tells
 * those members — all in one transaction. A schedule that already ended cannot be canceled.
 */
export async function cancelSchedule(
  db: Db,
  user: UserRow,
  scheduleId: number,
  now: Date,
): Promise<ScheduleCancelResult> {
  requireTeacher(user)
  return transaction(db, async (tx) => {
    const { cls, schedule } = await lockOwnSchedule(tx, user.id, scheduleId)
    if (schedule.isCanceled) throw new ApiError(409, 'already_canceled', 'このスケジュールはすでに休講です')
    const ended = () => new ApiError(409, 'schedule_ended', '終了したスケジュールは休講にできません')
    if (schedule.endedAt <= now) throw ended()
    // A review is written only once the lesson has ended: one that committed while this request waited for the
    // class (its clock read before, or another instance's ahead) says the lesson took place.
    const [reviewed] = await tx
      .select({ id: reviews.id })
      .from(reviews)
      .innerJoin(purchases, eq(purchases.id, reviews.purchaseId))
      .where(eq(purchases.scheduleId, scheduleId))
      .limit(1)
    if (reviewed) throw ended()
    const { canceled, refunded, row } = await cancelHeldSchedule(tx, cls, schedule, now, 'teacher')
    // A course run answers with its lessons, as every other schedule answer does (not one span).
    const lessons = cls.lessonCount > 1 ? await courseLessonsOf(tx, [scheduleId]) : undefined
    return {
      schedule: toTeacherSchedule(row, lessons),
      canceled_reservations: canceled.length,
      refunded_amount: refunded,
    }
  })
}

/** POST /v1/teachers/class_works/{id}/announcements: to the members holding a reservation on the class. */
export async function postAnnouncement(
  db: Db,
  user: UserRow,
  classWorkId: number,
  input: AnnouncementInput,
  now: Date,
): Promise<AnnouncementCreated> {
  requireTeacher(user)
  // It reaches every booked family, in the app and by mail: no contact details, as in reviews (0020).
  refuseContactInfo(`${input.title}\n${input.body}`, 'お知らせ')
  return transaction(db, async (tx) => {
    // The teacher's account first (0015): a suspension committed since the sign-in check posts and mails nothing.
    await refuseIfSuspended(tx, user.id, 'key share')
    const cls = await lockOwnClass(tx, user.id, classWorkId)
    // Taken down by an operator: what its teacher writes goes down with it (families no longer see it).
    if (cls.hiddenAt)
      throw new ApiError(409, 'class_hidden', '運営が非公開にしたクラスにはお知らせを送れません')
    // Those the mail job will reach: a suspended member is not written to.
    const [recipients] = await tx
      .select({ n: sql<number>`count(distinct ${purchases.userId})::int` })
      .from(purchases)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
      .innerJoin(users, eq(users.id, purchases.userId))
      .where(
        and(
          eq(classWorkSchedules.classWorkId, classWorkId),
          eq(purchases.status, 'reserved'),
          gt(classWorkSchedules.endedAt, now),
          isNull(users.suspendedAt),
        ),
      )
    const [row] = await tx
      .insert(classAnnouncements)
      .values({ classWorkId, title: input.title, body: input.body, createdAt: now })
      .returning()
    await enqueue(tx, 'notify.announcement', { announcementId: row!.id })
    return {
      id: row!.id,
      class_work_id: classWorkId,
      title: row!.title,
      body: row!.body,
      created_at: iso(row!.createdAt),
      recipient_count: Number(recipients?.n ?? 0),
    }
  })
}
