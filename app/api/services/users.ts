import { and, asc, count, countDistinct, desc, eq, gt, inArray, isNull } from 'drizzle-orm'
import type {
  DeepMe,
  Following,
  FuriganaSetting,
  RegisterUserBody,
  UpdateUserBody,
  User,
} from '../../contract/v1/users'
import type { Db, DbOrTx, Tx } from '../../db/client'
import {
  categories,
  classWorkSchedules,
  classWorks,
  favorites,
  follows,
  learners,
  organizations,
  orgUsers,
  professions,
  purchases,
  schoolTypes,
  targetGrades,
  users,
} from '../../db/schema'
import { transaction } from '../../db/transaction'
import { MAX_FOLLOWS } from '../../lib/page-sizes'
import { classSearchText } from '../../lib/search-normalize'
import type { TokenClaims, UserRow } from '../auth'
import { ApiError, invalidRequest, refuseContactInfoIn, sqlState } from '../errors'
import { releaseAvatar, requireOwnAvatar } from './avatar-images'
import { iso, scheduleColumns, summaryJson } from './class-cards'
import { learnersOf } from './learners'
import { organizationShownPublicly } from './organizations'
import { publicTeacher } from './teachers'

export function toUserJson(u: UserRow): User {
  return {
    id: u.id,
    sub: u.sub,
    email: u.email,
    email_verified: u.emailVerified,
    nickname: u.nickname,
    name: u.name,
    name_kana: u.nameKana,
    avatar_url: u.avatarUrl,
    introduction: u.introduction,
    role: u.role as User['role'],
    profession_id: u.professionId,
    school_type_id: u.schoolTypeId,
    target_grade_id: u.targetGradeId,
    is_teacher: u.isTeacher,
    is_operator: u.isOperator,
    is_verified_teacher: u.teacherVerifiedAt !== null,
    furigana: u.furigana,
    created_at: iso(u.createdAt),
  }
}

const num = (rows: { n: number }[]) => Number(rows[0]?.n ?? 0)

export async function deepMe(db: Db, user: UserRow, now: Date): Promise<DeepMe> {
  const [learnerRows, membership, followingCount, favoriteCount, upcoming, teacher] = await Promise.all([
    db.select().from(learners).where(learnersOf(user.id)).orderBy(asc(learners.id)),
    db
      .select({
        id: organizations.id,
        name: organizations.name,
        kind: organizations.kind,
        role: orgUsers.role,
      })
      .from(orgUsers)
      .innerJoin(organizations, eq(organizations.id, orgUsers.organizationId))
      .where(eq(orgUsers.userId, user.id))
      .limit(1),
    // As the list counts them: a suspended teacher is not in it.
    db
      .select({ n: count() })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.teacherId))
      .where(and(eq(follows.followerId, user.id), publicTeacher, isNull(users.suspendedAt)))
      .then(num),
    // As the list counts them: a class taken down, unpublished or of a suspended teacher is not in it.
    db
      .select({ n: count() })
      .from(favorites)
      .innerJoin(classWorks, eq(classWorks.id, favorites.classWorkId))
      .where(and(eq(favorites.userId, user.id), eq(classWorks.isPublished, true)))
      .then(num),
    db
      .select({ n: count() })
      .from(purchases)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
      .where(
        and(
          eq(purchases.userId, user.id),
          eq(purchases.status, 'reserved'),
          // As the 次の授業 list (listPurchases 'upcoming'): a lesson under way, a course part-way through.
          gt(classWorkSchedules.endedAt, now),
        ),
      )
      .then(num),
    user.isTeacher ? teacherFigures(db, user.id, now) : Promise.resolve(null),
  ])
  const org = membership[0]
  return {
    ...toUserJson(user),
    learners: learnerRows.map((l) => ({
      id: l.id,
      nickname: l.nickname,
      school_type_id: l.schoolTypeId,
      target_grade_id: l.targetGradeId,
    })),
    organization: org
      ? {
          id: org.id,
          name: org.name,
          kind: org.kind as 'corporation' | 'group',
          role: org.role as 'owner' | 'member',
        }
      : null,
    teacher,
    following_count: followingCount,
    favorite_count: favoriteCount,
    upcoming_reservation_count: upcoming,
  }
}

