import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { rowsOf } from '../db/rows'
import { classAnnouncements, classWorks, users } from '../db/schema'
import { hasKanji, hasReadings, type Ruby } from '../lib/ruby'
import { analyze } from './analyzer.server'
import { enqueue } from './queue.server'
import type { JobHandler } from './runner.server'

/**
 * The ruby.fill job (docs/decisions/0028): reads the furigana of the texts that have none yet — published classes'
 * titles and descriptions, teachers' introductions, class announcements — and stores them on their rows. Queued by
 * the database's triggers in the writer's transaction (migration 0021), and every ten minutes as a safety net.
 * A row whose text changed while it was being read keeps null (the update names the text it read), and the
 * trigger's own job reads it again.
 */

export const RUBY_FILL_KIND = 'ruby.fill'
export const RUBY_FILL_EVERY_MS = 10 * 60_000
const BATCH = 200

/** Only the fields that carry a reading are stored; `{}` says "read, nothing to show". */
async function rubyOf(fields: Record<string, string>[]): Promise<Record<string, Ruby>[]> {
  const texts = [...new Set(fields.flatMap((f) => Object.values(f)).filter(hasKanji))]
  const read = new Map<string, Ruby>()
  if (texts.length > 0) {
    const results = await analyze(texts)
    texts.forEach((t, i) => {
      read.set(t, results[i] as Ruby)
    })
  }
  return fields.map((f) => {
    const out: Record<string, Ruby> = {}
    for (const [name, text] of Object.entries(f)) {
      const ruby = read.get(text)
      if (ruby && hasReadings(ruby)) out[name] = ruby
    }
    return out
  })
}

export interface FillResult {
  classes: number
  teachers: number
  announcements: number
  /** A batch was full: there may be more. */
  more: boolean
}

export async function fillRuby(db: Db, batch = BATCH): Promise<FillResult> {
  const classRows = await db
    .select({ id: classWorks.id, title: classWorks.title, description: classWorks.description })
    .from(classWorks)
    .where(and(isNull(classWorks.ruby), eq(classWorks.isPublished, true)))
    .orderBy(asc(classWorks.id))
    .limit(batch)
  const teacherRows = await db
    .select({ id: users.id, introduction: users.introduction })
    .from(users)
    .where(and(isNull(users.ruby), eq(users.isTeacher, true)))
    .orderBy(asc(users.id))
    .limit(batch)
  const announcementRows = await db
    .select({ id: classAnnouncements.id, title: classAnnouncements.title, body: classAnnouncements.body })
    .from(classAnnouncements)
    .where(isNull(classAnnouncements.ruby))
    .orderBy(asc(classAnnouncements.id))
    .limit(batch)

  const [classRuby, teacherRuby, announcementRuby] = [
    await rubyOf(classRows.map(({ title, description }) => ({ title, description }))),
    await rubyOf(teacherRows.map(({ introduction }) => ({ introduction }))),
    await rubyOf(announcementRows.map(({ title, body }) => ({ title, body }))),
  ]

  // Each update names the text it read: a row edited meanwhile is left for the edit's own job.
  let classes = 0
  let teachers = 0
  let announcements = 0
  // Classes come by the thousand (a catalogue): one statement per batch.
  if (classRows.length > 0) {
    const values = sql.join(
      classRows.map(
        (r, i) =>
          sql`(${r.id}::int, ${r.title}::text, ${r.description}::text, ${JSON.stringify(classRuby[i])}::jsonb)`,
      ),
      sql`, `,
    )
    const result = await db.execute(sql`
      update ${classWorks} c set ruby = v.ruby
      from (values ${values}) as v(id, title, description, ruby)
      where c.id = v.id and c.ruby is null and c.title = v.title and c.description = v.description
      returning c.id`)
    classes = rowsOf(result).length
  }
  for (const [i, r] of teacherRows.entries()) {
    const done = await db
      .update(users)
      .set({ ruby: teacherRuby[i] })
      .where(and(eq(users.id, r.id), isNull(users.ruby), eq(users.introduction, r.introduction)))
      .returning({ id: users.id })
    teachers += done.length
  }
  for (const [i, r] of announcementRows.entries()) {
    const done = await db
      .update(classAnnouncements)
      .set({ ruby: announcementRuby[i] })
      .where(
        and(
          eq(classAnnouncements.id, r.id),
          isNull(classAnnouncements.ruby),
          eq(classAnnouncements.title, r.title),
          eq(classAnnouncements.body, r.body),
        ),
      )
      .returning({ id: classAnnouncements.id })
    announcements += done.length
  }
  const more = [classRows, teacherRows, announcementRows].some((rows) => rows.length === batch)
  return { classes, teachers, announcements, more }
}

/** Reads everything still waiting, batch after batch (seeding, tests). */
export async function fillAllRuby(db: Db): Promise<number> {
  let rows = 0
  for (;;) {
    const r = await fillRuby(db)
    rows += r.classes + r.teachers + r.announcements
    if (!r.more) return rows
  }
}

/** The job: one batch, then itself again while a batch comes back full. */
export function rubyFillHandler(publicContentChanged: (why: string) => Promise<void>): JobHandler {
  return async (_job, { db }) => {
    const result = await fillRuby(db)
    if (result.classes + result.teachers > 0) await publicContentChanged('ruby')
    if (result.more) await enqueue(db, RUBY_FILL_KIND, {}, { runAt: new Date(Date.now() + 1000) })
  }
}

/** How many rows still wait for their furigana (what the tests check the job against). */
export async function rubyBacklog(db: Db): Promise<number> {
  const n = sql<number>`count(*)::int`
  const [[a], [b], [c]] = await Promise.all([
    db
      .select({ n })
      .from(classWorks)
      .where(and(isNull(classWorks.ruby), eq(classWorks.isPublished, true))),
    db
      .select({ n })
      .from(users)
      .where(and(isNull(users.ruby), eq(users.isTeacher, true))),
    db.select({ n }).from(classAnnouncements).where(isNull(classAnnouncements.ruby)),
  ])
  return Number(a?.n ?? 0) + Number(b?.n ?? 0) + Number(c?.n ?? 0)
}
