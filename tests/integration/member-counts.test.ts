/**
 * Favorite and follower counts (migration 0040, docs/decisions/0053): kept on the class and teacher rows by
 * triggers, counting members who are not suspended. Checked against a recount after favorites, follows,
 * suspensions, lifts and deletions, one at a time and all at once (the crowd test is meaningful on PostgreSQL;
 * PGlite runs the same writes one after another).
 */
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClassWorkDetail } from '../../app/contract/v1/class-works'
import { FavoriteState, FollowState } from '../../app/contract/v1/follows'
import { TeacherProfile } from '../../app/contract/v1/teachers'
import { rowsOf } from '../../app/db/rows'
import { classWorks, favorites, follows, users } from '../../app/db/schema'
import { retriedConflicts } from '../../app/db/transaction'
import { setupApi, type TestApi } from './support/api'
import { loadMasters, postClass } from './support/classes'
import { whileSuspending } from './support/locks'
import { migrationStatement } from './support/migrations'
import { insertMembers } from './support/people'
import { SUBS } from './support/tokens'

let api: TestApi
let teacher: number
let classId: number

beforeAll(async () => {
  api = await setupApi()
  teacher = await api.userId('seed|teacher-ito')
  const [c] = await api.db
    .select({ id: classWorks.id })
    .from(classWorks)
    .where(and(eq(classWorks.teacherId, teacher), eq(classWorks.isPublished, true)))
    .limit(1)
  classId = c!.id
})
afterAll(async () => {
  await api?.close()
})

/** Rows whose kept count differs from a recount of favorites / follows by members who are not suspended. */
async function countsOffFromRecount() {
  const classes = rowsOf<{ id: number; favorite_count: number; recount: number }>(
    await api.db.execute(sql`select cw.id, cw.favorite_count, (select count(*)::int from favorites f
      join users u on u.id = f.user_id where f.class_work_id = cw.id and u.suspended_at is null) as recount
      from class_works cw`),
  )
  const teachers = rowsOf<{ id: number; follower_count: number; recount: number }>(
    await api.db.execute(sql`select t.id, t.follower_count, (select count(*)::int from follows f
      join users u on u.id = f.follower_id where f.teacher_id = t.id and u.suspended_at is null) as recount
      from users t`),
  )
  return [
    ...classes.filter((c) => c.favorite_count !== c.recount),
    ...teachers.filter((t) => t.follower_count !== t.recount),
  ]
}

async function shown() {
  const detail = ClassWorkDetail.parse((await api.call('GET', `/v1/class_works/${classId}`)).body)
  const profile = TeacherProfile.parse((await api.call('GET', `/v1/teachers/${teacher}`)).body)
  return { favorites: detail.favorite_count, followers: profile.follower_count }
}

const suspend = (ids: number[]) =>
  api.db.update(users).set({ suspendedAt: api.now }).where(inArray(users.id, ids))
const lift = (ids: number[]) => api.db.update(users).set({ suspendedAt: null }).where(inArray(users.id, ids))

/** The member favorites the class and follows the teacher (both 200). */
async function favoriteAndFollow(sub: string) {
  expect((await api.as(sub, 'POST', `/v1/users/favorites/${classId}`)).status).toBe(200)
  expect((await api.as(sub, 'POST', `/v1/users/followings/${teacher}`)).status).toBe(200)
}

async function newMembers(prefix: string, n: number) {
  const subs = await insertMembers(api.db, prefix, n)
  return Promise.all(subs.map(async (sub) => ({ sub, id: await api.userId(sub) })))
}

