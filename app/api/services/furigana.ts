import { and, eq, inArray, isNull, or, type SQL } from 'drizzle-orm'
import type { FuriganaMap } from '../../contract/v1/furigana'
import type { Db } from '../../db/client'
import { classAnnouncements, classWorks, users } from '../../db/schema'
import { type Ruby, rubyText } from '../../lib/ruby'
import type { UserRow } from '../auth'
import { announcementVisibleTo } from './announcements'
import { publicTeacher } from './teachers'

/**
 * The stored furigana of the texts of some classes, teachers and announcements (docs/decisions/0028), keyed by
 * the text. Each kind is seen as its own pages show it: published classes (and the caller's own), teachers who are
 * not suspended, and announcements of classes the caller holds a reservation for or teaches.
 */
export async function furiganaOf(
  db: Db,
  ids: { classIds?: number[]; userIds?: number[]; announcementIds?: number[] },
  viewer: UserRow | undefined,
): Promise<FuriganaMap> {
  const texts: Record<string, Ruby> = {}
  const add = (row: Record<string, unknown>, ruby: Record<string, Ruby> | null) => {
    for (const [field, segments] of Object.entries(ruby ?? {})) {
      const text = row[field]
      // A text and its ruby change together (the trigger clears it); checked anyway, as the page trusts it.
      if (typeof text === 'string' && rubyText(segments) === text) texts[text] = segments
    }
  }
  const mine = (column: typeof classWorks.teacherId): SQL | undefined =>
    viewer ? eq(column, viewer.id) : undefined

  const [classRows, userRows, announcementRows] = await Promise.all([
    ids.classIds?.length
      ? db
          .select({ title: classWorks.title, description: classWorks.description, ruby: classWorks.ruby })
          .from(classWorks)
          .where(
            and(
              inArray(classWorks.id, ids.classIds),
              or(eq(classWorks.isPublished, true), mine(classWorks.teacherId)),
            ),
          )
      : [],
    ids.userIds?.length
      ? db
          .select({ introduction: users.introduction, ruby: users.ruby })
          .from(users)
          .where(
            and(
              inArray(users.id, ids.userIds),
              or(and(publicTeacher, isNull(users.suspendedAt)), viewer ? eq(users.id, viewer.id) : undefined),
            ),
          )
      : [],
    ids.announcementIds?.length && viewer
      ? db
          .select({
            title: classAnnouncements.title,
            body: classAnnouncements.body,
            ruby: classAnnouncements.ruby,
          })
          .from(classAnnouncements)
          .innerJoin(classWorks, eq(classWorks.id, classAnnouncements.classWorkId))
          .where(
            and(
              inArray(classAnnouncements.id, ids.announcementIds),
              or(announcementVisibleTo(viewer.id), eq(classWorks.teacherId, viewer.id)),
            ),
          )
      : [],
  ])
  for (const { ruby, ...row } of [...classRows, ...userRows, ...announcementRows]) add(row, ruby)
  return { texts }
}
