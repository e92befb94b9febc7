import { and, asc, count, desc, eq, isNotNull, sql } from 'drizzle-orm'
import type { Student } from '../../contract/v1/class-works'
import type { TeacherProfile } from '../../contract/v1/teachers'
import type { Db } from '../../db/client'
import {
  classWorkSchedules,
  classWorks,
  learners,
  organizations,
  orgUsers,
  professions,
  purchases,
  users,
} from '../../db/schema'
import { gone, notFound } from '../errors'
import { iso } from './class-cards'
import { organizationShownPublicly } from './organizations'
import { teacherRating } from './reviews'

/**
 * A teacher the public sees: teaching turned on and the identity approved by an operator. Until then the page with
 * their real name does not exist (404): anyone may sign up 「先生として」, a child too (docs/decisions/0020).
 */
export const publicTeacher = and(eq(users.isTeacher, true), isNotNull(users.teacherVerifiedAt))!

/** Someone who is not a public teacher has no public page and no public class list (404); a suspended one, 410. */
export async function assertTeacher(db: Db, teacherId: number): Promise<void> {
  const [t] = await db
    .select({ suspendedAt: users.suspendedAt })
    .from(users)
    .where(and(eq(users.id, teacherId), publicTeacher))
    .limit(1)
  if (!t) throw notFound('先生')
  if (t.suspendedAt) throw gone('この先生のページは公開を終了しました')
}

/** A teacher's public page. Anyone who is not a public teacher has no public page (404). */
export async function teacherProfile(db: Db, teacherId: number, now: Date): Promise<TeacherProfile> {
  const [t] = await db
    .select({
      user: users,
      professionName: professions.name,
      orgId: organizations.id,
      orgName: organizations.name,
      orgKind: organizations.kind,
    })
    .from(users)
    .leftJoin(professions, eq(professions.id, users.professionId))
    .leftJoin(orgUsers, eq(orgUsers.userId, users.id))
    .leftJoin(organizations, and(eq(organizations.id, orgUsers.organizationId), organizationShownPublicly))
    .where(and(eq(users.id, teacherId), publicTeacher))
    .limit(1)
  if (!t) throw notFound('先生')
  if (t.user.suspendedAt) throw gone('この先生のページは公開を終了しました')
  const published = and(eq(classWorks.teacherId, teacherId), eq(classWorks.isPublished, true))
  const at = now.toISOString()
  const [classCount, [summary]] = await Promise.all([
    db.select({ n: count() }).from(classWorks).where(published),
    // summarizeSchedules (spec §3) over every schedule of the teacher's classes, as one aggregate: a teacher with
    // thousands of classes sends one row, not each schedule.
    db
      .select({
        timesHeld: sql<number>`(count(*) filter (where ${classWorkSchedules.endedAt} <= ${at}::timestamptz))::int`,
        countsPurchased: sql<number>`coalesce(sum(${classWorkSchedules.purchasedCount})
          filter (where ${classWorkSchedules.endedAt} <= ${at}::timestamptz), 0)::int`,
        hasReservation: sql<boolean>`coalesce(bool_or(${classWorkSchedules.startedAt} >= ${at}::timestamptz), false)`,
      })
      .from(classWorkSchedules)
      .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
      .where(
        and(
          published,
          eq(classWorkSchedules.isCanceled, false),
          sql`${classWorkSchedules.purchasedCount} > 0`,
        ),
      ),
  ])
  const u = t.user
  return {
    id: u.id,
    nickname: u.nickname,
    name: u.name,
    avatar_url: u.avatarUrl,
    introduction: u.introduction,
    profession: u.professionId && t.professionName ? { id: u.professionId, name: t.professionName } : null,
    organization:
      t.orgId && t.orgName && t.orgKind
        ? { id: t.orgId, name: t.orgName, kind: t.orgKind as 'corporation' | 'group' }
        : null,
    follower_count: u.followerCount,
    class_work_count: Number(classCount[0]?.n ?? 0),
    summary: {
      times_held: Number(summary?.timesHeld ?? 0),
      counts_purchased: Number(summary?.countsPurchased ?? 0),
      has_reservation: summary?.hasReservation === true,
    },
    is_verified: u.teacherVerifiedAt !== null,
    rating: await teacherRating(db, teacherId),
  }
}

/**
 * Who reserved a schedule. Only the class's teacher, or the owner of the organisation the class belongs to,
 * may ask; for anyone else the schedule does not exist (404). The owner sees only the seats reserved while the
 * class belonged to their organisation (`purchases.organization_id`, 0007): joining brings no earlier children's
 * names and grades with it, as it brings no earlier sales.
 */
export async function scheduleStudents(db: Db, userId: number, scheduleId: number): Promise<Student[]> {
  const [schedule] = await db
    .select({
      id: classWorkSchedules.id,
      teaches: sql<boolean>`${classWorks.teacherId} = ${userId}`,
      organizationId: classWorks.organizationId,
    })
    .from(classWorkSchedules)
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .leftJoin(organizations, eq(organizations.id, classWorks.organizationId))
    .where(
      and(
        eq(classWorkSchedules.id, scheduleId),
        sql`(${classWorks.teacherId} = ${userId} or ${organizations.ownerId} = ${userId})`,
      ),
    )
    .limit(1)
  if (!schedule) throw notFound('スケジュール')
  const rows = await db
    .select({
      purchaseId: purchases.id,
      status: purchases.status,
      createdAt: purchases.createdAt,
      canceledAt: purchases.canceledAt,
      userId: users.id,
      nickname: users.nickname,
      avatarUrl: users.avatarUrl,
      learnerId: learners.id,
      learnerNickname: learners.nickname,
      schoolTypeId: learners.schoolTypeId,
      targetGradeId: learners.targetGradeId,
    })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .leftJoin(learners, eq(learners.id, purchases.learnerId))
    // A seat still being paid for, or given back unpaid, is not a student yet (issue 17).
    .where(
      and(
        eq(purchases.scheduleId, scheduleId),
        sql`${purchases.status} not in ('pending', 'expired')`,
        schedule.teaches ? undefined : eq(purchases.organizationId, schedule.organizationId ?? -1),
      ),
    )
    .orderBy(
      sql`case when ${purchases.status} = 'reserved' then 0 else 1 end`,
      asc(purchases.createdAt),
      desc(purchases.id),
    )
  return rows.map((r) => ({
    purchase_id: r.purchaseId,
    status: r.status as Student['status'],
    reserved_at: iso(r.createdAt),
    canceled_at: r.canceledAt ? iso(r.canceledAt) : null,
    user: { id: r.userId, nickname: r.nickname, avatar_url: r.avatarUrl },
    learner:
      r.learnerId && r.learnerNickname && r.schoolTypeId && r.targetGradeId
        ? {
            id: r.learnerId,
            nickname: r.learnerNickname,
            school_type_id: r.schoolTypeId,
            target_grade_id: r.targetGradeId,
          }
        : null,
  }))
}
