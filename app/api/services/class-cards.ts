import { and, asc, eq, gte, inArray, type Placeholder, sql } from 'drizzle-orm'
import type { SelectedFields } from 'drizzle-orm/pg-core'
import type { ClassWorkCard, PublicSchedule } from '../../contract/v1/class-works'
import type { DbOrTx } from '../../db/client'
import {
  categories,
  classCardGrades,
  classStyles,
  classWorkSchedules,
  classWorks,
  users,
} from '../../db/schema'
import { ratingSummary } from '../../lib/rating'
import { type ScheduleEntry, summarizeSchedules } from '../../lib/schedule-summary'
import { courseLessonsJson, type LessonPeriod, lessonJson, lessonsFromJson, lessonsOr } from './lessons'

/**
 * What a card shows of its class row. Lists select these only: a description is often the longest text of a class
 * and no card shows it (on PGlite every byte of a result is copied out of the database and parsed).
 */
export const cardRowColumns = {
  id: classWorks.id,
  teacherId: classWorks.teacherId,
  title: classWorks.title,
  price: classWorks.price,
  capacity: classWorks.capacity,
  durationMinutes: classWorks.durationMinutes,
  lessonCount: classWorks.lessonCount,
  imageUrl: classWorks.imageUrl,
  createdAt: classWorks.createdAt,
  categoryId: categories.id,
  categoryName: categories.name,
  styleId: classStyles.id,
  styleName: classStyles.name,
  teacherNickname: users.nickname,
  teacherAvatarUrl: users.avatarUrl,
  teacherVerifiedAt: users.teacherVerifiedAt,
  ratingCount: classWorks.ratingCount,
  ratingSum: classWorks.ratingSum,
  grades: sql<{ id: number; name: string }[]>`coalesce(${classCardGrades.grades}, '[]'::json)`,
}

/** What a class page or class management shows beyond a card; `searchText` stays in the database. */
const classPageColumns = {
  organizationId: classWorks.organizationId,
  description: classWorks.description,
  isPublished: classWorks.isPublished,
  hiddenAt: classWorks.hiddenAt,
  updatedAt: classWorks.updatedAt,
}

/** `select … from class_works` joined to what a card and a class page show; add where/order/limit at the call site. */
export function selectClassRows(db: DbOrTx) {
  return selectCardRowsWith(db, classPageColumns)
}

/** `select … from class_works` joined to what a card shows (lists: toCards); add where/order/limit at the call site. */
export function selectCardRows(db: DbOrTx) {
  return selectCardRowsWith(db, {})
}

/** selectCardRows with more columns (a card's extras, see cardsByIds). */
function selectCardRowsWith<E extends SelectedFields>(db: DbOrTx, extra: E) {
  return db
    .select({ ...cardRowColumns, ...extra })
    .from(classWorks)
    .innerJoin(categories, eq(categories.id, classWorks.categoryId))
    .innerJoin(classStyles, eq(classStyles.id, classWorks.classStyleId))
    .innerJoin(users, eq(users.id, classWorks.teacherId))
    .leftJoin(classCardGrades, eq(classCardGrades.classWorkId, classWorks.id))
}

export type ClassRow = Awaited<ReturnType<ReturnType<typeof selectClassRows>['execute']>>[number]
export type CardRow = Awaited<ReturnType<ReturnType<typeof selectCardRows>['execute']>>[number]

export const iso = (d: Date) => d.toISOString()

/** `courseLessons`: the schedule's course lessons (courseLessonsOf), or nothing for a single lesson. */
export function toPublicSchedule(
  s: {
    id: number
    startedAt: Date
    endedAt: Date
    capacity: number
    purchasedCount: number
    /** Seats held for waitlist offers (issue 16). */
    heldCount?: number
    isCanceled: boolean
  },
  courseLessons?: Map<number, LessonPeriod[]> | LessonPeriod[],
): PublicSchedule {
  return {
    id: s.id,
    started_at: iso(s.startedAt),
    ended_at: iso(s.endedAt),
    capacity: s.capacity,
    purchased_count: s.purchasedCount,
    held_count: s.heldCount ?? 0,
    is_canceled: s.isCanceled,
    lessons: lessonsOr(s, courseLessons).map(lessonJson),
  }
}

export const scheduleColumns = {
  id: classWorkSchedules.id,
  classWorkId: classWorkSchedules.classWorkId,
  startedAt: classWorkSchedules.startedAt,
  endedAt: classWorkSchedules.endedAt,
  capacity: classWorkSchedules.capacity,
  purchasedCount: classWorkSchedules.purchasedCount,
  heldCount: classWorkSchedules.heldCount,
  isCanceled: classWorkSchedules.isCanceled,
}
export type ScheduleRow = { [K in keyof typeof scheduleColumns]: (typeof scheduleColumns)[K]['_']['data'] }

export function toSummaryEntry(s: ScheduleRow): ScheduleEntry {
  return {
    started_at: s.startedAt,
    ended_at: s.endedAt,
    purchased_count: s.purchasedCount,
    is_canceled: s.isCanceled,
  }
}

export function summaryJson(rows: ScheduleRow[], now: Date) {
  const s = summarizeSchedules(rows.map(toSummaryEntry), now)
  return { times_held: s.timesHeld, counts_purchased: s.countsPurchased, has_reservation: s.hasReservation }
}