async function teacherFigures(db: Db, teacherId: number, now: Date) {
  const [classes, followers, students, schedules] = await Promise.all([
    db
      .select({ isPublished: classWorks.isPublished, n: count() })
      .from(classWorks)
      .where(eq(classWorks.teacherId, teacherId))
      .groupBy(classWorks.isPublished),
    db.select({ n: users.followerCount }).from(users).where(eq(users.id, teacherId)).then(num),
    db
      .select({ n: countDistinct(purchases.userId) })
      .from(purchases)
      .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
      .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
      .where(and(eq(classWorks.teacherId, teacherId), eq(purchases.status, 'reserved')))
      .then(num),
    db
      .select(scheduleColumns)
      .from(classWorkSchedules)
      .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
      .where(eq(classWorks.teacherId, teacherId)),
  ])
  const published = Number(classes.find((c) => c.isPublished)?.n ?? 0)
  const unpublished = Number(classes.find((c) => !c.isPublished)?.n ?? 0)
  return {
    class_work_count: published + unpublished,
    published_class_work_count: published,
    follower_count: followers,
    student_count: students,
    upcoming_schedule_count: schedules.filter((s) => !s.isCanceled && s.startedAt.getTime() >= now.getTime())
      .length,
    summary: summaryJson(schedules, now),
  }
}

export async function followings(db: Db, userId: number): Promise<Following[]> {
  const rows = await db
    .select({
      id: users.id,
      nickname: users.nickname,
      avatarUrl: users.avatarUrl,
      introduction: users.introduction,
      organizationName: organizations.name,
      followedAt: follows.createdAt,
    })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.teacherId))
    .leftJoin(orgUsers, eq(orgUsers.userId, users.id))
    .leftJoin(organizations, and(eq(organizations.id, orgUsers.organizationId), organizationShownPublicly))
    // A suspended teacher leaves the list (their page is gone, 410), as does one without a public page (a follow
    // made before pages waited for the 本人確認); the follow row itself stays.
    .where(and(eq(follows.followerId, userId), publicTeacher, isNull(users.suspendedAt)))
    .orderBy(desc(follows.createdAt), desc(users.id))
    // Every one (follow keeps them to MAX_FOLLOWS); the bound only guards a teacher shown again since.
    .limit(MAX_FOLLOWS * 2)
  return rows.map((r) => ({
    id: r.id,
    nickname: r.nickname,
    avatar_url: r.avatarUrl,
    introduction: r.introduction,
    organization_name: r.organizationName,
    followed_at: iso(r.followedAt),
  }))
}

/** Every referenced master id must exist; a wrong one is bad input (400), never a 500 from a foreign key. */
async function checkMasters(
  tx: DbOrTx,
  refs: {
    professions?: (number | null | undefined)[]
    schoolTypes?: (number | null | undefined)[]
    grades?: (number | null | undefined)[]
  },
) {
  const check = async (
    table: typeof professions,
    ids: (number | null | undefined)[] | undefined,
    field: string,
  ) => {
    const wanted = [...new Set((ids ?? []).filter((v): v is number => typeof v === 'number'))]
    if (wanted.length === 0) return
    const found = await tx.select({ id: table.id }).from(table).where(inArray(table.id, wanted))
    if (found.length !== wanted.length) {
      throw invalidRequest('入力内容に誤りがあります', [{ path: [field], message: '選択肢にない値です' }])
    }
  }
  await check(professions, refs.professions, 'profession_id')
  await check(schoolTypes, refs.schoolTypes, 'school_type_id')
  await check(targetGrades, refs.grades, 'target_grade_id')
}

const isLineSub = (sub: string) => sub.includes('line')

/**
 * Words that would make a member's nickname pass for the site's own staff in rooms, mails and on class cards
 * (運営スタッフ is the operators' own nickname). Checked without spaces, invisible characters and width.
 */
