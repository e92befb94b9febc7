import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Favorite, FavoriteState, FollowState } from '../../contract/v1/follows'
import type { Db, DbOrTx, Tx } from '../../db/client'
import { classWorks, favorites, follows, users } from '../../db/schema'
import { transaction } from '../../db/transaction'
import { MAX_FAVORITES, MAX_FOLLOWS } from '../../lib/page-sizes'
import { ApiError, notFound, sqlState } from '../errors'
import { iso, selectCardRows, toCards } from './class-cards'
import { publicTeacher } from './teachers'

/**
 * Follows (member → teacher) and favorites (member → published class). Every write is idempotent: following
 * twice or unfollowing someone not followed answers the same state. A target that does not exist publicly
 * (not a teacher, an unpublished class) is 404, as it is for the public pages.
 */

const selfFollow = () => new ApiError(422, 'cannot_follow_self', '自分自身をフォローすることはできません')

/**
 * A teacher the public may see (approved, not suspended): a suspended one's page is gone (410), and nobody starts
 * following them.
 */
async function isTeacher(db: Db, teacherId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, teacherId), publicTeacher, isNull(users.suspendedAt)))
    .limit(1)
  return Boolean(row)
}

export async function isPublishedClass(db: Db, classWorkId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(and(eq(classWorks.id, classWorkId), eq(classWorks.isPublished, true)))
    .limit(1)
  return Boolean(row)
}

/**
 * One member's favorites (or follows) are counted and added one at a time, on every instance: a transaction's
 * advisory lock on (list, member), so two adds at once cannot both see room for one more. Not the member's row:
 * a follow's trigger updates the teacher's row (0053), and two teachers following each other at once would each hold
 * their own row and wait for the other's. The lists' keys are negative; room pairs use the two-integer keys with
 * positive ids (rooms.ts).
 */
const FAVORITES_LOCK = -1
const FOLLOWS_LOCK = -2
const lockListOf = (tx: Tx, list: number, userId: number) =>
  tx.execute(sql`select pg_advisory_xact_lock(${list}::int, ${userId}::int)`)

const tooMany = (code: string, message: string) => new ApiError(409, code, message)

async function followState(db: DbOrTx, userId: number, teacherId: number): Promise<FollowState> {
  const [[mine], [total]] = await Promise.all([
    db
      .select({ n: count() })
      .from(follows)
      .where(and(eq(follows.followerId, userId), eq(follows.teacherId, teacherId))),
    db.select({ n: users.followerCount }).from(users).where(eq(users.id, teacherId)),
  ])
  return {
    teacher_id: teacherId,
    is_following: Number(mine?.n ?? 0) > 0,
    follower_count: total?.n ?? 0,
  }
}

async function favoriteState(db: DbOrTx, userId: number, classWorkId: number): Promise<FavoriteState> {
  const [[mine], [total]] = await Promise.all([
    db
      .select({ n: count() })
      .from(favorites)
      .where(and(eq(favorites.userId, userId), eq(favorites.classWorkId, classWorkId))),
    db.select({ n: classWorks.favoriteCount }).from(classWorks).where(eq(classWorks.id, classWorkId)),
  ])
  return {
    class_work_id: classWorkId,
    is_favorite: Number(mine?.n ?? 0) > 0,
    favorite_count: total?.n ?? 0,
  }
}

export async function getFollow(db: Db, userId: number, teacherId: number): Promise<FollowState> {
  if (!(await isTeacher(db, teacherId))) throw notFound('先生')
  return followState(db, userId, teacherId)
}

export async function follow(db: Db, userId: number, teacherId: number): Promise<FollowState> {
  if (userId === teacherId) throw selfFollow()
  if (!(await isTeacher(db, teacherId))) throw notFound('先生')
  await transaction(db, async (tx) => {
    await lockListOf(tx, FOLLOWS_LOCK, userId)
    // Counted as /follow lists them (public teachers who are not suspended), so the page shows every one.
    const [n] = await tx
      .select({ n: count(), mine: sql<number>`count(*) filter (where ${follows.teacherId} = ${teacherId})` })
      .from(follows)
      .innerJoin(users, eq(users.id, follows.teacherId))
      .where(and(eq(follows.followerId, userId), publicTeacher, isNull(users.suspendedAt)))
    if (Number(n?.mine ?? 0) > 0) return
    if (Number(n?.n ?? 0) >= MAX_FOLLOWS)
      throw tooMany(
        'too_many_follows',
        `フォローできる先生は${MAX_FOLLOWS}人までです。フォローを解除してから、もう一度お試しください`,
      )
    // ON CONFLICT DO NOTHING: two concurrent follows of the same teacher both succeed with one row.
    await tx.insert(follows).values({ followerId: userId, teacherId }).onConflictDoNothing()
  })
  return followState(db, userId, teacherId)
}