describe('favorite and follower counts', () => {
  it('match a recount on the seeded data', async () => {
    expect(await countsOffFromRecount()).toEqual([])
    const [seeded] = await api.db
      .select({ n: sql<number>`count(*)::int` })
      .from(classWorks)
      .where(sql`${classWorks.favoriteCount} > 0`)
    expect(seeded!.n).toBeGreaterThan(0)
  })

  it('the migration’s backfill counts the rows already there, without suspended members', async () => {
    const [m] = await newMembers('counts-backfill', 1)
    await favoriteAndFollow(m!.sub)
    await suspend([m!.id])
    const kept = await shown()
    // Rows written before the columns existed: every count 0, as the columns' default leaves them.
    await api.db.update(classWorks).set({ favoriteCount: 0 })
    await api.db.update(users).set({ followerCount: 0 })
    expect((await shown()).favorites).toBe(0)
    for (const comment of [
      '-- Favorite counts of the rows already there',
      '-- Follower counts of the rows already there',
    ])
      await api.db.execute(sql.raw(migrationStatement('0040_member_counts.sql', comment)))
    expect(await shown()).toEqual(kept)
    expect(await countsOffFromRecount()).toEqual([])
    await lift([m!.id])
  })

  it('leave out a suspended member’s favorites and follows, and count them again when it is lifted', async () => {
    const members = await newMembers('counts-suspend', 3)
    const before = await shown()
    for (const m of members) {
      await favoriteAndFollow(m.sub)
    }
    expect(await shown()).toEqual({ favorites: before.favorites + 3, followers: before.followers + 3 })

    await suspend([members[0]!.id])
    expect(await shown()).toEqual({ favorites: before.favorites + 2, followers: before.followers + 2 })
    // The state another member reads says the same.
    const state = FavoriteState.parse(
      (await api.as(members[1]!.sub, 'GET', `/v1/users/favorites/${classId}`)).body,
    )
    expect(state.favorite_count).toBe(before.favorites + 2)
    const follow = FollowState.parse(
      (await api.as(members[1]!.sub, 'GET', `/v1/users/followings/${teacher}`)).body,
    )
    expect(follow.follower_count).toBe(before.followers + 2)
    // Touching the suspended account again without lifting it changes nothing.
    await suspend([members[0]!.id])
    expect(await shown()).toEqual({ favorites: before.favorites + 2, followers: before.followers + 2 })

    await lift([members[0]!.id])
    expect(await shown()).toEqual({ favorites: before.favorites + 3, followers: before.followers + 3 })
    expect(await countsOffFromRecount()).toEqual([])
  })

  it('a favorite removed while its member is suspended is not counted back on the lift', async () => {
    const [m] = await newMembers('counts-removed', 1)
    const before = await shown()
    await favoriteAndFollow(m!.sub)
    await suspend([m!.id])
    await api.db.delete(favorites).where(eq(favorites.userId, m!.id))
    await api.db.delete(follows).where(eq(follows.followerId, m!.id))
    expect(await shown()).toEqual(before)
    await lift([m!.id])
    expect(await shown()).toEqual(before)
    expect(await countsOffFromRecount()).toEqual([])
  })

  it('a deleted member’s favorites and follows leave the counts, suspended or not', async () => {
    const [active, suspended] = await newMembers('counts-deleted', 2)
    const before = await shown()
    for (const m of [active!, suspended!]) {
      await favoriteAndFollow(m.sub)
    }
    await suspend([suspended!.id])
    await api.db.delete(users).where(inArray(users.id, [active!.id, suspended!.id]))
    expect(await shown()).toEqual(before)
    expect(await countsOffFromRecount()).toEqual([])
  })

  it('a favorite or follow sent while the member is being suspended is not counted', async () => {
    const [m] = await newMembers('counts-racing', 1)
    const before = await shown()
    // On PostgreSQL the writes wait for the suspension's lock on the member; whatever they answer, the counts agree.
    await whileSuspending(api, m!.id, () =>
      Promise.all([
        api.as(m!.sub, 'POST', `/v1/users/favorites/${classId}`),
        api.as(m!.sub, 'POST', `/v1/users/followings/${teacher}`),
      ]),
    )
    expect(await shown()).toEqual(before)
    await lift([m!.id])
    expect(await countsOffFromRecount()).toEqual([])
  })

  it('a favorite or follow removed while the member is being suspended is taken out once', async () => {
    const [m] = await newMembers('counts-racing-removal', 1)
    const before = await shown()
    await favoriteAndFollow(m!.sub)
    // The suspension's trigger takes both out of the counts before it commits; the removals, arriving meanwhile,
    // must wait for it and then not take them out a second time.
    await whileSuspending(api, m!.id, () =>
      Promise.all([
        api.as(m!.sub, 'DELETE', `/v1/users/favorites/${classId}`),
        api.as(m!.sub, 'DELETE', `/v1/users/followings/${teacher}`),
      ]),
    )
    expect(await shown()).toEqual(before)
    // On PGlite (one connection) the removals run after the suspension and are refused: the rows stay, and the
    // lift counts them again.
    const [fav] = await api.db.select().from(favorites).where(eq(favorites.userId, m!.id))
    const [fol] = await api.db.select().from(follows).where(eq(follows.followerId, m!.id))
    await lift([m!.id])
    expect(await shown()).toEqual({
      favorites: before.favorites + (fav ? 1 : 0),
      followers: before.followers + (fol ? 1 : 0),
    })
    expect(await countsOffFromRecount()).toEqual([])
  })

  it('a class deleted while a member who favorited it is being suspended: both go through, no deadlock', async () => {
    const [m] = await newMembers('counts-class-deleted', 1)
    const cls = (await postClass(api, await loadMasters(api), SUBS.teacher, { is_published: true })).body as {
      id: number
    }
    expect((await api.as(m!.sub, 'POST', `/v1/users/favorites/${cls.id}`)).status).toBe(200)
    let deleted: Promise<{ status: number }> | undefined
    const deadlocks = retriedConflicts['40P01']
    // The suspension locks the member first, as suspendAccount does; the deletion, meanwhile, locks the class and
    // cascades to its favorites; then the suspension's trigger reaches for the class. Had the cascade reached back
    // for the member, each would wait for the other: PostgreSQL would abort one as a deadlock after a second (and
    // the deletion's transaction would be run again).
    await api.db.transaction(async (tx) => {
      await tx.select({ id: users.id }).from(users).where(eq(users.id, m!.id)).for('update')
      deleted = api.as(SUBS.teacher, 'DELETE', `/v1/teachers/class_works/${cls.id}`)
      await new Promise((r) => setTimeout(r, 300))
      await tx.update(users).set({ suspendedAt: api.now }).where(eq(users.id, m!.id))
    })
    expect((await deleted!).status).toBe(200)
    // The deletion's transaction was not aborted and run again.
    expect(retriedConflicts['40P01']).toBe(deadlocks)
    expect(await api.db.select().from(classWorks).where(eq(classWorks.id, cls.id))).toEqual([])
    await lift([m!.id])
    expect(await countsOffFromRecount()).toEqual([])
  })

  it('a crowd favoriting, following, unfavoriting while operators suspend and lift keeps them exact', async () => {
    const members = await newMembers('counts-crowd', 16)
    // Half start with a favorite and a follow, so that removals race too.
    for (const m of members.slice(0, 8)) {
      await favoriteAndFollow(m.sub)
    }
    const suspendOne = (id: number) =>
      api.db.transaction(async (tx) => {
        await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update')
        await tx.update(users).set({ suspendedAt: api.now }).where(eq(users.id, id))
      })
    const deadlocks = retriedConflicts['40P01']
    for (let round = 0; round < 3; round++) {
      const writes = members.flatMap((m, i) => {
        const removing = i < 8 && (i + round) % 2 === 0
        const method = removing ? 'DELETE' : 'POST'
        // Each sent twice at once, as a retried request arrives: one row, counted once.
        return [1, 2].flatMap(() => [
          api.as(m.sub, method, `/v1/users/favorites/${classId}`),
          api.as(m.sub, method, `/v1/users/followings/${teacher}`),
        ])
      })
      const suspensions = members.filter((_, i) => i % 5 === round).map((m) => suspendOne(m.id))
      const results = await Promise.all([...writes, ...suspensions])
      // A member suspended mid-way may be refused (403); nothing else fails.
      for (const r of results.slice(0, writes.length) as { status: number }[])
        expect([200, 403]).toContain(r.status)
      expect(await countsOffFromRecount()).toEqual([])
      await lift(members.map((m) => m.id))
      expect(await countsOffFromRecount()).toEqual([])
    }
    expect(retriedConflicts['40P01']).toBe(deadlocks)
  })
})