const RESERVED_IN_NICKNAMES = ['運営', '事務局', '公式', 'まなびのたね']

function refuseReservedNickname(nickname: string) {
  const plain = nickname.normalize('NFKC').replace(/[\s\p{Cf}]/gu, '')
  if (!RESERVED_IN_NICKNAMES.some((w) => plain.includes(w))) return
  const message = 'ニックネームに「運営」「公式」など、運営からの連絡と紛らわしい言葉は使えません'
  throw new ApiError(422, 'reserved_nickname', message, { issues: [{ path: ['nickname'], message }] })
}

export async function registerUser(db: Db, claims: TokenClaims, body: RegisterUserBody): Promise<User> {
  if (!isLineSub(claims.sub) && claims.email_verified !== true) {
    throw new ApiError(403, 'email_unverified', 'メールアドレスの確認が完了していません')
  }
  const email = typeof claims.email === 'string' && claims.email.length <= 254 ? claims.email : null
  const alreadyRegistered = () =>
    new ApiError(409, 'already_registered', 'プロフィールはすでに登録されています')
  return db
    .transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.issuer, claims.iss), eq(users.sub, claims.sub)))
        .limit(1)
      if (existing) throw alreadyRegistered()
      const kids = body.learners ?? []
      refuseReservedNickname(body.nickname)
      refuseContactInfoIn({
        nickname: { label: 'ニックネーム', text: body.nickname },
        name: { label: 'お名前', text: body.name },
        introduction: { label: '自己紹介', text: body.introduction },
        ...Object.fromEntries(
          kids.map((l, i) => [`learners.${i}.nickname`, { label: 'ニックネーム', text: l.nickname }]),
        ),
      })
      await checkMasters(tx, {
        professions: [body.profession_id],
        schoolTypes: [body.school_type_id, ...kids.map((l) => l.school_type_id)],
        grades: [body.target_grade_id, ...kids.map((l) => l.target_grade_id)],
      })
      const isLearner = body.role === 'learner'
      const [user] = await tx
        .insert(users)
        .values({
          issuer: claims.iss,
          sub: claims.sub,
          email,
          emailVerified: claims.email_verified === true,
          nickname: body.nickname,
          name: body.name,
          nameKana: body.name_kana,
          introduction: body.introduction ?? '',
          role: body.role,
          professionId: body.profession_id ?? null,
          schoolTypeId: isLearner ? (body.school_type_id ?? null) : null,
          targetGradeId: isLearner ? (body.target_grade_id ?? null) : null,
          isTeacher: body.role === 'teacher',
          agreedToTermsAt: new Date(),
        })
        .returning()
      if (kids.length > 0) {
        await tx.insert(learners).values(
          kids.map((l) => ({
            userId: user!.id,
            nickname: l.nickname,
            schoolTypeId: l.school_type_id,
            targetGradeId: l.target_grade_id,
          })),
        )
      }
      return toUserJson(user!)
    })
    .catch((err: unknown) => {
      // Two registrations racing past the check above: the unique (issuer, sub) key decides.
      throw sqlState(err) === '23505' ? alreadyRegistered() : err
    })
}

/**
 * The member's furigana mode: a setting of theirs alone, shown on no public page, so it leaves `updated_at` (a
 * teacher page's lastmod in the sitemap) and every instance's public caches as they are.
 */
export async function setFurigana(db: Db, userId: number, on: boolean): Promise<FuriganaSetting> {
  await db.update(users).set({ furigana: on }).where(eq(users.id, userId))
  return { furigana: on }
}

