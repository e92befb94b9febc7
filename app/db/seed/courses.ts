import type { Tx } from '../client'
import * as s from '../schema'
import type { Rng } from './prng'

/**
 * Demo courses (全N回, issue 16): classes whose schedules are runs of N weekly lessons, booked together. Seeded
 * after everything else, so that the rows of the rest of the demo keep their ids.
 */
export interface CourseSeed {
  teacher: string
  category: number
  title: string
  description: string
  grades: [number, number]
  style: 0 | 1 | 2
  price: number
  capacity: number
  minutes: number
  lessons: number
  /** Tokyo weekday of the lessons (0 Sunday … 6 Saturday) and their start time. */
  weekday: number
  time: [number, number]
  /** Day offsets (from now) on or after which each run's first lesson falls. */
  runs: number[]
}

export const courseSeeds: CourseSeed[] = [
  {
    teacher: 'kenta',
    category: 0,
    title: 'Scratchでゲームを完成させよう【全4回コース】',
    description: [
      '4週間で、オリジナルのゲームを1本完成させるコースです。毎回の宿題はありません。授業の中で少しずつ作り進めます。',
      '',
      '【各回の内容】',
      '第1回 キャラクターを動かす（イベントと動き）',
      '第2回 当たり判定とスコア（条件と変数）',
      '第3回 ステージを増やす（メッセージとくり返し）',
      '第4回 仕上げと発表会',
      '',
      '【こんな人におすすめ】',
      '・Scratchを少し触ったことがあり、1本作りきってみたい',
      '・続けて通うことで、作る習慣をつけたい',
      '',
      '※ 4回まとめてのお申し込みです。キャンセルは第1回の24時間前まで、コース全体でできます。',
    ].join('\n'),
    grades: [3, 6],
    style: 1,
    price: 6000,
    capacity: 6,
    minutes: 60,
    lessons: 4,
    weekday: 6,
    time: [10, 0],
    runs: [-29, 6],
  },
  {
    teacher: 'emily',
    category: 1,
    title: '英検5級 合格コース【全6回】',
    description: [
      '英検5級の出題形式にそって、単語・文法・リスニングを6回で一通り練習します。最終回は本番と同じ形式の模擬テストです。',
      '',
      '【こんな人におすすめ】',
      '・はじめて英検を受ける',
      '・リスニングに慣れておきたい',
      '',
      '【準備するもの】',
      '筆記用具、ノート（教材はPDFでお送りします）',
      '',
      '※ 6回まとめてのお申し込みです。キャンセルは第1回の24時間前まで、コース全体でできます。',
    ].join('\n'),
    grades: [5, 9],
    style: 1,
    price: 9000,
    capacity: 8,
    minutes: 45,
    lessons: 6,
    weekday: 3,
    time: [19, 0],
    runs: [10],
  },
]

const DAY = 86_400_000

/** The lessons of each of the course's runs, in order (the same times seedCourses writes). */
export function courseRunLessons(c: CourseSeed, now: Date): { startedAt: Date; endedAt: Date }[][] {
  return c.runs.map((offset) => {
    const first = nextWeekdayAt(new Date(now.getTime() + offset * DAY), c.weekday, c.time)
    return Array.from({ length: c.lessons }, (_, k) => {
      const startedAt = new Date(first.getTime() + k * 7 * DAY)
      return { startedAt, endedAt: new Date(startedAt.getTime() + c.minutes * 60_000) }
    })
  })
}

/** The first moment on or after `from` that falls on the Tokyo weekday at the time. */
function nextWeekdayAt(from: Date, weekday: number, [h, m]: [number, number]): Date {
  const jst = new Date(from.getTime() + 9 * 3_600_000)
  const days = (weekday - jst.getUTCDay() + 7) % 7
  const day = Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth(), jst.getUTCDate() + days, h - 9, m)
  return new Date(day)
}

export async function seedCourses(
  tx: Tx,
  ctx: {
    rng: Rng
    now: Date
    commissionRate: number
    teacherIds: Map<string, number>
    orgOf: Map<string, number>
    categoryIds: number[]
    styleIds: number[]
    gradeIds: number[]
    pool: { userId: number; learnerId: number | null }[]
    searchText: (c: CourseSeed) => string
    imageOf: (c: CourseSeed) => string
  },
): Promise<void> {
  const { rng, now } = ctx
  for (const c of courseSeeds) {
    const createdAt = new Date(now.getTime() - 60 * DAY)
    const [cls] = await tx
      .insert(s.classWorks)
      .values({
        teacherId: ctx.teacherIds.get(c.teacher)!,
        organizationId: ctx.orgOf.get(c.teacher) ?? null,
        title: c.title,
        description: c.description,
        categoryId: ctx.categoryIds[c.category]!,
        classStyleId: ctx.styleIds[c.style]!,
        price: c.price,
        capacity: c.capacity,
        durationMinutes: c.minutes,
        lessonCount: c.lessons,
        imageUrl: ctx.imageOf(c),
        isPublished: true,
        searchText: ctx.searchText(c),
        createdAt,
        updatedAt: createdAt,
      })
      .returning({ id: s.classWorks.id })
    const classWorkId = cls!.id
    await tx.insert(s.classWorkTargetGrades).values(
      Array.from({ length: c.grades[1] - c.grades[0] + 1 }, (_, k) => ({
        classWorkId,
        targetGradeId: ctx.gradeIds[c.grades[0] + k]!,
      })),
    )
    for (const lessons of courseRunLessons(c, now)) {
      const first = lessons[0]!.startedAt
      const past = lessons[0]!.startedAt.getTime() <= now.getTime()
      const attendees = rng.sample(ctx.pool, past ? rng.int(3, c.capacity) : rng.int(1, c.capacity - 2))
      const [schedule] = await tx
        .insert(s.classWorkSchedules)
        .values({
          classWorkId,
          startedAt: lessons[0]!.startedAt,
          endedAt: lessons.at(-1)!.endedAt,
          capacity: c.capacity,
          purchasedCount: attendees.length,
          meetingUrl: `https://meet.manabi.example/r/${rng.int(100000, 999999)}-${rng.int(1000, 9999)}`,
          createdAt: new Date(Math.min(first.getTime() - 20 * DAY, now.getTime() - DAY)),
        })
        .returning({ id: s.classWorkSchedules.id })
      const scheduleId = schedule!.id
      await tx
        .insert(s.classWorkScheduleLessons)
        .values(lessons.map((l, k) => ({ scheduleId, position: k + 1, ...l })))
      if (attendees.length > 0)
        await tx.insert(s.purchases).values(
          attendees.map((a) => ({
            scheduleId,
            ...a,
            organizationId: ctx.orgOf.get(c.teacher) ?? null,
            price: c.price,
            commission: Math.round(c.price * ctx.commissionRate),
            status: 'reserved',
            createdAt: new Date(Math.min(first.getTime() - rng.int(2, 12) * DAY, now.getTime() - DAY)),
          })),
        )
    }
  }
}
