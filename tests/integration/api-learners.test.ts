import { and, eq, gt, lt } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Purchase } from '../../app/contract/v1/purchases'
import { DeepMe, Learner, MAX_LEARNERS, User } from '../../app/contract/v1/users'
import { classWorkSchedules, learners, purchases } from '../../app/db/schema'
import { recordAvatarImage } from '../../app/server/avatar-images.server'
import { setupApi, type TestApi } from './support/api'
import { SUBS } from './support/tokens'

let api: TestApi
let parentId: number
let schoolTypeId: number
let gradeId: number

beforeAll(async () => {
  api = await setupApi()
  parentId = await api.userId(SUBS.parent)
  const [kid] = await api.db.select().from(learners).where(eq(learners.userId, parentId))
  schoolTypeId = kid!.schoolTypeId
  gradeId = kid!.targetGradeId
})
afterAll(async () => {
  await api?.close()
})

const deepMe = async (sub: string) => DeepMe.parse((await api.as(sub, 'GET', '/v1/users/deep_me')).body)

describe('learner profiles', () => {
  let created: Learner

  it('adds a learner (201) that shows in deep_me', async () => {
    const res = await api.as(SUBS.parent, 'POST', '/v1/users/me/learners', {
      nickname: 'はなこ',
      school_type_id: schoolTypeId,
      target_grade_id: gradeId,
    })
    expect(res.status).toBe(201)
    created = Learner.parse(res.body)
    expect((await deepMe(SUBS.parent)).learners.map((l) => l.id)).toContain(created.id)
  })

  it('edits it', async () => {
    const res = await api.as(SUBS.parent, 'PATCH', `/v1/users/me/learners/${created.id}`, {
      nickname: 'はな',
    })
    expect(res.status).toBe(200)
    expect(Learner.parse(res.body).nickname).toBe('はな')
  })

  it.each([
    [{ nickname: '', school_type_id: 1, target_grade_id: 1 }],
    [{ nickname: 'あ'.repeat(21), school_type_id: 1, target_grade_id: 1 }],
    [{ nickname: 'たろう' }],
    [{ nickname: 'たろう', school_type_id: 99_999, target_grade_id: 1 }],
    [{ nickname: 'たろう', school_type_id: 1, target_grade_id: 1, user_id: 5 }],
  ])('bad input %j is 400 and adds nothing', async (body) => {
    const before = await api.count('learners')
    const res = await api.as(SUBS.parent, 'POST', '/v1/users/me/learners', body)
    expect(res.status).toBe(400)
    expect(typeof res.body.message).toBe('string')
    expect(await api.count('learners')).toBe(before)
  })

  it('a nickname with contact details is 422 contact_info, adding or editing, and nothing changes', async () => {
    const before = await api.count('learners')
    const added = await api.as(SUBS.parent, 'POST', '/v1/users/me/learners', {
      nickname: 'LINE:hana_99',
      school_type_id: schoolTypeId,
      target_grade_id: gradeId,
    })
    expect(added.status).toBe(422)
    expect(added.body.code).toBe('contact_info')
    expect(await api.count('learners')).toBe(before)
    const edited = await api.as(SUBS.parent, 'PATCH', `/v1/users/me/learners/${created.id}`, {
      nickname: '090-1234-5678',
    })
    expect(edited.status).toBe(422)
    expect((await deepMe(SUBS.parent)).learners.find((l) => l.id === created.id)!.nickname).toBe('はな')
    // A nickname saved before the rule does not block a change of grade.
    await api.db.update(learners).set({ nickname: 'hana.me' }).where(eq(learners.id, created.id))
    const regraded = await api.as(SUBS.parent, 'PATCH', `/v1/users/me/learners/${created.id}`, {
      nickname: 'hana.me',
      target_grade_id: gradeId,
    })
    expect(regraded.status, JSON.stringify(regraded.body)).toBe(200)
    await api.db.update(learners).set({ nickname: 'はな' }).where(eq(learners.id, created.id))
  })

  it('someone else’s learner is 404 for edit and delete', async () => {
    const patch = await api.as(SUBS.owner, 'PATCH', `/v1/users/me/learners/${created.id}`, { nickname: 'x' })
    expect(patch.status).toBe(404)
    expect((await api.as(SUBS.owner, 'DELETE', `/v1/users/me/learners/${created.id}`)).status).toBe(404)
    const [row] = await api.db.select().from(learners).where(eq(learners.id, created.id))
    expect(row!.nickname).toBe('はな')
  })

  it('a teacher cannot add learners (422)', async () => {
    const res = await api.as(SUBS.teacher, 'POST', '/v1/users/me/learners', {
      nickname: 'こども',
      school_type_id: schoolTypeId,
      target_grade_id: gradeId,
    })
    expect(res.status).toBe(422)
  })

  it('a learner with a seat in a lesson not over yet cannot be removed (409); once cancelled it can (204)', async () => {
    const [s] = await api.db
      .select()
      .from(classWorkSchedules)
      .where(gt(classWorkSchedules.endedAt, api.now))
      .limit(1)
    const [p] = await api.db
      .insert(purchases)
      .values({ scheduleId: s!.id, userId: parentId, learnerId: created.id, price: 0, commission: 0 })
      .returning()
    const blocked = await api.as(SUBS.parent, 'DELETE', `/v1/users/me/learners/${created.id}`)
    expect(blocked.status).toBe(409)
    expect(blocked.body.code).toBe('has_reservations')
    await api.db
      .update(purchases)
      .set({ status: 'canceled_by_user' })
      .where(and(eq(purchases.id, p!.id)))
    const ok = await api.as(SUBS.parent, 'DELETE', `/v1/users/me/learners/${created.id}`)
    expect(ok.status).toBe(204)
    // The cancelled reservation names the child: the profile stays as its record, out of every list and form.
    const [kept] = await api.db.select().from(learners).where(eq(learners.id, created.id))
    expect(kept!.deletedAt).toEqual(api.now)
    expect((await deepMe(SUBS.parent)).learners.map((l) => l.id)).not.toContain(created.id)
    const listed = (await api.as(SUBS.parent, 'GET', '/v1/users/me/learners')).body as Learner[]
    expect(listed.map((l) => l.id)).not.toContain(created.id)
    expect((await api.as(SUBS.parent, 'DELETE', `/v1/users/me/learners/${created.id}`)).status).toBe(404)
    const edit = await api.as(SUBS.parent, 'PATCH', `/v1/users/me/learners/${created.id}`, {
      nickname: 'もどす',
      school_type_id: schoolTypeId,
      target_grade_id: gradeId,
    })
    expect(edit.status).toBe(404)
    const before = await api.count('purchases')
    const booked = await api.as(SUBS.parent, 'POST', '/v1/purchases', {
      schedule_id: s!.id,
      learner_id: created.id,
    })
    expect(booked.status).toBe(404)
    expect(await api.count('purchases')).toBe(before)
  })

  it('a child who only took past lessons can be removed, and those reservations still name the child', async () => {
    const child = Learner.parse(
      (
        await api.as(SUBS.parent, 'POST', '/v1/users/me/learners', {
          nickname: 'まえのこ',
          school_type_id: schoolTypeId,
          target_grade_id: gradeId,
        })
      ).body,
    )
    const [past] = await api.db
      .select()
      .from(classWorkSchedules)
      .where(lt(classWorkSchedules.endedAt, api.now))
      .limit(1)
    const [p] = await api.db
      .insert(purchases)
      .values({ scheduleId: past!.id, userId: parentId, learnerId: child.id, price: 0, commission: 0 })
      .returning()
    expect((await api.as(SUBS.parent, 'DELETE', `/v1/users/me/learners/${child.id}`)).status).toBe(204)
    const history = (await api.as(SUBS.parent, 'GET', '/v1/purchases?scope=past')).body as Purchase[]
    expect(history.find((h) => h.id === p!.id)?.attendee).toEqual({
      kind: 'learner',
      learner_id: child.id,
      nickname: 'まえのこ',
    })
    expect((await deepMe(SUBS.parent)).learners.map((l) => l.id)).not.toContain(child.id)
  })

  it('a child no reservation names is deleted outright, and removed children free their places under the limit', async () => {
    const add = (nickname: string) =>
      api.as(SUBS.parent, 'POST', '/v1/users/me/learners', {
        nickname,
        school_type_id: schoolTypeId,
        target_grade_id: gradeId,
      })
    const res = await add('すぐけす')
    const child = Learner.parse(res.body)
    expect((await api.as(SUBS.parent, 'DELETE', `/v1/users/me/learners/${child.id}`)).status).toBe(204)
    expect(await api.db.select().from(learners).where(eq(learners.id, child.id))).toHaveLength(0)
    // Removed ones kept as records (a past reservation names each) do not count under the limit.
    const [past] = await api.db
      .select()
      .from(classWorkSchedules)
      .where(lt(classWorkSchedules.endedAt, api.now))
      .limit(1)
    for (let i = 0; i < 3; i++) {
      const kept = Learner.parse((await add(`きろく${i}`)).body)
      await api.db
        .insert(purchases)
        .values({ scheduleId: past!.id, userId: parentId, learnerId: kept.id, price: 0, commission: 0 })
      expect((await api.as(SUBS.parent, 'DELETE', `/v1/users/me/learners/${kept.id}`)).status).toBe(204)
    }
    const shown = (await deepMe(SUBS.parent)).learners.length
    const statuses: number[] = []
    for (let i = shown; i <= MAX_LEARNERS; i++) statuses.push((await add(`こ${i}`)).status)
    expect(statuses).toEqual([...Array(MAX_LEARNERS - shown).fill(201), 409])
  })
})

describe('profile avatar path', () => {
  it('accepts an uploaded avatar path the member recorded and refuses anything else', async () => {
    const path = `avatars/${'a'.repeat(32)}.png`
    await recordAvatarImage(path, await api.userId(SUBS.parent), api.db)
    const good = `/uploads/${path}`
    const res = await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { avatar_url: good })
    expect(res.status).toBe(200)
    expect(User.parse(res.body).avatar_url).toBe(good)
    for (const bad of [
      '/uploads/avatars/../x.png',
      'https://evil.example/a.png',
      '/uploads/avatars/a.svg',
      '/images/../x',
    ]) {
      expect((await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { avatar_url: bad })).status, bad).toBe(400)
    }
    // Whose photo may be shown, and when it goes: avatar-images.test.ts.
  })
})