/**
 * Unfollowing is allowed while a follow exists even if the teacher stopped teaching (the caller already knows
 * of them); otherwise a target that is not a teacher is 404.
 */
export async function unfollow(db: Db, userId: number, teacherId: number): Promise<FollowState> {
  if (userId === teacherId) throw selfFollow()
  const removed = await db
    .delete(follows)
    .where(and(eq(follows.followerId, userId), eq(follows.teacherId, teacherId)))
    .returning({ teacherId: follows.teacherId })
  if (removed.length === 0 && !(await isTeacher(db, teacherId))) throw notFound('先生')
  return followState(db, userId, teacherId)
}

export async function getFavorite(db: Db, userId: number, classWorkId: number): Promise<FavoriteState> {
  if (!(await isPublishedClass(db, classWorkId))) throw notFound('クラス')
  return favoriteState(db, userId, classWorkId)
}

export async function addFavorite(db: Db, userId: number, classWorkId: number): Promise<FavoriteState> {
  if (!(await isPublishedClass(db, classWorkId))) throw notFound('クラス')
  try {
    await transaction(db, async (tx) => {
      await lockListOf(tx, FAVORITES_LOCK, userId)
      // Counted as /follow lists them (published classes), so the page shows every one.
      const [n] = await tx
        .select({
          n: count(),
          mine: sql<number>`count(*) filter (where ${favorites.classWorkId} = ${classWorkId})`,
        })
        .from(favorites)
        .innerJoin(classWorks, eq(classWorks.id, favorites.classWorkId))
        .where(and(eq(favorites.userId, userId), eq(classWorks.isPublished, true)))
      if (Number(n?.mine ?? 0) > 0) return
      if (Number(n?.n ?? 0) >= MAX_FAVORITES)
        throw tooMany(
          'too_many_favorites',
          `お気に入りに登録できるクラスは${MAX_FAVORITES}件までです。お気に入りから外してから、もう一度お試しください`,
        )
      await tx.insert(favorites).values({ userId, classWorkId }).onConflictDoNothing()
    })
  } catch (err) {
    // Deleted by its teacher between the check and the insert: gone, like one that never was.
    if (sqlState(err) === '23503') throw notFound('クラス')
    throw err
  }
  return favoriteState(db, userId, classWorkId)
}

/** Like unfollow: removing one's own favorite works even after the class was unpublished. */
export async function removeFavorite(db: Db, userId: number, classWorkId: number): Promise<FavoriteState> {
  const removed = await db
    .delete(favorites)
    .where(and(eq(favorites.userId, userId), eq(favorites.classWorkId, classWorkId)))
    .returning({ classWorkId: favorites.classWorkId })
  if (removed.length === 0 && !(await isPublishedClass(db, classWorkId))) throw notFound('クラス')
  return favoriteState(db, userId, classWorkId)
}

/** The caller's favorites among published classes, most recently added first. */
export async function listFavorites(db: Db, userId: number, now: Date): Promise<Favorite[]> {
  const mine = await db
    .select({ classWorkId: favorites.classWorkId, createdAt: favorites.createdAt })
    .from(favorites)
    .innerJoin(classWorks, eq(classWorks.id, favorites.classWorkId))
    .where(and(eq(favorites.userId, userId), eq(classWorks.isPublished, true)))
    .orderBy(desc(favorites.createdAt), desc(favorites.classWorkId))
    // Every one (addFavorite keeps them to MAX_FAVORITES); the bound only guards a class published again since.
    .limit(MAX_FAVORITES * 2)
  if (mine.length === 0) return []
  const rows = await selectCardRows(db).where(
    inArray(
      classWorks.id,
      mine.map((f) => f.classWorkId),
    ),
  )
  const cards = new Map((await toCards(db, rows, now)).map((c) => [c.id, c]))
  return mine.flatMap((f) => {
    const card = cards.get(f.classWorkId)
    return card ? [{ class_work: card, favorited_at: iso(f.createdAt) }] : []
  })
}
