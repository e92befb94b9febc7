import { and, desc, eq, isNull, lte } from 'drizzle-orm'
import type { ClassAnnouncement, ReadResult } from '../../contract/v1/announcements'
import type { Notice } from '../../contract/v1/notices'
import type { Db } from '../../db/client'
import { classAnnouncementReads, classAnnouncements, classWorks, noticeReads, notices } from '../../db/schema'
import { notFound } from '../errors'
import { announcementVisibleTo } from './announcements'
import { iso } from './class-cards'

const LIMIT = 100

function noticeQuery(db: Db, userId: number, now: Date) {
  return db
    .select({
      id: notices.id,
      title: notices.title,
      body: notices.body,
      bodyHtml: notices.bodyHtml,
      publishedAt: notices.publishedAt,
      readAt: noticeReads.readAt,
    })
    .from(notices)
    .leftJoin(noticeReads, and(eq(noticeReads.noticeId, notices.id), eq(noticeReads.userId, userId)))
    .$dynamic()
    .where(visibleNotice(now))
}

/** Published (its time has come) and not withdrawn. */
export const visibleNotice = (now: Date) => and(lte(notices.publishedAt, now), isNull(notices.withdrawnAt))

type NoticeRow = {
  id: number
  title: string
  body: string
  bodyHtml: string | null
  publishedAt: Date
  readAt: Date | null
}
const toNotice = (r: NoticeRow): Notice => ({
  id: r.id,
  title: r.title,
  body: r.body,
  body_html: r.bodyHtml,
  published_at: iso(r.publishedAt),
  is_read: r.readAt !== null,
})

/** Published operator notices, newest first, with the caller's read state (scheduled ones stay hidden). */
export async function listNotices(db: Db, userId: number, now: Date): Promise<Notice[]> {
  const rows = await noticeQuery(db, userId, now)
    .orderBy(desc(notices.publishedAt), desc(notices.id))
    .limit(LIMIT)
  return rows.map(toNotice)
}

export async function getNotice(db: Db, userId: number, id: number, now: Date): Promise<Notice> {
  const [row] = await db
    .select({
      id: notices.id,
      title: notices.title,
      body: notices.body,
      bodyHtml: notices.bodyHtml,
      publishedAt: notices.publishedAt,
      readAt: noticeReads.readAt,
    })
    .from(notices)
    .leftJoin(noticeReads, and(eq(noticeReads.noticeId, notices.id), eq(noticeReads.userId, userId)))
    .where(and(eq(notices.id, id), visibleNotice(now)))
    .limit(1)
  if (!row) throw notFound('お知らせ')
  return toNotice(row)
}

/** Marks a published notice read (repeating is harmless). */
export async function markNoticeRead(db: Db, userId: number, id: number, now: Date): Promise<ReadResult> {
  return db.transaction(async (tx) => {
    const [n] = await tx
      .select({ id: notices.id })
      .from(notices)
      .where(and(eq(notices.id, id), visibleNotice(now)))
      .limit(1)
    if (!n) throw notFound('お知らせ')
    await tx.insert(noticeReads).values({ noticeId: id, userId, readAt: now }).onConflictDoNothing()
    return { id, is_read: true as const }
  })
}

/** The same rule as the list (GET /v1/class_announcements). */
const reservedBy = announcementVisibleTo

export async function getClassAnnouncement(db: Db, userId: number, id: number): Promise<ClassAnnouncement> {
  const [r] = await db
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
    .where(and(eq(classAnnouncements.id, id), reservedBy(userId)))
    .limit(1)
  if (!r) throw notFound('お知らせ')
  return {
    id: r.id,
    class_work_id: r.classWorkId,
    class_work_title: r.classWorkTitle,
    title: r.title,
    body: r.body,
    created_at: iso(r.createdAt),
    is_read: r.readAt !== null,
  }
}

export async function markClassAnnouncementRead(
  db: Db,
  userId: number,
  id: number,
  now: Date,
): Promise<ReadResult> {
  return db.transaction(async (tx) => {
    const [a] = await tx
      .select({ id: classAnnouncements.id })
      .from(classAnnouncements)
      .where(and(eq(classAnnouncements.id, id), reservedBy(userId)))
      .limit(1)
    if (!a) throw notFound('お知らせ')
    await tx
      .insert(classAnnouncementReads)
      .values({ announcementId: id, userId, readAt: now })
      .onConflictDoNothing()
    return { id, is_read: true as const }
  })
}