/**
 * What a card adds to its class row, as columns of a select on class_works: the favorite count and the next open
 * schedule (the earliest not canceled and not started; a lateral subquery, so the select joins it with
 * leftJoinLateral) with a course's lessons. Subqueries in one statement rather than a look-up each: on PGlite every
 * statement pays its own protocol round trips. The grades come with the row (class_card_grades).
 */
function cardExtras(db: DbOrTx, now: Date | Placeholder) {
  // Only a course's schedules have lesson rows: a single lesson skips the look-up.
  const lessons = sql<
    { s: number; e: number }[] | null
  >`case when ${sql.identifier('class_works')}.${sql.identifier('lesson_count')} > 1 then ${courseLessonsJson(classWorkSchedules.id)} end`
  const next = db
    .select({ ...scheduleColumns, lessons: lessons.as('next_lessons') })
    .from(classWorkSchedules)
    .where(
      and(
        eq(classWorkSchedules.classWorkId, classWorks.id),
        eq(classWorkSchedules.isCanceled, false),
        gte(classWorkSchedules.startedAt, now),
      ),
    )
    .orderBy(asc(classWorkSchedules.startedAt), asc(classWorkSchedules.id))
    .limit(1)
    .as('next')
  const columns = {
    // Kept on the class row by triggers (migration 0040): favorites of members who are not suspended.
    favoriteCount: classWorks.favoriteCount,
    next: {
      id: next.id,
      classWorkId: next.classWorkId,
      startedAt: next.startedAt,
      endedAt: next.endedAt,
      capacity: next.capacity,
      purchasedCount: next.purchasedCount,
      heldCount: next.heldCount,
      isCanceled: next.isCanceled,
      lessons: next.lessons,
    },
  }
  return { next, columns }
}

interface CardExtras {
  favoriteCount: number
  next: (ScheduleRow & { lessons: { s: number; e: number }[] | null }) | null
}

function toCard(r: CardRow, e: CardExtras | undefined): ClassWorkCard {
  return {
    id: r.id,
    title: r.title,
    image_url: r.imageUrl,
    price: r.price,
    capacity: r.capacity,
    duration_minutes: r.durationMinutes,
    lesson_count: r.lessonCount,
    category: { id: r.categoryId, name: r.categoryName },
    class_style: { id: r.styleId, name: r.styleName },
    target_grades: r.grades,
    teacher: {
      id: r.teacherId,
      nickname: r.teacherNickname,
      avatar_url: r.teacherAvatarUrl,
      is_verified: r.teacherVerifiedAt !== null,
    },
    next_schedule: e?.next ? toPublicSchedule(e.next, lessonsFromJson(e.next.lessons)) : null,
    favorite_count: e?.favoriteCount ?? 0,
    rating: ratingSummary(r.ratingCount, r.ratingSum),
    created_at: iso(r.createdAt),
  }
}

/** Turns class rows into cards with one batched look-up of their extras (grades, next schedule, favorites). */
export async function toCards(db: DbOrTx, rows: CardRow[], now: Date): Promise<ClassWorkCard[]> {
  if (rows.length === 0) return []
  const { next, columns } = cardExtras(db, now)
  const extras = await db
    .select({ id: classWorks.id, ...columns })
    .from(classWorks)
    .leftJoinLateral(next, sql`true`)
    .where(
      inArray(
        classWorks.id,
        rows.map((r) => r.id),
      ),
    )
  const extrasOf = new Map(extras.map((e) => [e.id, e]))
  return rows.map((r) => toCard(r, extrasOf.get(r.id)))
}

function prepareCardsByIds(db: DbOrTx) {
  const { next, columns } = cardExtras(db, sql.placeholder('now'))
  return (
    selectCardRowsWith(db, columns)
      .leftJoinLateral(next, sql`true`)
      // The page's ids through plan_opaque (migration 0022): one generic plan for any ids, not a new plan per call.
      .innerJoin(
        sql`unnest(plan_opaque(${sql.placeholder('ids')}::int[])) as page(id)`,
        sql`page.id = ${classWorks.id}`,
      )
      .prepare('cards_by_ids')
  )
}

/** cardsByIds' statement, built once per database (a search runs it on every request; building it took ~0.6 ms). */
const cardsByIdsOf = new WeakMap<DbOrTx, ReturnType<typeof prepareCardsByIds>>()

/**
 * The cards of the given classes in the order of `ids` (ids not found are skipped): rows and extras in one
 * statement, for a page of ids chosen beforehand (a search). Same cards as selectCardRows + toCards, one
 * statement fewer.
 */
export async function cardsByIds(db: DbOrTx, ids: number[], now: Date): Promise<ClassWorkCard[]> {
  if (ids.length === 0) return []
  let statement = cardsByIdsOf.get(db)
  if (!statement) {
    statement = prepareCardsByIds(db)
    cardsByIdsOf.set(db, statement)
  }
  const rows = await statement.execute({ ids, now: now.toISOString() })
  const rowOf = new Map(rows.map((r) => [r.id, r]))
  return ids.flatMap((id) => {
    const r = rowOf.get(id)
    return r ? [toCard(r, r)] : []
  })
}
