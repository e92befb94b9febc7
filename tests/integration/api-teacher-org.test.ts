import { and, eq, gt, ne } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MyClassWorkList, StudentList } from '../../app/contract/v1/class-works'
import { InvitationCode, OrganizationDeepMe, OrgUserList } from '../../app/contract/v1/organizations'
import { classWorkSchedules, classWorks, users } from '../../app/db/schema'
import { setupApi, type TestApi } from './support/api'
import { SUBS } from './support/tokens'

let api: TestApi
beforeAll(async () => {
  api = await setupApi()
})
afterAll(async () => {
  await api?.close()
})

/** A schedule with reservations of a class taught by `teacherSub`. */
async function bookedScheduleOf(teacherSub: string) {
  const teacherId = await api.userId(teacherSub)
  const [row] = await api.db
    .select({ id: classWorkSchedules.id, count: classWorkSchedules.purchasedCount })
    .from(classWorkSchedules)
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .where(and(eq(classWorks.teacherId, teacherId), gt(classWorkSchedules.purchasedCount, 0)))
    .limit(1)
  return row!
}

describe('GET /v1/teachers/my_class_works', () => {
  it('lists the caller’s classes, published and unpublished, with figures', async () => {
    const all = MyClassWorkList.parse((await api.as(SUBS.teacher, 'GET', '/v1/teachers/my_class_works')).body)
    const published = MyClassWorkList.parse(
      (await api.as(SUBS.teacher, 'GET', '/v1/teachers/my_class_works?is_published=true')).body,
    )
    const drafts = MyClassWorkList.parse(
      (await api.as(SUBS.teacher, 'GET', '/v1/teachers/my_class_works?is_published=false')).body,
    )
    expect(drafts.length).toBe(2)
    expect(published.length + drafts.length).toBe(all.length)
    for (const c of published) expect(c.is_published).toBe(true)
    for (const c of drafts) expect(c.is_published).toBe(false)
    const me = await api.userId(SUBS.teacher)
    for (const c of all) expect(c.teacher.id).toBe(me)
    expect(all.some((c) => c.summary.times_held > 0)).toBe(true)
  })

  it('is empty for a member who teaches nothing', async () => {
    const res = await api.as(SUBS.parent, 'GET', '/v1/teachers/my_class_works')
    expect(res.status).toBe(200)
    expect(res.body).toEqual([])
  })

  it.each(['yes', '1', 'TRUE'])('rejects is_published=%s', async (v) => {
    expect((await api.as(SUBS.teacher, 'GET', `/v1/teachers/my_class_works?is_published=${v}`)).status).toBe(
      400,
    )
  })
})

describe('GET /v1/teachers/my_class_work_schedules/{id}/students', () => {
  it('lists who reserved one of the caller’s schedules', async () => {
    const schedule = await bookedScheduleOf(SUBS.teacher)
    const res = await api.as(
      SUBS.teacher,
      'GET',
      `/v1/teachers/my_class_work_schedules/${schedule.id}/students`,
    )
    expect(res.status).toBe(200)
    const students = StudentList.parse(res.body)
    expect(students.filter((s) => s.status === 'reserved')).toHaveLength(schedule.count)
    expect(JSON.stringify(res.body)).not.toContain('@manabi.example')
  })

  it('the organisation owner may see a member teacher’s students', async () => {
    const schedule = await bookedScheduleOf(SUBS.emily)
    const res = await api.as(
      SUBS.owner,
      'GET',
      `/v1/teachers/my_class_work_schedules/${schedule.id}/students`,
    )
    expect(res.status).toBe(200)
    expect(StudentList.parse(res.body).length).toBeGreaterThan(0)
  })

  it('another teacher’s schedule does not exist for the caller (404)', async () => {
    const mine = await api.userId(SUBS.teacher)
    const [other] = await api.db
      .select({ id: classWorkSchedules.id })
      .from(classWorkSchedules)
      .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
      .where(ne(classWorks.teacherId, mine))
      .limit(1)
    for (const sub of [SUBS.teacher, SUBS.parent]) {
      const res = await api.as(sub, 'GET', `/v1/teachers/my_class_work_schedules/${other!.id}/students`)
      expect(res.status).toBe(404)
      expect(res.body.code).toBe('not_found')
    }
    // An organisation member cannot see the owner's schedules.
    const owners = await bookedScheduleOf(SUBS.owner)
    expect(
      (await api.as(SUBS.emily, 'GET', `/v1/teachers/my_class_work_schedules/${owners.id}/students`)).status,
    ).toBe(404)
    expect(
      (await api.as(SUBS.teacher, 'GET', '/v1/teachers/my_class_work_schedules/999999/students')).status,
    ).toBe(404)
    expect(
      (await api.as(SUBS.teacher, 'GET', '/v1/teachers/my_class_work_schedules/abc/students')).status,
    ).toBe(400)
  })
})

