import { and, asc, count, eq, gte, inArray } from 'drizzle-orm'
import type { ClassWorkCard, PublicSchedule } from '../../contract/v1/class-works'
import type { DbOrTx } from '../../db/client'
import {
  categories,
  classStyles,
  classWorkSchedules,
  classWorks,
  classWorkTargetGrades,
  favorites,
  targetGrades,
  users,
} from '../../db/schema'
import { type ScheduleEntry, summarizeSchedules } from '../../lib/schedule-summary'

/** Columns every class listing needs; `searchText` stays in the database. */
export const classRowColumns = {
  id: classWorks.id,
  teacherId: classWorks.teacherId,
  organizationId: classWorks.organizationId,
  title: classWorks.title,
  description: classWorks.description,
  price: classWorks.price,
  capacity: classWorks.capacity,
  durationMinutes: classWorks.durationMinutes,
  imageUrl: classWorks.imageUrl,
  isPublished: classWorks.isPublished,
  createdAt: classWorks.createdAt,
  updatedAt: classWorks.updatedAt,
  categoryId: categories.id,
  categoryName: categories.name,
  styleId: classStyles.id,
  styleName: classStyles.name,
  teacherNickname: users.nickname,
  teacherAvatarUrl: users.avatarUrl,
}

/** `select … from class_works` joined to what a card shows; add where/order/limit at the call site. */
export function selectClassRows(db: DbOrTx) {
  return db
    .select(classRowColumns)
    .from(classWorks)
    .innerJoin(categories, eq(categories.id, classWorks.categoryId))
    .innerJoin(classStyles, eq(classStyles.id, classWorks.classStyleId))
    .innerJoin(users, eq(users.id, classWorks.teacherId))
}

export type ClassRow = Awaited<ReturnType<ReturnType<typeof selectClassRows>['execute']>>[number]

export const iso = (d: Date) => d.toISOString()

export function toPublicSchedule(s: {
  id: number
  startedAt: Date
  endedAt: Date
  capacity: number
  purchasedCount: number
  isCanceled: boolean
}): PublicSchedule {
  return {
    id: s.id,
    started_at: iso(s.startedAt),
    ended_at: iso(s.endedAt),
    capacity: s.capacity,
    purchased_count: s.purchasedCount,
    is_canceled: s.isCanceled,
  }
}

export const scheduleColumns = {
  id: classWorkSchedules.id,
  classWorkId: classWorkSchedules.classWorkId,
  startedAt: classWorkSchedules.startedAt,
  endedAt: classWorkSchedules.endedAt,
  capacity: classWorkSchedules.capacity,
  purchasedCount: classWorkSchedules.purchasedCount,
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

/** Turns class rows into cards with three batched look-ups (grades, next schedules, favorite counts). */
export async function toCards(db: DbOrTx, rows: ClassRow[], now: Date): Promise<ClassWorkCard[]> {
  if (rows.length === 0) return []
  const ids = rows.map((r) => r.id)
  const [grades, nextSchedules, favoriteCounts] = await Promise.all([
    db
      .select({
        classWorkId: classWorkTargetGrades.classWorkId,
        id: targetGrades.id,
        name: targetGrades.name,
      })
      .from(classWorkTargetGrades)
      .innerJoin(targetGrades, eq(targetGrades.id, classWorkTargetGrades.targetGradeId))
      .where(inArray(classWorkTargetGrades.classWorkId, ids))
      .orderBy(asc(targetGrades.sortOrder)),
    db
      .selectDistinctOn([classWorkSchedules.classWorkId], scheduleColumns)
      .from(classWorkSchedules)
      .where(
        and(
          inArray(classWorkSchedules.classWorkId, ids),
          eq(classWorkSchedules.isCanceled, false),
          gte(classWorkSchedules.startedAt, now),
        ),
      )
      .orderBy(
        asc(classWorkSchedules.classWorkId),
        asc(classWorkSchedules.startedAt),
        asc(classWorkSchedules.id),
      ),
    db
      .select({ classWorkId: favorites.classWorkId, n: count() })
      .from(favorites)
      .where(inArray(favorites.classWorkId, ids))
      .groupBy(favorites.classWorkId),
  ])
  const gradesOf = new Map<number, { id: number; name: string }[]>()
  for (const g of grades) {
    const list = gradesOf.get(g.classWorkId) ?? []
    list.push({ id: g.id, name: g.name })
    gradesOf.set(g.classWorkId, list)
  }
  const nextOf = new Map(nextSchedules.map((s) => [s.classWorkId, s]))
  const favoritesOf = new Map(favoriteCounts.map((f) => [f.classWorkId, Number(f.n)]))
  return rows.map((r) => {
    const next = nextOf.get(r.id)
    return {
      id: r.id,
      title: r.title,
      image_url: r.imageUrl,
      price: r.price,
      capacity: r.capacity,
      duration_minutes: r.durationMinutes,
      category: { id: r.categoryId, name: r.categoryName },
      class_style: { id: r.styleId, name: r.styleName },
      target_grades: gradesOf.get(r.id) ?? [],
      teacher: { id: r.teacherId, nickname: r.teacherNickname, avatar_url: r.teacherAvatarUrl },
      next_schedule: next ? toPublicSchedule(next) : null,
      favorite_count: favoritesOf.get(r.id) ?? 0,
      created_at: iso(r.createdAt),
    }
  })
}
