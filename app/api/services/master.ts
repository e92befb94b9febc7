import { asc } from 'drizzle-orm'
import type { MasterKind, MasterList } from '../../contract/v1/master'
import type { Db } from '../../db/client'
import {
  categories,
  classStyles,
  professions,
  schoolTypes,
  targetGrades,
  videoContentStatuses,
} from '../../db/schema'

const tables = {
  categories,
  school_types: schoolTypes,
  professions,
  class_styles: classStyles,
  target_grades: targetGrades,
  video_content_statuses: videoContentStatuses,
} satisfies Record<MasterKind, typeof categories>

export async function masterList(db: Db, kind: MasterKind): Promise<MasterList> {
  const t = tables[kind]
  const rows = await db.select().from(t).orderBy(asc(t.sortOrder), asc(t.id))
  return rows.map((r) => ({ id: r.id, name: r.name, sort_order: r.sortOrder }))
}
