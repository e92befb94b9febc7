import '@tanstack/react-start/server-only'
import { and, count, eq, inArray, isNull, like, lte, ne, notExists, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { findOverlap, type Period } from '../../lib/schedule-overlap'
import { classSearchText, normalizeSearchText } from '../../lib/search-normalize'
import type { Db, DbOrTx, Tx } from '../client'
import * as s from '../schema'
import { announcementTemplates, classDescription, classSeeds } from './classes'
import { courseRunLessons, courseSeeds, seedCourses } from './courses'
import { articleSeeds } from './magazine'
import { masterData, schoolTypeIndexOfGrade } from './masters'
import { recordDemoPayments } from './payments'
import { DEMO_SUBS, memberSeeds, operatorSeed, organizationSeeds, parentSeed, teacherSeeds } from './people'
import { createRng, type Rng } from './prng'
import { noticeSeeds, threadSeeds } from './texts'

export interface SeedOptions {
  /** Identity issuer the demo users belong to (the embedded provider: `${siteOrigin}/idp`). */
  issuer: string
  /** Everything (schedules, messages, articles) is placed relative to this moment. */
  now: Date
  commissionRate?: number
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

/** A moment on the Tokyo calendar day `dayOffset` days from `now`'s Tokyo day, at hh:mm Tokyo time. */
export function tokyoAt(now: Date, dayOffset: number, hour: number, minute = 0): Date {
  const jst = new Date(now.getTime() + 9 * HOUR)
  return new Date(
    Date.UTC(jst.getUTCFullYear(), jst.getUTCMonth(), jst.getUTCDate() + dayOffset, hour - 9, minute),
  )
}

export async function seedMasters(tx: DbOrTx) {
  const rows = (list: readonly string[]) => list.map((name, i) => ({ name, sortOrder: (i + 1) * 10 }))
  const ids = async (table: typeof s.categories, list: readonly string[]) =>
    (await tx.insert(table).values(rows(list)).returning({ id: table.id })).map((r) => r.id)
  return {
    categories: await ids(s.categories, masterData.categories),
    schoolTypes: await ids(s.schoolTypes, masterData.schoolTypes),
    professions: await ids(s.professions, masterData.professions),
    classStyles: await ids(s.classStyles, masterData.classStyles),
    targetGrades: await ids(s.targetGrades, masterData.targetGrades),
    videoContentStatuses: await ids(s.videoContentStatuses, masterData.videoContentStatuses),
  }
}

async function chunkedInsert<T>(items: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < items.length; i += size) await insert(items.slice(i, i + size))
}

interface Attendee {
  userId: number
  learnerId: number | null
}

/** Creates the whole demo data set inside one transaction. Expects an empty, migrated database. */
export async function seedDemoContent(db: Db, options: SeedOptions): Promise<void> {
  await db.transaction(async (tx) => {
    await seedAll(tx, options)
  })
}

async function seedAll(tx: Tx, { issuer, now, commissionRate = 0.2 }: SeedOptions) {
  const rng = createRng(20_240_401)
  const m = await seedMasters(tx)
  const agreedToTermsAt = new Date(now.getTime() - 120 * DAY)

  // ── teachers and organisations ──
  const teacherIds = new Map<string, number>()
  for (const [i, t] of teacherSeeds.entries()) {
    const [row] = await tx
      .insert(s.users)
      .values({
        issuer,
        sub: t.sub,
        email: t.email,
        emailVerified: true,
        nickname: t.nickname,
        name: t.name,
        nameKana: t.nameKana,
        avatarUrl: `/images/avatars/teacher-${String(i + 1).padStart(2, '0')}.svg`,
        introduction: t.introduction,
        role: 'teacher',
        professionId: m.professions[t.profession],
        isTeacher: true,
        // The demo teachers passed 本人確認 (issue 15), so their pages show 「本人確認済み」.
        teacherVerifiedAt: new Date(now.getTime() - (95 - i) * DAY),
        agreedToTermsAt,
        createdAt: new Date(now.getTime() - (100 - i) * DAY),
      })
      .returning({ id: s.users.id })
    teacherIds.set(t.key, row!.id)
  }
  const orgOf = new Map<string, number>()
  for (const o of organizationSeeds) {
    const ownerId = teacherIds.get(o.ownerKey)!
    const [org] = await tx
      .insert(s.organizations)
      .values({
        kind: o.kind,
        name: o.name,
        representative: o.representative,
        url: o.url,
        description: o.description,
        ownerId,
        invitationCode: o.invitationCode,
        createdAt: new Date(now.getTime() - 90 * DAY),
      })
      .returning({ id: s.organizations.id })
    const orgId = org!.id
    orgOf.set(o.ownerKey, orgId)
    await tx.insert(s.orgUsers).values([
      { organizationId: orgId, userId: ownerId, role: 'owner', joinedAt: new Date(now.getTime() - 90 * DAY) },
      ...o.memberKeys.map((key, i) => ({
        organizationId: orgId,
        userId: teacherIds.get(key)!,
        role: 'member',
        joinedAt: new Date(now.getTime() - (80 - i * 7) * DAY),
      })),
    ])
    for (const key of o.memberKeys) orgOf.set(key, orgId)
  }

  // ── members (the demo parent first) and their learner profiles ──
  const memberIds = new Map<string, number>()
  const pool: Attendee[] = []
  const parentAttendees = new Map<string, Attendee>()
  for (const [i, p] of [parentSeed, ...memberSeeds].entries()) {
    const [row] = await tx
      .insert(s.users)
      .values({
        issuer,
        sub: p.sub,
        email: p.email,
        emailVerified: true,
        nickname: p.nickname,
        name: p.name,
        nameKana: p.nameKana,
        role: p.role,
        professionId: p.profession === undefined ? null : m.professions[p.profession],
        schoolTypeId: p.grade === undefined ? null : m.schoolTypes[schoolTypeIndexOfGrade(p.grade)],
        targetGradeId: p.grade === undefined ? null : m.targetGrades[p.grade],
        agreedToTermsAt,
        createdAt: new Date(now.getTime() - (70 - i * 2) * DAY),
      })
      .returning({ id: s.users.id })
    const userId = row!.id
    memberIds.set(p.key, userId)
    if (p.learners.length === 0) {
      if (p.key !== 'parent') pool.push({ userId, learnerId: null })
      continue
    }
    const learnerRows = await tx
      .insert(s.learners)
      .values(
        p.learners.map(([nickname, grade]) => ({
          userId,
          nickname,
          schoolTypeId: m.schoolTypes[schoolTypeIndexOfGrade(grade)]!,
          targetGradeId: m.targetGrades[grade]!,
        })),
      )
      .returning({ id: s.learners.id, nickname: s.learners.nickname })
    for (const l of learnerRows) {
      if (p.key === 'parent') parentAttendees.set(l.nickname, { userId, learnerId: l.id })
      else pool.push({ userId, learnerId: l.id })
    }
  }
  const parentId = memberIds.get('parent')!

  // ── classes ──
  const classIds: number[] = []
  for (const [i, c] of classSeeds.entries()) {
    const teacher = teacherSeeds.find((t) => t.key === c.teacher)!
    const description = classDescription(c)
    const createdAt = new Date(now.getTime() - (95 - i) * DAY - rng.int(0, 20) * HOUR)
    const [row] = await tx
      .insert(s.classWorks)
      .values({
        teacherId: teacherIds.get(c.teacher)!,
        organizationId: orgOf.get(c.teacher) ?? null,
        title: c.title,
        description,
        categoryId: m.categories[c.category]!,
        classStyleId: m.classStyles[c.style]!,
        price: c.price,
        capacity: c.capacity,
        durationMinutes: c.minutes,
        imageUrl: `/images/classes/${String(c.category + 1).padStart(2, '0')}-${i % 2 === 0 ? 'a' : 'b'}.svg`,
        isPublished: c.published !== false,
        searchText: classSearchText({
          title: c.title,
          description,
          teacherNickname: teacher.nickname,
          categoryName: masterData.categories[c.category]!,
        }),
        createdAt,
        updatedAt: createdAt,
      })
      .returning({ id: s.classWorks.id })
    classIds.push(row!.id)
    await tx.insert(s.classWorkTargetGrades).values(
      Array.from({ length: c.grades[1] - c.grades[0] + 1 }, (_, k) => ({
        classWorkId: row!.id,
        targetGradeId: m.targetGrades[c.grades[0] + k]!,
      })),
    )
  }

  const taro = parentAttendees.get('たろう')!
  const sakura = parentAttendees.get('さくら')!
  // Where the demo parent's children have seats: [class title, attendee, 'past' | 'upcoming' | 'canceled'].
  const parentPlan: [string, Attendee, 'past' | 'upcoming' | 'canceled'][] = [
    ['はじめてのScratch（スクラッチ）でゲームづくり', taro, 'past'],
    ['はじめてのScratch（スクラッチ）でゲームづくり', taro, 'upcoming'],
    ['おうちでできる！ふしぎ実験教室', taro, 'past'],
    ['地図記号クイズで日本を旅しよう', taro, 'upcoming'],
    ['そろばん式 暗算トレーニング', taro, 'canceled'],
    ['えいごであそぼう！うた・てあそび', sakura, 'upcoming'],
    ['English Picture Book Time（英語の絵本読み聞かせ）', sakura, 'upcoming'],
    ['リトミックで音楽あそび', sakura, 'past'],
  ]

  // ── schedules and reservations ──
  const slots: [number, number][] = [
    [10, 0],
    [13, 0],
    [16, 0],
    [17, 30],
    [19, 0],
    [20, 0],
  ]
  const purchaseRows: (typeof s.purchases.$inferInsert)[] = []
  /** The latest reservation of each class (its announcements are posted after it). */
  const lastBookedAt = new Map<number, number>()
  const reservedClassUsers = new Map<number, Set<number>>()
  // Each teacher's lessons so far, courses (seeded later) included: a teacher teaches one lesson at a time.
  const taught = new Map<string, Period[]>()
  const taughtBy = (teacher: string) => taught.get(teacher) ?? taught.set(teacher, []).get(teacher)!
  for (const c of courseSeeds) taughtBy(c.teacher).push(...courseRunLessons(c, now).flat())
  for (const [i, c] of classSeeds.entries()) {
    const classWorkId = classIds[i]!
    const published = c.published !== false
    const offsets = published ? scheduleOffsets(rng) : [rng.int(10, 30), rng.int(31, 55)]
    const planned = offsets.map((offset) => {
      // The slot drawn as rng.pick(slots) draws it, so that every later draw of the seed stays the same.
      const slot = rng.int(0, slots.length - 1)
      const { startedAt, endedAt } = freeLesson(taughtBy(c.teacher), now, offset, slots, slot, c.minutes)
      const past = endedAt.getTime() <= now.getTime()
      const canceled = published && rng.chance(0.08)
      let seats = 0
      if (published && !canceled) {
        if (past) seats = c.capacity === 1 ? (rng.chance(0.8) ? 1 : 0) : rng.int(0, c.capacity)
        else if (rng.chance(0.15)) seats = c.capacity
        else seats = rng.int(0, Math.ceil(c.capacity * 0.6))
      }
      return {
        startedAt,
        endedAt,
        past,
        canceled,
        seats,
        fixed: [] as Attendee[],
        userCanceled: [] as Attendee[],
      }
    })
    for (const [title, attendee, when] of parentPlan) {
      if (title !== c.title) continue
      const candidates = planned.filter((p) => !p.canceled && (when === 'past' ? p.past : !p.past))
      const target = when === 'past' ? candidates.at(-1) : candidates[0]
      if (!target) throw new Error(`seed: no ${when} schedule for ${title}`)
      if (when === 'canceled') target.userCanceled.push(attendee)
      else target.fixed.push(attendee)
    }
    for (const p of planned) {
      const taken = Math.min(Math.max(p.seats, p.fixed.length), c.capacity)
      const attendees = [...p.fixed, ...rng.sample(pool, taken - p.fixed.length)]
      const [schedule] = await tx
        .insert(s.classWorkSchedules)
        .values({
          classWorkId,
          startedAt: p.startedAt,
          endedAt: p.endedAt,
          capacity: c.capacity,
          purchasedCount: attendees.length,
          isCanceled: p.canceled,
          meetingUrl: `https://meet.manabi.example/r/${rng.int(100000, 999999)}-${rng.int(1000, 9999)}`,
          createdAt: new Date(Math.min(p.startedAt.getTime() - 20 * DAY, now.getTime() - DAY)),
        })
        .returning({ id: s.classWorkSchedules.id })
      const scheduleId = schedule!.id
      const bookedAt = () =>
        new Date(
          Math.min(p.startedAt.getTime() - rng.int(1, 10) * DAY, now.getTime() - rng.int(1, 48) * HOUR),
        )
      const money = {
        price: c.price,
        commission: Math.round(c.price * commissionRate),
        organizationId: orgOf.get(c.teacher) ?? null,
      }
      for (const a of attendees) {
        const createdAt = bookedAt()
        purchaseRows.push({ scheduleId, ...a, ...money, status: 'reserved', createdAt })
        const set = reservedClassUsers.get(classWorkId) ?? new Set()
        set.add(a.userId)
        reservedClassUsers.set(classWorkId, set)
        lastBookedAt.set(classWorkId, Math.max(lastBookedAt.get(classWorkId) ?? 0, createdAt.getTime()))
      }
      for (const a of p.userCanceled) {
        const createdAt = bookedAt()
        purchaseRows.push({
          scheduleId,
          ...a,
          ...money,
          status: 'canceled_by_user',
          createdAt,
          canceledAt: new Date(createdAt.getTime() + 2 * HOUR),
        })
      }
      if (p.canceled) {
        for (const a of rng.sample(pool, rng.int(0, Math.min(2, c.capacity)))) {
          const createdAt = bookedAt()
          purchaseRows.push({
            scheduleId,
            ...a,
            ...money,
            status: 'canceled_by_teacher',
            createdAt,
            canceledAt: new Date(Math.min(createdAt.getTime() + DAY, now.getTime() - HOUR)),
          })
        }
      }
    }
  }
  await chunkedInsert(purchaseRows, 400, (chunk) => tx.insert(s.purchases).values(chunk))

  // ── reviews (issue 16): most attended lessons of other members are reviewed; the demo parent's are left for
  // them to write. Some have the teacher's reply. The classes' rating counters follow.
  const attended = await tx
    .select({
      id: s.purchases.id,
      userId: s.purchases.userId,
      classWorkId: s.classWorkSchedules.classWorkId,
      endedAt: s.classWorkSchedules.endedAt,
    })
    .from(s.purchases)
    .innerJoin(s.classWorkSchedules, eq(s.classWorkSchedules.id, s.purchases.scheduleId))
    .where(
      and(
        eq(s.purchases.status, 'reserved'),
        eq(s.classWorkSchedules.isCanceled, false),
        lte(s.classWorkSchedules.endedAt, now),
        ne(s.purchases.userId, parentId),
      ),
    )
    .orderBy(s.purchases.id)
  // Its own generator: the demo content drawn after this stays what it was before reviews existed.
  const reviewRng = createRng(20_241_116)
  const reviewRows: (typeof s.reviews.$inferInsert)[] = []
  for (const p of attended) {
    if (!reviewRng.chance(0.7)) continue
    // Written 1–48 h after the lesson, and at the latest an hour ago — or, for a lesson that ended within the last
    // two hours, halfway between its end and now: never before the lesson ended, whatever the time of day.
    const latest = now.getTime() - Math.min(3600_000, (now.getTime() - p.endedAt.getTime()) / 2)
    const createdAt = new Date(Math.min(latest, p.endedAt.getTime() + reviewRng.int(1, 48) * 3600_000))
    const replied = reviewRng.chance(0.4)
    reviewRows.push({
      purchaseId: p.id,
      classWorkId: p.classWorkId,
      userId: p.userId,
      rating: reviewRng.pick([5, 5, 5, 5, 4, 4, 4, 3, 5, 2]),
      comment: reviewRng.pick(reviewComments),
      createdAt,
      ...(replied
        ? {
            reply: reviewRng.pick(reviewReplies),
            repliedAt: new Date(Math.min(now.getTime(), createdAt.getTime() + 20 * 3600_000)),
          }
        : {}),
    })
  }
  await chunkedInsert(reviewRows, 400, (chunk) => tx.insert(s.reviews).values(chunk))
  await tx.execute(sql`
    update ${s.classWorks} c set rating_count = r.n, rating_sum = r.total
    from (select class_work_id, count(*)::int as n, sum(rating)::int as total from ${s.reviews}
          where status = 'visible' group by class_work_id) r
    where r.class_work_id = c.id`)

  // ── favorites and follows ──
  const publishedIds = classIds.filter((_, i) => classSeeds[i]!.published !== false)
  const idOfTitle = (title: string) => classIds[classSeeds.findIndex((c) => c.title === title)]!
  const favoriteRows: (typeof s.favorites.$inferInsert)[] = [
    'はじめてのScratch（スクラッチ）でゲームづくり',
    'フォニックスで英語が読めるようになる',
    'おうちでできる！ふしぎ実験教室',
    '親子陶芸 オンライン体験',
    'えのぐで遊ぼう！はじめての水彩画',
  ].map((title, i) => ({
    userId: parentId,
    classWorkId: idOfTitle(title),
    createdAt: new Date(now.getTime() - (20 - i) * DAY),
  }))
  const followRows: (typeof s.follows.$inferInsert)[] = ['kenta', 'emily', 'takahashi'].map((key, i) => ({
    followerId: parentId,
    teacherId: teacherIds.get(key)!,
    createdAt: new Date(now.getTime() - (25 - i) * DAY),
  }))
  const teacherIdList = [...teacherIds.values()]
  for (const member of memberSeeds) {
    const userId = memberIds.get(member.key)!
    for (const classWorkId of rng.sample(publishedIds, rng.int(2, 5))) {
      favoriteRows.push({ userId, classWorkId, createdAt: new Date(now.getTime() - rng.int(1, 60) * DAY) })
    }
    for (const teacherId of rng.sample(teacherIdList, rng.int(1, 3))) {
      followRows.push({
        followerId: userId,
        teacherId,
        createdAt: new Date(now.getTime() - rng.int(1, 60) * DAY),
      })
    }
  }
  await tx.insert(s.favorites).values(favoriteRows)
  await tx.insert(s.follows).values(followRows)

  // ── class announcements (newest unread for the demo parent) ──
  const parentClassIds = new Set(parentPlan.map(([title]) => idOfTitle(title)))
  for (const classWorkId of publishedIds) {
    const attendees = reservedClassUsers.get(classWorkId)
    if (!attendees) continue
    const n = parentClassIds.has(classWorkId) ? 2 : rng.chance(0.5) ? 1 : 0
    const picked = rng.sample(announcementTemplates, n)
    // Posted after the last of its bookings (members see what was posted while they held a seat), the first a
    // while before the second.
    const after = lastBookedAt.get(classWorkId)!
    const span = now.getTime() - after
    for (const [k, [title, body]] of picked.entries()) {
      const jitter = rng.int(0, 20) / 20
      const [a] = await tx
        .insert(s.classAnnouncements)
        .values({
          classWorkId,
          title,
          body,
          createdAt: new Date(after + Math.round((span * ((k === 0 ? 1 : 3) + jitter)) / 5)),
        })
        .returning({ id: s.classAnnouncements.id })
      const readers = [...attendees].filter((u) => (u === parentId ? k === 0 : rng.chance(0.6)))
      if (readers.length > 0) {
        await tx.insert(s.classAnnouncementReads).values(
          readers.map((userId) => ({
            announcementId: a!.id,
            userId,
            readAt: new Date(now.getTime() - HOUR),
          })),
        )
      }
    }
  }

  // ── notices ──
  const noticeRows = await tx
    .insert(s.notices)
    .values(
      noticeSeeds.map((n) => ({ title: n.title, body: n.body, publishedAt: tokyoAt(now, -n.daysAgo, 10) })),
    )
    .returning({ id: s.notices.id })
  await tx
    .insert(s.noticeReads)
    .values(
      noticeRows
        .slice(0, 3)
        .map((n) => ({ noticeId: n.id, userId: parentId, readAt: new Date(now.getTime() - DAY) })),
    )

  // ── rooms and messages ──
  for (const thread of threadSeeds) {
    const teacherId = teacherIds.get(thread.teacher)!
    const memberId = memberIds.get(thread.member)!
    const at = (m: { hoursAgo: number }) => new Date(now.getTime() - m.hoursAgo * HOUR)
    const last = thread.messages.at(-1)!
    const [room] = await tx
      .insert(s.rooms)
      .values({ teacherId, memberId, createdAt: at(thread.messages[0]!), lastMessageAt: at(last) })
      .returning({ id: s.rooms.id })
    const roomId = room!.id
    await tx.insert(s.messages).values(
      thread.messages.map((msg) => ({
        roomId,
        senderId: msg.from === 'teacher' ? teacherId : memberId,
        body: msg.body,
        createdAt: at(msg),
      })),
    )
    // Reading the k-th message means reading everything up to it, including one's own messages.
    const readUpTo = (k: number) => (k > 0 ? at(thread.messages[k - 1]!) : null)
    await tx.insert(s.roomMembers).values([
      { roomId, userId: teacherId, lastReadAt: readUpTo(thread.teacherRead) },
      { roomId, userId: memberId, lastReadAt: readUpTo(thread.memberRead) },
    ])
  }

  // ── magazine ──
  await tx.insert(s.magazineArticles).values(
    articleSeeds.map((a) => ({
      title: a.title,
      lead: a.lead,
      body: a.body,
      imageUrl: `/images/magazine/${String(a.image).padStart(2, '0')}.svg`,
      category: a.category,
      tags: a.tags,
      publishedAt: tokyoAt(now, -a.daysAgo, 9),
      searchText: magazineSearchText(a),
    })),
  )

  // ── the demo operator (運営), last so that every other row keeps its id ──
  await insertDemoOperator(tx, issuer, now)

  // ── courses (全N回, issue 16): after every other row, with their own generator, so nothing else moves ──
  await seedCourses(tx, {
    rng: createRng(20_251_125),
    now,
    commissionRate,
    teacherIds,
    orgOf,
    categoryIds: m.categories,
    styleIds: m.classStyles,
    gradeIds: m.targetGrades,
    pool,
    searchText: (c) =>
      classSearchText({
        title: c.title,
        description: c.description,
        teacherNickname: teacherSeeds.find((t) => t.key === c.teacher)!.nickname,
        categoryName: masterData.categories[c.category]!,
      }),
    imageOf: (c) => `/images/classes/${String(c.category + 1).padStart(2, '0')}-a.svg`,
  })

  // ── payments (issue 17): every paid demo reservation was paid, every cancelled one refunded ──
  await recordDemoPayments(tx)
}

function insertDemoOperator(tx: DbOrTx, issuer: string, now: Date) {
  return tx
    .insert(s.users)
    .values({
      issuer,
      sub: operatorSeed.sub,
      email: operatorSeed.email,
      emailVerified: true,
      nickname: operatorSeed.nickname,
      name: operatorSeed.name,
      nameKana: operatorSeed.nameKana,
      role: 'parent',
      isOperator: true,
      agreedToTermsAt: new Date(now.getTime() - 90 * DAY),
      createdAt: new Date(now.getTime() - 90 * DAY),
    })
    .onConflictDoNothing()
}

/**
 * Demo content seeded before trust and safety existed (issue 15) gains the demo operator, so that the demo's
 * operator@manabi.example account signs in to a profile. Only where the demo parent exists.
 */
export async function ensureDemoOperator(db: Db, issuer: string, now: Date): Promise<void> {
  const [parent] = await db
    .select({ id: s.users.id })
    .from(s.users)
    .where(and(eq(s.users.issuer, issuer), eq(s.users.sub, DEMO_SUBS.parent)))
    .limit(1)
  if (!parent) return
  await insertDemoOperator(db, issuer, now)
  // …and its teachers count as verified, as they do in demo content seeded now.
  await db
    .update(s.users)
    .set({ teacherVerifiedAt: s.users.createdAt })
    .where(
      and(
        eq(s.users.issuer, issuer),
        inArray(
          s.users.sub,
          teacherSeeds.map((t) => t.sub),
        ),
        isNull(s.users.teacherVerifiedAt),
      ),
    )
}

export function magazineSearchText(a: { title: string; lead: string; body: string }): string {
  return normalizeSearchText([a.title, a.lead, a.body.replace(/<[^>]*>/g, ' ')].join('\n'))
}

/**
 * The lesson at slot `first` of the day, or, when the teacher teaches then, at the day's next free slot (then the
 * next day's); recorded in `taught`. Draws nothing from the generator, so the rest of the seed stays as it was.
 */
function freeLesson(
  taught: Period[],
  now: Date,
  offset: number,
  slots: readonly [number, number][],
  first: number,
  minutes: number,
): Period {
  for (let day = offset; day < offset + 7; day++)
    for (let k = 0; k < slots.length; k++) {
      const [h, min] = slots[(first + k) % slots.length]!
      const startedAt = tokyoAt(now, day, h, min)
      const lesson = { startedAt, endedAt: new Date(startedAt.getTime() + minutes * 60_000) }
      if (!findOverlap(lesson, taught)) {
        taught.push(lesson)
        return lesson
      }
    }
  throw new Error('seed: no free slot for a lesson within a week')
}

/** 3–6 distinct days between 30 days ago and 60 days ahead, with at least one in the coming two weeks. */
function scheduleOffsets(rng: Rng): number[] {
  const n = rng.int(3, 6)
  const days = new Set<number>()
  days.add(rng.int(-30, -1))
  days.add(rng.int(0, 14))
  while (days.size < n) days.add(rng.int(-30, 60))
  return [...days].sort((a, b) => a - b)
}

/**
 * Seeds the master lists, and the demo content unless `demo` is false (a real deployment), when the database has
 * none yet. Returns whether it seeded.
 */
export async function seedIfEmpty(db: Db, options: SeedOptions & { demo?: boolean }): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(s.categories)
  if ((row?.n ?? 0) > 0) return false
  if (options.demo === false) await db.transaction((tx) => seedMasters(tx))
  else await seedDemoContent(db, options)
  return true
}