export async function updateMe(db: Db, user: UserRow, body: UpdateUserBody): Promise<User> {
  if (Object.values(body).every((v) => v === undefined)) {
    throw invalidRequest('入力内容に誤りがあります', [
      { path: [], message: '変更する項目を指定してください' },
    ])
  }
  // Retried on a deadlock: a nickname change rewrites the search text of the teacher's classes.
  return transaction(db, async (tx) => {
    // The avatar shown now, read under the member's row lock (the one the UPDATE below takes anyway, which rows
    // referencing the member do not wait for): of two changes at once, the second replaces (and releases) what the
    // first put, not what both saw before (docs/decisions/0038).
    // The verified name is read under the same lock: an approval committed since the sign-in check is seen.
    const [row] = await tx
      .select({
        avatarUrl: users.avatarUrl,
        teacherVerifiedAt: users.teacherVerifiedAt,
        name: users.name,
        nameKana: users.nameKana,
      })
      .from(users)
      .where(eq(users.id, user.id))
      .for('no key update')
    let shownAvatar = user.avatarUrl
    if (body.avatar_url !== undefined) {
      shownAvatar = row?.avatarUrl ?? null
      // Only one's own upload: another member's photo would show their face under this name.
      if (body.avatar_url !== shownAvatar) await requireOwnAvatar(tx, user.id, body.avatar_url)
    }
    await checkMasters(tx, {
      professions: [body.profession_id],
      schoolTypes: [body.school_type_id],
      grades: [body.target_grade_id],
    })
    // Only what changes: the form sends every field, and text saved before this rule must not block an edit of
    // another one.
    if (body.nickname !== undefined && body.nickname !== user.nickname && !user.isOperator)
      refuseReservedNickname(body.nickname)
    refuseContactInfoIn({
      nickname: { label: 'ニックネーム', text: body.nickname !== user.nickname ? body.nickname : undefined },
      // A teacher's name heads their public page (and its title and structured data).
      name: { label: 'お名前', text: body.name !== user.name ? body.name : undefined },
      introduction: {
        label: '自己紹介',
        text: body.introduction !== user.introduction ? body.introduction : undefined,
      },
    })
    // A verified teacher's name is the one an operator checked against their document: it heads their public page
    // under 本人確認済み (0046). The form sends it unchanged with every save.
    if (
      row?.teacherVerifiedAt &&
      ((body.name !== undefined && body.name !== row.name) ||
        (body.name_kana !== undefined && body.name_kana !== row.nameKana))
    )
      throw new ApiError(
        409,
        'verified_name_locked',
        '本人確認済みのお名前は変更できません。変更が必要な場合はお問い合わせください',
      )
    const [updated] = await tx
      .update(users)
      .set({
        nickname: body.nickname,
        name: body.name,
        nameKana: body.name_kana,
        introduction: body.introduction,
        avatarUrl: body.avatar_url,
        professionId: body.profession_id,
        schoolTypeId: body.school_type_id,
        targetGradeId: body.target_grade_id,
        furigana: body.furigana,
        updatedAt: new Date(),
      })
      .where(eq(users.id, user.id))
      .returning()
    if (body.nickname !== undefined && body.nickname !== user.nickname) {
      await refreshSearchTextOfTeacher(tx, user.id, body.nickname)
    }
    if (body.avatar_url !== undefined && body.avatar_url !== shownAvatar) await releaseAvatar(tx, shownAvatar)
    return toUserJson(updated!)
  })
}

/**
 * The teacher's nickname is part of every class's search text. The classes are locked at once in id order
 * (docs/decisions/0015), so this cannot deadlock with another writer of several classes.
 */
async function refreshSearchTextOfTeacher(tx: Tx, teacherId: number, nickname: string) {
  const rows = await tx
    .select({
      id: classWorks.id,
      title: classWorks.title,
      description: classWorks.description,
      category: categories.name,
    })
    .from(classWorks)
    .innerJoin(categories, eq(categories.id, classWorks.categoryId))
    .where(eq(classWorks.teacherId, teacherId))
    .orderBy(asc(classWorks.id))
    .for('no key update', { of: classWorks })
  for (const r of rows) {
    await tx
      .update(classWorks)
      .set({
        searchText: classSearchText({
          title: r.title,
          description: r.description,
          teacherNickname: nickname,
          categoryName: r.category,
        }),
      })
      .where(eq(classWorks.id, r.id))
  }
}
