import { and, desc, eq, sql } from 'drizzle-orm'
import type { ClassAnnouncement } from '../../contract/v1/announcements'
import type { Db } from '../../db/client'
import {
  classAnnouncementReads,
  classAnnouncements,
  classWorkSchedules,
  classWorks,
  purchases,
} from '../../db/schema'
import { iso } from './class-cards'

const LIMIT = 100

/**
 * Whether the member sees a class announcement: one posted while they held a reservation on a lesson of its class
 * still to come (not every announcement after their last lesson, nor the class's whole history before they
 * booked), or — for a reservation the teacher canceled — those posted up to the cancellation. One about a single
 * date (【休講】) only for that date's members. A class an operator took down (on a report, or its teacher suspended)
 * keeps only those 【休講】 notices: what its teacher wrote goes down with it. Shared by the list, the detail, the read
 * mark and the header's count.
 */
export const announcementVisibleTo = (userId: number) =>
  sql`exists (select 1 from ${purchases} inner join ${classWorkSchedules} on ${classWorkSchedules.id} = ${purchases.scheduleId} inner join ${classWorks} on ${classWorks.id} = ${classWorkSchedules.classWorkId} where ${classWorkSchedules.classWorkId} = ${classAnnouncements.classWorkId} and ${purchases.userId} = ${userId} and (${classAnnouncements.scheduleId} is null or ${classAnnouncements.scheduleId} = ${classWorkSchedules.id}) and (${classWorks.hiddenAt} is null or ${classAnnouncements.scheduleId} is not null) and ${purchases.createdAt} <= ${classAnnouncements.createdAt} and ((${purchases.status} = 'reserved' and ${classWorkSchedules.endedAt} > ${classAnnouncements.createdAt}) or (${purchases.status} = 'canceled_by_teacher' and ${purchases.canceledAt} >= ${classAnnouncements.createdAt})))`

/**
 * Announcements of the classes the caller holds a reservation for — and, for a reservation the teacher canceled,
 * those up to the cancellation (so the cancel notice reaches its members) — newest first, with the caller's read state. */
export async function myClassAnnouncements(db: Db, userId: number): Promise<ClassAnnouncement[]> {
  const reserved = announcementVisibleTo(userId)
  const rows = await db
    .select({
      id: classAnnouncements.id,
      classWorkId: classAnnouncements.classWorkId,
      classWorkTitle: classWorks.title,
      title: classAnnouncements.title,
      body: classAnnouncements.body,
      createdAt: classAnnouncements.createdAt,
      readAt: classAnnouncementReads.readAt,
    })
    .from(classAnnouncements)
    .innerJoin(classWorks, eq(classWorks.id, classAnnouncements.classWorkId))
    .leftJoin(
      classAnnouncementReads,
      and(
        eq(classAnnouncementReads.announcementId, classAnnouncements.id),
        eq(classAnnouncementReads.userId, userId),
      ),
    )
    .where(reserved)
    .orderBy(desc(classAnnouncements.createdAt), desc(classAnnouncements.id))
    .limit(LIMIT)
  return rows.map((r) => ({
    id: r.id,
    class_work_id: r.classWorkId,
    class_work_title: r.classWorkTitle,
    title: r.title,
    body: r.body,
    created_at: iso(r.createdAt),
    is_read: r.readAt !== null,
  }))
}