/**
 * Users of the embedded identity provider are stored under its issuer, `${SITE_ORIGIN}/idp`. When the app is
 * started on another origin (another PORT), the provider's issuer changes with it: move those users over so the
 * demo accounts (and accounts signed up on the provider) keep their profiles. A subject already present under
 * the new issuer is left alone.
 */
export async function alignEmbeddedIssuer(db: Db, issuer: string): Promise<void> {
  const other = alias(s.users, 'other')
  await db
    .update(s.users)
    .set({ issuer })
    .where(
      and(
        like(s.users.issuer, '%/idp'),
        ne(s.users.issuer, issuer),
        notExists(
          db
            .select({ id: other.id })
            .from(other)
            .where(and(eq(other.issuer, issuer), eq(other.sub, s.users.sub))),
        ),
      ),
    )
}

/** Demo review comments: what parents write after a first lesson. */
const reviewComments = [
  '子どもが「またやりたい！」と言っていました。先生の説明がとてもわかりやすかったです。',
  '画面越しでも一人ひとりに声をかけてくださり、緊張していた娘も最後は笑顔でした。',
  '準備物が少なく、家にあるもので参加できたのが助かりました。',
  '少人数なので質問しやすかったようです。次回も予約しました。',
  '時間どおりに始まって終わるので、習い事の合間でも安心して参加できました。',
  '内容は少し難しかったようですが、先生が丁寧にフォローしてくださいました。',
  '兄弟で参加しました。年齢の違う二人とも楽しめていてよかったです。',
  '終わったあとも自分で続きをやっていました。家での学びにつながっています。',
  'もう少し長い時間だとうれしいです。あっという間の45分でした。',
  '接続がうまくいかず最初の数分は見られませんでしたが、先生が待っていてくださいました。',
] as const

const reviewReplies = [
  'ご参加ありがとうございました！またお会いできるのを楽しみにしています。',
  'うれしいお言葉をありがとうございます。次回はもう一歩進んだ内容を用意しますね。',
  'ご感想ありがとうございます。いただいたご意見を次の授業に生かします。',
] as const