describe('organisations', () => {
  it('GET /v1/organizations/deep_me for the owner includes the invitation code and members', async () => {
    const res = await api.as(SUBS.owner, 'GET', '/v1/organizations/deep_me')
    expect(res.status).toBe(200)
    const org = OrganizationDeepMe.parse(res.body)
    expect(org).toMatchObject({ my_role: 'owner', invitation_code: 'MIRAI-7K3Q', kind: 'corporation' })
    expect(org.members).toHaveLength(4)
    expect(org.members[0]!.role).toBe('owner')
    expect(org.class_work_count).toBeGreaterThan(0)
  })

  it('a member sees the organisation without the invitation code', async () => {
    const org = OrganizationDeepMe.parse((await api.as(SUBS.emily, 'GET', '/v1/organizations/deep_me')).body)
    expect(org).toMatchObject({ my_role: 'member', invitation_code: null })
  })

  it('someone outside any organisation gets 404', async () => {
    expect((await api.as(SUBS.parent, 'GET', '/v1/organizations/deep_me')).status).toBe(404)
  })

  it('GET /v1/org_users lists members of the caller’s organisation only', async () => {
    const owner = OrgUserList.parse((await api.as(SUBS.owner, 'GET', '/v1/org_users')).body)
    expect(owner.map((m) => m.nickname)).toEqual(['みさき先生', 'エミリー先生', 'たかはし博士', 'あやこ先生'])
    const member = OrgUserList.parse((await api.as(SUBS.emily, 'GET', '/v1/org_users')).body)
    expect(member).toEqual(owner) // all verified teachers: their checked names are on their public pages
    expect((await api.as(SUBS.parent, 'GET', '/v1/org_users')).body).toEqual([])
  })

  it('an unverified member’s real name is shown to the owner and to themself, not to the other members', async () => {
    const [ayako] = await api.db
      .select({ id: users.id, sub: users.sub, verifiedAt: users.teacherVerifiedAt })
      .from(users)
      .where(eq(users.nickname, 'あやこ先生'))
    await api.db.update(users).set({ teacherVerifiedAt: null }).where(eq(users.id, ayako!.id))
    try {
      const nameOf = async (sub: string) => {
        const list = OrgUserList.parse((await api.as(sub, 'GET', '/v1/org_users')).body)
        const deep = OrganizationDeepMe.parse((await api.as(sub, 'GET', '/v1/organizations/deep_me')).body)
        const fromDeep = deep.members.find((m) => m.user_id === ayako!.id)?.name
        expect(fromDeep).toBe(list.find((m) => m.user_id === ayako!.id)?.name)
        return fromDeep
      }
      expect(await nameOf(SUBS.owner)).toEqual(expect.any(String))
      expect(await nameOf(ayako!.sub)).toEqual(expect.any(String))
      expect(await nameOf(SUBS.emily)).toBeNull()
    } finally {
      await api.db.update(users).set({ teacherVerifiedAt: ayako!.verifiedAt }).where(eq(users.id, ayako!.id))
    }
  })

  it('GET /v1/org_users/invitation_code is the owner’s alone', async () => {
    const res = await api.as(SUBS.owner, 'GET', '/v1/org_users/invitation_code')
    expect(InvitationCode.parse(res.body)).toEqual({ invitation_code: 'MIRAI-7K3Q' })
    expect((await api.as(SUBS.emily, 'GET', '/v1/org_users/invitation_code')).status).toBe(404)
    expect((await api.as(SUBS.parent, 'GET', '/v1/org_users/invitation_code')).status).toBe(404)
  })
})

describe('an organisation whose owner is suspended', () => {
  it('its name leaves its members’ public pages (class, teacher, follow list) and comes back when lifted', async () => {
    const ownerId = await api.userId(SUBS.owner)
    const emilyId = await api.userId(SUBS.emily)
    const [cls] = await api.db
      .select({ id: classWorks.id })
      .from(classWorks)
      .where(
        and(
          eq(classWorks.teacherId, emilyId),
          eq(classWorks.isPublished, true),
          ne(classWorks.organizationId, 0),
        ),
      )
      .limit(1)
    const shown = async () => ({
      teacher: (await api.call('GET', `/v1/teachers/${emilyId}`)).body.organization?.name ?? null,
      cls: (await api.call('GET', `/v1/class_works/${cls!.id}`)).body.organization?.name ?? null,
      followed:
        (
          (await api.as(SUBS.parent, 'GET', '/v1/users/followings')).body as {
            id: number
            organization_name: string | null
          }[]
        ).find((f) => f.id === emilyId)?.organization_name ?? null,
    })
    const name = '株式会社みらいキッズアカデミー'
    expect(await shown()).toEqual({ teacher: name, cls: name, followed: name })
    await api.db.update(users).set({ suspendedAt: api.now }).where(eq(users.id, ownerId))
    try {
      expect(await shown()).toEqual({ teacher: null, cls: null, followed: null })
    } finally {
      await api.db.update(users).set({ suspendedAt: null }).where(eq(users.id, ownerId))
    }
    expect(await shown()).toEqual({ teacher: name, cls: name, followed: name })
  })
})
