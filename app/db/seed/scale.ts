import '@tanstack/react-start/server-only'
import { asc, eq } from 'drizzle-orm'
import { classSearchText } from '../../lib/search-normalize'
import type { Db } from '../client'
import * as s from '../schema'
import { classDescription, classSeeds } from './classes'
import { createRng } from './prng'

const BATCH = 500
const DAY = 86_400_000

/**
 * Adds `count` synthetic published classes (variations of the demo classes, by the demo teachers) with three
 * schedules each around `now`. Returns how many classes were added.
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
      const plans = Array.from({ length: size }, (_, k) => {
        const base = rng.pick(classSeeds)
        const category = categories[base.category % categories.length]!
        const teacher = rng.pick(teachers)
        const title = `${base.title}（${added + k + 1}）`
        const description = classDescription(base)
        return {
          base,
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
        grades
          .slice(p.base.grades[0], p.base.grades[1] + 1)
          .map((g) => ({ classWorkId: ids[i]!.id, targetGradeId: g.id })),
      )
      const scheduleRows = plans.flatMap((p, i) =>
        [rng.int(-30, -1), rng.int(0, 20), rng.int(21, 60)].map((day) => {
          const startedAt = new Date(now.getTime() + day * DAY + rng.int(9, 20) * 3_600_000)
          const past = day < 0
          return {
            classWorkId: ids[i]!.id,
            startedAt,
            endedAt: new Date(startedAt.getTime() + p.base.minutes * 60_000),
            capacity: p.base.capacity,
            purchasedCount: rng.int(0, past ? p.base.capacity : Math.floor(p.base.capacity / 2)),
          }
        }),
      )
      await tx.insert(s.classWorkTargetGrades).values(gradeRows)
      await tx.insert(s.classWorkSchedules).values(scheduleRows)
    })
    added += size
  }
  return added
}
