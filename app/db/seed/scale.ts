import '@tanstack/react-start/server-only'
import { asc, eq, sql } from 'drizzle-orm'
import { classSearchText } from '../../lib/search-normalize'
import type { Db } from '../client'
import * as s from '../schema'
import { recomputeSearchKeys } from '../search-keys'
import { classDescription, classSeeds } from './classes'
import { createRng } from './prng'

const BATCH = 500
const DAY = 86_400_000

/**
 * Adds `count` synthetic published classes (variations of the demo classes, by the demo teachers) with three
 * schedules each around `now`. Returns how many classes were added.
 *
 * The row triggers that keep a class's search keys (migrations 0004, 0018, 0022) are off in each batch: they update the
 * class once per schedule and grade row, and each update re-indexes its search bigrams, which made 100k classes take
 * over an hour. The keys are written instead once per batch (recomputeSearchKeys, one update per class) at `now`,
 * the run's one clock, and the furigana is filled by the caller (fillAllRuby).
 */
export async function seedScale(db: Db, { count, now }: { count: number; now: Date }): Promise<number> {
  const rng = createRng(count * 7919 + 17)
  const [teachers, categories, styles, grades] = await Promise.all([
    db
      .select({ id: s.users.id, nickname: s.users.nickname })
      .from(s.users)
      .where(eq(s.users.isTeacher, true)),
    db.select().from(s.categories).orderBy(asc(s.categories.sortOrder)),
    db.select().from(s.classStyles).orderBy(asc(s.classStyles.sortOrder)),
    db.select().from(s.targetGrades).orderBy(asc(s.targetGrades.sortOrder)),
  ])
  if (teachers.length === 0 || categories.length === 0) {
    throw new Error('No demo content: start the app once or run `npm run db:reset` first.')
  }
  let added = 0
  while (added < count) {
    const size = Math.min(BATCH, count - added)
    await db.transaction(async (tx) => {
      // Triggers (and foreign-key checks) off for this transaction only; the rows below are consistent by making.
      await tx.execute(sql`SET LOCAL session_replication_role = replica`)
      const plans = Array.from({ length: size }, (_, k) => {
        const base = rng.pick(classSeeds)
        const category = categories[base.category % categories.length]!
        const teacher = rng.pick(teachers)
        const title = `${base.title}（${added + k + 1}）`
        const description = classDescription(base)
        const gradeIds = grades.slice(base.grades[0], base.grades[1] + 1).map((g) => g.id)
        const schedules = [rng.int(-30, -1), rng.int(0, 20), rng.int(21, 60)].map((day) => {
          const startedAt = new Date(now.getTime() + day * DAY + rng.int(9, 20) * 3_600_000)
          return {
            startedAt,
            endedAt: new Date(startedAt.getTime() + base.minutes * 60_000),
            capacity: base.capacity,
            purchasedCount: rng.int(0, day < 0 ? base.capacity : Math.floor(base.capacity / 2)),
          }
        })
        return {
          gradeIds,
          schedules,
          row: {
            teacherId: teacher.id,
            title,
            description,
            categoryId: category.id,
            classStyleId: styles[base.style % styles.length]!.id,
            price: base.price === 0 ? 0 : rng.int(5, 40) * 100,
            capacity: base.capacity,
            durationMinutes: base.minutes,
            imageUrl: `/images/classes/${String(base.category + 1).padStart(2, '0')}-${rng.chance(0.5) ? 'a' : 'b'}.svg`,
            isPublished: true,
            searchText: classSearchText({
              title,
              description,
              teacherNickname: teacher.nickname,
              categoryName: category.name,
            }),
            createdAt: new Date(now.getTime() - rng.int(1, 365) * DAY),
          },
        }
      })
      const ids = await tx
        .insert(s.classWorks)
        .values(plans.map((p) => p.row))
        .returning({ id: s.classWorks.id })
      const gradeRows = plans.flatMap((p, i) =>
        p.gradeIds.map((targetGradeId) => ({ classWorkId: ids[i]!.id, targetGradeId })),
      )
      const scheduleRows = plans.flatMap((p, i) =>
        p.schedules.map((x) => ({ ...x, classWorkId: ids[i]!.id })),
      )
      await tx.insert(s.classWorkTargetGrades).values(gradeRows)
      await tx.insert(s.classWorkSchedules).values(scheduleRows)
      await recomputeSearchKeys(
        tx,
        now,
        ids.map((r) => r.id),
      )
    })
    added += size
  }
  return added
}
