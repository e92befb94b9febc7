import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { joinOrganization, leaveOrganization, removeMember } from '../../app/api/services/org-management'
import { InvitationCode, OrganizationDeepMe, OrgUserList } from '../../app/contract/v1/organizations'
import type { Db } from '../../app/db/client'
import { classWorks, jobs, mails, organizations, orgUsers, users } from '../../app/db/schema'
import { setupApi, type TestApi } from './support/api'
import { loadMasters, postClass } from './support/classes'
import { drainAppJobs } from './support/jobs'
import { whileHeld, whileSuspending } from './support/locks'
import { emailOf, insertMembers } from './support/people'
import { SUBS } from './support/tokens'

let api: TestApi
beforeAll(async () => {
  api = await setupApi()
})
afterAll(async () => {
  await api?.close()
})

const orgBody = {
  kind: 'group',
  name: 'テスト学習グループ',
  representative: '山田 花子',
  url: 'https://group.example.com',
  description: '地域の学習グループです。',
}

describe('invitation codes and joining', () => {
  it('regenerating the code stops the old one; a teacher joins with the new one', async () => {
    const old = InvitationCode.parse((await api.as(SUBS.owner, 'GET', '/v1/org_users/invitation_code')).body)
    const regen = await api.as(SUBS.owner, 'POST', '/v1/org_users/invitation_code/regenerate')
    expect(regen.status).toBe(200)
    const fresh = InvitationCode.parse(regen.body)
    expect(fresh.invitation_code).not.toBe(old.invitation_code)
    expect(fresh.invitation_code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/)

    const rejected = await api.as(SUBS.teacher, 'POST', '/v1/org_users/join', {
      invitation_code: old.invitation_code,
    })
    expect([rejected.status, rejected.body.code]).toEqual([404, 'invalid_invitation_code'])
    const teacherId = await api.userId(SUBS.teacher)
    expect(await api.db.select().from(orgUsers).where(eq(orgUsers.userId, teacherId))).toHaveLength(0)

    // Typed with a Japanese input method in full-width mode, without its hyphens: the same code.
    const fullWidth = fresh.invitation_code
      .replace(/-/g, '')
      .replace(/[A-Z0-9]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))
    const joined = await api.as(SUBS.teacher, 'POST', '/v1/org_users/join', { invitation_code: fullWidth })
    expect(joined.status).toBe(200)
    const org = OrganizationDeepMe.parse(joined.body)
    expect(org.my_role).toBe('member')
    expect(org.invitation_code).toBeNull()
    // The teacher's classes now belong to the organisation; the public class page names it.
    const own = await api.db.select().from(classWorks).where(eq(classWorks.teacherId, teacherId))
    for (const c of own) expect(c.organizationId).toBe(org.id)
    const published = own.find((c) => c.isPublished)!
    expect((await api.call('GET', `/v1/class_works/${published.id}`)).body.organization.name).toBe(org.name)

    // Joining twice is a conflict.
    const again = await api.as(SUBS.teacher, 'POST', '/v1/org_users/join', {
      invitation_code: fresh.invitation_code,
    })
    expect([again.status, again.body.code]).toEqual([409, 'already_in_organization'])
  })

  it('the owner removes a member (classes leave too), never themself; others get 404', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    const ownerId = await api.userId(SUBS.owner)
    const code = async () =>
      InvitationCode.parse((await api.as(SUBS.owner, 'GET', '/v1/org_users/invitation_code')).body)
        .invitation_code
    const before = await code()
    // Not the owner: 404, nothing changes.
    expect((await api.as(SUBS.emily, 'DELETE', `/v1/org_users/${teacherId}`)).status).toBe(404)
    const self = await api.as(SUBS.owner, 'DELETE', `/v1/org_users/${ownerId}`)
    expect([self.status, self.body.code]).toEqual([422, 'cannot_remove_owner'])
    // Refused removals leave the code as it was.
    expect(await code()).toBe(before)
    const res = await api.as(SUBS.owner, 'DELETE', `/v1/org_users/${teacherId}`)
    expect(res.status).toBe(200)
    const members = OrgUserList.parse(res.body)
    expect(members.some((m) => m.user_id === teacherId)).toBe(false)
    const own = await api.db.select().from(classWorks).where(eq(classWorks.teacherId, teacherId))
    for (const c of own) expect(c.organizationId).toBeNull()
    // The removed teacher knew the code: it is a new one now, and the old one lets nobody in.
    const after = await code()
    expect(after).not.toBe(before)
    const rejoin = await api.as(SUBS.teacher, 'POST', '/v1/org_users/join', { invitation_code: before })
    expect([rejoin.status, rejoin.body.code]).toEqual([404, 'invalid_invitation_code'])
    expect(await code()).toBe(after)
    // A user outside the organisation: 404.
    expect((await api.as(SUBS.owner, 'DELETE', `/v1/org_users/${teacherId}`)).status).toBe(404)
  })

  it('a class created while its teacher leaves (removed or of their own accord) or joins takes the membership that holds after both', async () => {
    const teacherId = await api.userId(SUBS.teacher)
    const [category, style, grade] = await Promise.all(
      ['categories', 'class_styles', 'target_grades'].map(
        async (k) => (await api.call('GET', `/v1/master/${k}`)).body[0].id as number,
      ),
    )
    const createClass = () =>
      api.as(SUBS.teacher, 'POST', '/v1/teachers/class_works', {
        title: '団体の出入りと同時に作る教室',
        description: '説明です。',
        category_id: category,
        class_style_id: style,
        target_grade_ids: [grade],
        price: 0,
        capacity: 5,
        duration_minutes: 60,
      })
    const join = async () => {
      const { invitation_code } = InvitationCode.parse(
        (await api.as(SUBS.owner, 'GET', '/v1/org_users/invitation_code')).body,
      )
      return api.as(SUBS.teacher, 'POST', '/v1/org_users/join', { invitation_code })
    }
    const remove = () => api.as(SUBS.owner, 'DELETE', `/v1/org_users/${teacherId}`)
    const leave = () => api.as(SUBS.teacher, 'POST', '/v1/org_users/leave')
    const orgsOfClasses = async () =>
      new Set(
        (await api.db.select().from(classWorks).where(eq(classWorks.teacherId, teacherId))).map(
          (c) => c.organizationId,
        ),
      )
    for (let round = 0; round < 8; round++) {
      expect((await join()).status).toBe(200)
      const [made, removed] = await Promise.all([createClass(), remove()])
      expect([made.status, removed.status]).toEqual([201, 200])
      expect(await orgsOfClasses()).toEqual(new Set([null]))
      const [made2, joined] = await Promise.all([createClass(), join()])
      expect([made2.status, joined.status]).toEqual([201, 200])
      expect([...(await orgsOfClasses())].every((o) => o !== null)).toBe(true)
      // The teacher leaving of their own accord, while creating a class in another tab.
      const [made3, left] = await Promise.all([createClass(), leave()])
      expect([made3.status, left.status]).toEqual([201, 204])
      expect(await orgsOfClasses()).toEqual(new Set([null]))
    }
  })

  it('only teachers may join (403 not_teacher); a bad body is 400', async () => {
    const code = InvitationCode.parse((await api.as(SUBS.owner, 'GET', '/v1/org_users/invitation_code')).body)
    const res = await api.as(SUBS.parent, 'POST', '/v1/org_users/join', code)
    expect([res.status, res.body.code]).toEqual([403, 'not_teacher'])
    expect((await api.as(SUBS.teacher, 'POST', '/v1/org_users/join', { invitation_code: '' })).status).toBe(
      400,
    )
  })

  it('a member cannot regenerate the code (404)', async () => {
    const before = await api.db.select().from(organizations)
    expect((await api.as(SUBS.emily, 'POST', '/v1/org_users/invitation_code/regenerate')).status).toBe(404)
    expect(await api.db.select().from(organizations)).toEqual(before)
  })
})

describe('at the same moment, and suspended accounts', () => {
  /** Fresh verified teachers outside any organisation. */
  async function freshTeachers(prefix: string, n: number) {
    const subs = await insertMembers(api.db, prefix, n)
    await api.db
      .update(users)
      .set({ isTeacher: true, teacherVerifiedAt: api.now })
      .where(inArray(users.sub, subs))
    return subs
  }
  const codeOf = async (owner: string) =>
    InvitationCode.parse((await api.as(owner, 'GET', '/v1/org_users/invitation_code')).body).invitation_code

  it('a form sent twice founds one organisation; the second is 409 already_in_organization', async () => {
    const [sub] = await freshTeachers('org-twice', 1)
    const answers = await Promise.all([
      api.as(sub!, 'POST', '/v1/organizations', orgBody),
      api.as(sub!, 'POST', '/v1/organizations', orgBody),
    ])
    expect(answers.map((a) => [a.status, a.body.code ?? null]).sort()).toEqual([
      [201, null],
      [409, 'already_in_organization'],
    ])
    const owned = await api.db
      .select()
      .from(organizations)
      .where(eq(organizations.ownerId, await api.userId(sub!)))
    expect(owned).toHaveLength(1)
  })

  it('an organisation whose owner was suspended takes nobody in with its code (404)', async () => {
    const [owner, joiner] = await freshTeachers('org-suspended-owner', 2)
    expect((await api.as(owner!, 'POST', '/v1/organizations', orgBody)).status).toBe(201)
    const code = await codeOf(owner!)
    await api.db.update(users).set({ suspendedAt: api.now }).where(eq(users.sub, owner!))
    const join = await api.as(joiner!, 'POST', '/v1/org_users/join', { invitation_code: code })
    expect([join.status, join.body.code]).toEqual([404, 'invalid_invitation_code'])
    expect(
      await api.db
        .select()
        .from(orgUsers)
        .where(eq(orgUsers.userId, await api.userId(joiner!))),
    ).toEqual([])
  })

  it('a member leaves and their classes leave too; the owner cannot (422); someone outside gets 404', async () => {
    const [owner, leaver, outsider] = await freshTeachers('org-leave', 3)
    expect((await api.as(owner!, 'POST', '/v1/organizations', orgBody)).status).toBe(201)
    const code = await codeOf(owner!)
    expect((await api.as(leaver!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    const made = await postClass(api, await loadMasters(api), leaver!, { is_published: true })
    expect(made.status).toBe(201)
    const classId = made.body.id as number
    const orgName = async () => (await api.call('GET', `/v1/class_works/${classId}`)).body.organization
    expect((await orgName())?.name).toBe(orgBody.name)
    const leaverId = await api.userId(leaver!)
    const ownerId = await api.userId(owner!)

    const ownerLeaves = await api.as(owner!, 'POST', '/v1/org_users/leave')
    expect([ownerLeaves.status, ownerLeaves.body.code]).toEqual([422, 'owner_cannot_leave'])
    expect(ownerLeaves.body.message).toBe(
      '団体のオーナーは団体を抜けられません。先にほかのメンバーにオーナーを譲ってください',
    )
    expect(await api.db.select().from(orgUsers).where(eq(orgUsers.userId, ownerId))).toHaveLength(1)
    const outside = await api.as(outsider!, 'POST', '/v1/org_users/leave')
    expect([outside.status, outside.body.code]).toEqual([404, 'not_found'])

    const left = await api.as(leaver!, 'POST', '/v1/org_users/leave')
    expect(left.status).toBe(204)
    expect(await api.db.select().from(orgUsers).where(eq(orgUsers.userId, leaverId))).toEqual([])
    const own = await api.db.select().from(classWorks).where(eq(classWorks.teacherId, leaverId))
    expect(own.map((c) => c.organizationId)).toEqual([null])
    expect(await orgName()).toBeNull()
    const members = OrgUserList.parse((await api.as(owner!, 'GET', '/v1/org_users')).body)
    expect(members.map((m) => m.user_id)).toEqual([ownerId])
    expect((await api.as(leaver!, 'GET', '/v1/organizations/deep_me')).status).toBe(404)
    // Sent again (a second tab): nothing left to leave.
    expect((await api.as(leaver!, 'POST', '/v1/org_users/leave')).status).toBe(404)
    // The code stays as it was: leaving was the member's own choice, and they may be invited back with it.
    expect(await codeOf(owner!)).toBe(code)
    expect((await api.as(leaver!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
  })

  it('a member leaving while the owner removes them: one of the two does it, the other finds nothing (404)', async () => {
    const [owner, leaver] = await freshTeachers('org-leave-race', 2)
    expect((await api.as(owner!, 'POST', '/v1/organizations', orgBody)).status).toBe(201)
    const code = await codeOf(owner!)
    expect((await api.as(leaver!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    expect((await postClass(api, await loadMasters(api), leaver!)).status).toBe(201)
    const leaverId = await api.userId(leaver!)
    const [ownerRow] = await api.db.select().from(users).where(eq(users.sub, owner!))
    // The owner's removal is committing (another instance) when the member's leave arrives.
    const left = await whileHeld(
      api,
      async (tx) => {
        await removeMember(tx as unknown as Db, ownerRow!, leaverId)
      },
      () => api.as(leaver!, 'POST', '/v1/org_users/leave'),
    )
    expect([left.status, left.body.code]).toEqual([404, 'not_found'])
    expect(await api.db.select().from(orgUsers).where(eq(orgUsers.userId, leaverId))).toEqual([])
    const own = await api.db.select().from(classWorks).where(eq(classWorks.teacherId, leaverId))
    expect(own.map((c) => c.organizationId)).toEqual([null])
  })

  it('a removal that the member’s own leave beats finds nothing (404) and leaves the invitation code as it was', async () => {
    const [owner, leaver] = await freshTeachers('org-remove-late', 2)
    expect((await api.as(owner!, 'POST', '/v1/organizations', orgBody)).status).toBe(201)
    const code = await codeOf(owner!)
    expect((await api.as(leaver!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    const leaverId = await api.userId(leaver!)
    const [leaverRow] = await api.db.select().from(users).where(eq(users.sub, leaver!))
    // The member's leave is committing (another instance) when the owner's removal arrives.
    const removed = await whileHeld(
      api,
      async (tx) => {
        await leaveOrganization(tx as unknown as Db, leaverRow!)
      },
      () => api.as(owner!, 'DELETE', `/v1/org_users/${leaverId}`),
    )
    expect([removed.status, removed.body.code]).toEqual([404, 'not_found'])
    // Refused, it changed nothing: the member who left of their own accord may come back with the same code.
    expect(await codeOf(owner!)).toBe(code)
    expect((await api.as(leaver!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
  })

  /** An organisation founded by a fresh owner, filled with `n` more members straight in the table; its code. */
  async function organizationWith(prefix: string, n: number) {
    const [owner] = await freshTeachers(`${prefix}-owner`, 1)
    const created = OrganizationDeepMe.parse(
      (await api.as(owner!, 'POST', '/v1/organizations', orgBody)).body,
    )
    const fillers = n > 0 ? await freshTeachers(`${prefix}-member`, n) : []
    const ids = await Promise.all(fillers.map((f) => api.userId(f)))
    const rows = ids.map((userId) => ({
      organizationId: created.id,
      userId,
      role: 'member',
      joinedAt: api.now,
    }))
    if (rows.length > 0) await api.db.insert(orgUsers).values(rows)
    return { owner: owner!, orgId: created.id, code: await codeOf(owner!), fillers }
  }
  const memberCount = async (orgId: number) =>
    (await api.db.select().from(orgUsers).where(eq(orgUsers.organizationId, orgId))).length

  it('an organisation holds at most 100 teachers: the next join is refused (409 organization_full) and changes nothing', async () => {
    const { orgId, code, fillers } = await organizationWith('org-full', 98)
    const [last, late] = await freshTeachers('org-full-joiner', 2)
    expect((await api.as(last!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    expect(await memberCount(orgId)).toBe(100)
    expect((await postClass(api, await loadMasters(api), late!)).status).toBe(201)
    const refused = await api.as(late!, 'POST', '/v1/org_users/join', { invitation_code: code })
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      409,
      'organization_full',
      'この団体のメンバーは100人に達しているため、参加できません。団体のオーナーにお問い合わせください',
    ])
    expect(await memberCount(orgId)).toBe(100)
    const lateId = await api.userId(late!)
    const own = await api.db.select().from(classWorks).where(eq(classWorks.teacherId, lateId))
    expect(own.map((c) => c.organizationId)).toEqual([null])
    // A member leaving frees a place.
    expect((await api.as(fillers[0]!, 'POST', '/v1/org_users/leave')).status).toBe(204)
    expect((await api.as(late!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    expect(await memberCount(orgId)).toBe(100)
  })

  it('a join while another join takes the last place is refused; the organisation stays at 100 (PostgreSQL)', async () => {
    const { orgId, code } = await organizationWith('org-full-race', 98)
    const [first, second] = await freshTeachers('org-full-race-joiner', 2)
    const [firstRow] = await api.db.select().from(users).where(eq(users.sub, first!))
    const res = await whileHeld(
      api,
      async (tx) => {
        await joinOrganization(tx as unknown as Db, firstRow!, { invitation_code: code }, api.now)
      },
      () => api.as(second!, 'POST', '/v1/org_users/join', { invitation_code: code }),
    )
    expect([res.status, res.body.code]).toEqual([409, 'organization_full'])
    expect(await memberCount(orgId)).toBe(100)
  })

  it('the owner is mailed when a teacher joins or leaves; a removal mails the removed teacher; a setting switches the owner’s off', async () => {
    const { owner, code } = await organizationWith('org-mail', 0)
    const [teacher] = await freshTeachers('org-mail-joiner', 1)
    const teacherId = await api.userId(teacher!)
    const box = async () => {
      await drainAppJobs(api)
      const failed = await api.db.select().from(jobs).where(eq(jobs.failed, true))
      expect(failed.map((j) => [j.kind, j.lastError])).toEqual([])
      return api.db
        .select({ subject: mails.subject, text: mails.text, kind: mails.kind })
        .from(mails)
        .where(eq(mails.toAddress, emailOf(owner)))
        .orderBy(mails.id)
    }
    const join = () => api.as(teacher!, 'POST', '/v1/org_users/join', { invitation_code: code })
    // Read after each change: the runner may send two queued mails in either order.
    expect((await join()).status).toBe(200)
    const [joined, ...none] = await box()
    expect(none).toEqual([])
    expect((await api.as(teacher!, 'POST', '/v1/org_users/leave')).status).toBe(204)
    const [, left, ...more] = await box()
    expect(more).toEqual([])
    expect([joined!.subject, joined!.kind]).toEqual([
      `団体に先生が参加しました：${orgBody.name}`,
      'organization_members',
    ])
    expect(joined!.text).toContain(`受講者0 先生が招待コードで「${orgBody.name}」に参加しました。`)
    expect(joined!.text).toContain('メンバー：2人（オーナーを含む）')
    expect(joined!.text).toContain('/organization_management')
    expect([left!.subject, left!.kind]).toEqual([
      `団体から先生が抜けました：${orgBody.name}`,
      'organization_members',
    ])
    expect(left!.text).toContain('メンバー：1人（オーナーを含む）')

    // The owner's own removal tells the owner nothing; the removed teacher is told, whatever their settings (their
    // classes' cards change).
    const teacherBox = () =>
      api.db
        .select({ subject: mails.subject, text: mails.text, kind: mails.kind })
        .from(mails)
        .where(eq(mails.toAddress, emailOf(teacher!)))
    expect(await teacherBox()).toEqual([])
    const quiet = await api.as(teacher!, 'PUT', '/v1/users/notification_settings', {
      kind: 'organization_members',
      enabled: false,
    })
    expect(quiet.status).toBe(200)
    expect((await join()).status).toBe(200)
    expect((await api.as(owner, 'DELETE', `/v1/org_users/${teacherId}`)).status).toBe(200)
    expect((await box()).map((m) => m.subject)).toEqual([joined!.subject, left!.subject, joined!.subject])
    const [removed, ...others] = await teacherBox()
    expect(others).toEqual([])
    expect([removed!.subject, removed!.kind]).toEqual([
      `団体のメンバーから外れました：${orgBody.name}`,
      'verification',
    ])
    expect(removed!.text).toContain(
      `受講者0さん、「${orgBody.name}」のオーナーが、あなたを団体のメンバーから外しました。`,
    )
    expect(removed!.text).toContain('/class_management')

    // Switched off in the owner's notification settings: nothing more.
    const off = await api.as(owner, 'PUT', '/v1/users/notification_settings', {
      kind: 'organization_members',
      enabled: false,
    })
    expect(off.status).toBe(200)
    const fresh = await codeOf(owner)
    expect((await api.as(teacher!, 'POST', '/v1/org_users/join', { invitation_code: fresh })).status).toBe(
      200,
    )
    expect((await api.as(teacher!, 'POST', '/v1/org_users/leave')).status).toBe(204)
    expect(await box()).toHaveLength(3)
  })

  it('the owner hands the organisation to a verified member: roles swap, classes and code stay, the new owner is mailed', async () => {
    const { owner, orgId, code } = await organizationWith('org-hand', 0)
    const [heir] = await freshTeachers('org-hand-heir', 1)
    expect((await api.as(heir!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    const made = await postClass(api, await loadMasters(api), heir!, { is_published: true })
    expect(made.status).toBe(201)
    const [ownerId, heirId] = [await api.userId(owner), await api.userId(heir!)]

    const handed = await api.as(owner, 'POST', `/v1/org_users/${heirId}/transfer_ownership`)
    expect(handed.status).toBe(200)
    expect(OrganizationDeepMe.parse(handed.body).my_role).toBe('member')
    const [org] = await api.db.select().from(organizations).where(eq(organizations.id, orgId))
    expect(org!.ownerId).toBe(heirId)
    const roles = await api.db
      .select({ userId: orgUsers.userId, role: orgUsers.role })
      .from(orgUsers)
      .where(eq(orgUsers.organizationId, orgId))
      .orderBy(orgUsers.userId)
    expect(roles).toEqual(
      [
        { userId: ownerId, role: 'member' },
        { userId: heirId, role: 'owner' },
      ].sort((a, b) => a.userId - b.userId),
    )
    // The new owner manages it, with the same code; the class stays the organisation's.
    expect(
      OrganizationDeepMe.parse((await api.as(heir!, 'GET', '/v1/organizations/deep_me')).body).my_role,
    ).toBe('owner')
    expect(await codeOf(heir!)).toBe(code)
    const [cls] = await api.db
      .select()
      .from(classWorks)
      .where(eq(classWorks.id, made.body.id as number))
    expect(cls!.organizationId).toBe(orgId)
    // The former owner is a member now: no owner's calls, and they may leave.
    expect((await api.as(owner, 'GET', '/v1/org_users/invitation_code')).status).toBe(404)
    expect((await api.as(owner, 'POST', `/v1/org_users/${heirId}/transfer_ownership`)).status).toBe(404)
    expect((await api.as(owner, 'PATCH', '/v1/organizations/me', { name: '乗っ取り' })).status).toBe(404)
    expect((await api.as(owner, 'POST', '/v1/org_users/leave')).status).toBe(204)

    await drainAppJobs(api)
    expect(await api.db.select().from(jobs).where(eq(jobs.failed, true))).toEqual([])
    const got = await api.db
      .select({ subject: mails.subject, text: mails.text, kind: mails.kind })
      .from(mails)
      .where(eq(mails.toAddress, emailOf(heir!)))
    const assigned = got.filter((m) => m.subject.startsWith('団体のオーナー'))
    expect(assigned.map((m) => [m.subject, m.kind])).toEqual([
      [`団体のオーナーになりました：${orgBody.name}`, 'verification'],
    ])
    expect(assigned[0]!.text).toContain('メンバー：2人（オーナーを含む）')
    expect(assigned[0]!.text).toContain('/organization_management')
  })

  it('a hand-over is refused to the owner themself, an unverified or suspended member, anyone outside; nothing changes', async () => {
    const { owner, orgId, code } = await organizationWith('org-hand-refused', 0)
    const [unverified, suspended, outsider] = await freshTeachers('org-hand-refused-m', 3)
    for (const m of [unverified!, suspended!])
      expect((await api.as(m, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    await api.db.update(users).set({ teacherVerifiedAt: null }).where(eq(users.sub, unverified!))
    await api.db.update(users).set({ suspendedAt: api.now }).where(eq(users.sub, suspended!))
    const ownerId = await api.userId(owner)
    const unverifiedId = await api.userId(unverified!)
    const suspendedId = await api.userId(suspended!)
    const outsiderId = await api.userId(outsider!)
    const hand = (by: string, id: number | string) =>
      api.as(by, 'POST', `/v1/org_users/${id}/transfer_ownership`)
    const answers = [
      await hand(owner, ownerId),
      await hand(owner, unverifiedId),
      await hand(owner, suspendedId),
      await hand(owner, outsiderId),
      await hand(owner, 999_999_999),
      await hand(unverified!, ownerId),
      await hand(owner, 'abc'),
    ]
    expect(answers.map((a) => [a.status, a.body.code])).toEqual([
      [422, 'already_owner'],
      [422, 'member_not_verified'],
      [422, 'member_suspended'],
      [404, 'not_found'],
      [404, 'not_found'],
      [404, 'not_found'],
      [400, 'invalid_request'],
    ])
    expect(answers[1]!.body.message).toBe(
      '本人確認が済んでいない先生にはオーナーを譲れません。先に本人確認を申請してもらってください',
    )
    const [org] = await api.db.select().from(organizations).where(eq(organizations.id, orgId))
    expect(org!.ownerId).toBe(ownerId)
    const owners = await api.db
      .select({ userId: orgUsers.userId })
      .from(orgUsers)
      .where(eq(orgUsers.role, 'owner'))
    expect(owners.filter((o) => [ownerId, unverifiedId, suspendedId].includes(o.userId))).toEqual([
      { userId: ownerId },
    ])
  })

  it('a hand-over to a member who is leaving at that moment finds nothing (404) and changes nothing', async () => {
    const { owner, orgId, code } = await organizationWith('org-hand-race', 0)
    const [heir] = await freshTeachers('org-hand-race-heir', 1)
    expect((await api.as(heir!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    const [heirRow] = await api.db.select().from(users).where(eq(users.sub, heir!))
    const handed = await whileHeld(
      api,
      async (tx) => {
        await leaveOrganization(tx as unknown as Db, heirRow!)
      },
      () => api.as(owner, 'POST', `/v1/org_users/${heirRow!.id}/transfer_ownership`),
    )
    expect([handed.status, handed.body.code]).toEqual([404, 'not_found'])
    const [org] = await api.db.select().from(organizations).where(eq(organizations.id, orgId))
    expect(org!.ownerId).toBe(await api.userId(owner))
    expect(await api.db.select().from(orgUsers).where(eq(orgUsers.userId, heirRow!.id))).toEqual([])
  })

  it('two hand-overs sent at once from two tabs: one organisation, one owner (the second finds nothing to hand)', async () => {
    const { owner, orgId, code } = await organizationWith('org-hand-twice', 0)
    const heirs = await freshTeachers('org-hand-twice-heir', 2)
    for (const h of heirs)
      expect((await api.as(h, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    const ids = await Promise.all(heirs.map((h) => api.userId(h)))
    const answers = await Promise.all(
      ids.map((id) => api.as(owner, 'POST', `/v1/org_users/${id}/transfer_ownership`)),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 404])
    const [org] = await api.db.select().from(organizations).where(eq(organizations.id, orgId))
    const winner = ids[answers.findIndex((a) => a.status === 200)]
    expect(org!.ownerId).toBe(winner)
    const roles = await api.db
      .select({ role: orgUsers.role })
      .from(orgUsers)
      .where(eq(orgUsers.organizationId, orgId))
    expect(roles.map((r) => r.role).sort()).toEqual(['member', 'member', 'owner'])
  })

  it('a hand-over racing the heir’s or the owner’s suspension waits for it and is refused; the owner keeps it (PostgreSQL)', async () => {
    const { owner, orgId, code } = await organizationWith('org-hand-suspended', 0)
    const [heir] = await freshTeachers('org-hand-suspended-heir', 1)
    expect((await api.as(heir!, 'POST', '/v1/org_users/join', { invitation_code: code })).status).toBe(200)
    const [ownerId, heirId] = [await api.userId(owner), await api.userId(heir!)]
    const hand = () => api.as(owner, 'POST', `/v1/org_users/${heirId}/transfer_ownership`)
    const toSuspended = await whileSuspending(api, heirId, hand)
    expect([toSuspended.status, toSuspended.body.code]).toEqual([422, 'member_suspended'])
    await api.db.update(users).set({ suspendedAt: null }).where(eq(users.id, heirId))
    const bySuspended = await whileSuspending(api, ownerId, hand)
    expect([bySuspended.status, bySuspended.body.code]).toEqual([403, 'account_suspended'])
    const [org] = await api.db.select().from(organizations).where(eq(organizations.id, orgId))
    expect(org!.ownerId).toBe(ownerId)
  })

  it('a join racing the joiner’s suspension waits for it and is refused (403); nothing joins (PostgreSQL)', async () => {
    const [owner, joiner] = await freshTeachers('org-suspended-joiner', 2)
    expect((await api.as(owner!, 'POST', '/v1/organizations', orgBody)).status).toBe(201)
    const code = await codeOf(owner!)
    const joinerId = await api.userId(joiner!)
    const join = await whileSuspending(api, joinerId, () =>
      api.as(joiner!, 'POST', '/v1/org_users/join', { invitation_code: code }),
    )
    expect([join.status, join.body.code]).toEqual([403, 'account_suspended'])
    expect(await api.db.select().from(orgUsers).where(eq(orgUsers.userId, joinerId))).toEqual([])
  })
})

describe('creating and editing an organisation', () => {
  it('validates (400, Japanese, nothing created)', async () => {
    const before = await api.count('organizations')
    const res = await api.as(SUBS.teacher, 'POST', '/v1/organizations', {
      ...orgBody,
      url: 'http://insecure.example.com',
    })
    expect(res.status).toBe(400)
    expect(res.body.issues[0].message).toBe('https:// で始まるURLを入力してください')
    const noName = await api.as(SUBS.teacher, 'POST', '/v1/organizations', { ...orgBody, name: '' })
    expect(noName.status).toBe(400)
    expect(await api.count('organizations')).toBe(before)
  })

  it('refuses contact details in the name, which public class pages show (422 contact_info, nothing created)', async () => {
    const before = await api.count('organizations')
    const res = await api.as(SUBS.teacher, 'POST', '/v1/organizations', {
      ...orgBody,
      name: 'まなび教室 TEL 03-1234-5678',
    })
    expect([res.status, res.body.code]).toEqual([422, 'contact_info'])
    expect(res.body.issues).toEqual([
      { path: ['name'], message: '団体名に連絡先やSNSのIDは書けません（電話番号）' },
    ])
    expect(await api.count('organizations')).toBe(before)
  })

  it('creates one (the caller becomes owner), edits it, and refuses a second', async () => {
    const res = await api.as(SUBS.teacher, 'POST', '/v1/organizations', orgBody)
    expect(res.status).toBe(201)
    const org = OrganizationDeepMe.parse(res.body)
    expect(org).toMatchObject({ name: orgBody.name, kind: 'group', my_role: 'owner' })
    expect(org.invitation_code).toBeTruthy()
    const patch = await api.as(SUBS.teacher, 'PATCH', '/v1/organizations/me', {
      name: '新しい名前',
      url: null,
    })
    expect(patch.status).toBe(200)
    expect(OrganizationDeepMe.parse(patch.body)).toMatchObject({ name: '新しい名前', url: null })
    const again = await api.as(SUBS.teacher, 'POST', '/v1/organizations', orgBody)
    expect([again.status, again.body.code]).toEqual([409, 'already_in_organization'])
  })

  it('a save from a form opened before another save is refused (409 organization_changed) and changes nothing', async () => {
    const [owner] = await insertMembers(api.db, 'org-stale-form', 1)
    await api.db
      .update(users)
      .set({ isTeacher: true, teacherVerifiedAt: api.now })
      .where(eq(users.sub, owner!))
    expect((await api.as(owner!, 'POST', '/v1/organizations', orgBody)).status).toBe(201)
    // Two tabs open the edit form: both read the same updated_at.
    const opened = OrganizationDeepMe.parse((await api.as(owner!, 'GET', '/v1/organizations/deep_me')).body)
    expect(opened.updated_at).toBe(opened.created_at)
    const first = await api.as(owner!, 'PATCH', '/v1/organizations/me', {
      ...orgBody,
      representative: '佐藤 一郎',
      expected_updated_at: opened.updated_at,
    })
    expect(first.status).toBe(200)
    const saved = OrganizationDeepMe.parse(first.body)
    expect(saved.updated_at).not.toBe(opened.updated_at)
    // The second tab still shows the old representative and sends it back with a new description.
    const stale = await api.as(owner!, 'PATCH', '/v1/organizations/me', {
      ...orgBody,
      description: '古い画面からの説明',
      expected_updated_at: opened.updated_at,
    })
    expect([stale.status, stale.body.code, stale.body.message]).toEqual([
      409,
      'organization_changed',
      'この団体の情報は、この画面を開いたあとにほかの画面で変更されました。ページを読み込み直してから保存してください',
    ])
    const now = OrganizationDeepMe.parse((await api.as(owner!, 'GET', '/v1/organizations/deep_me')).body)
    expect(now).toMatchObject({ representative: '佐藤 一郎', description: orgBody.description })
    expect(now.updated_at).toBe(saved.updated_at)
    // Read again, the form saves; an API caller that sends no expected_updated_at keeps last-write-wins.
    const fresh = await api.as(owner!, 'PATCH', '/v1/organizations/me', {
      description: '読み込み直した画面からの説明',
      expected_updated_at: now.updated_at,
    })
    expect(fresh.status).toBe(200)
    expect((await api.as(owner!, 'PATCH', '/v1/organizations/me', { name: '名前だけ' })).status).toBe(200)
    // Not a date: 400, as any bad field.
    const bad = await api.as(owner!, 'PATCH', '/v1/organizations/me', { expected_updated_at: 'きのう' })
    expect(bad.status).toBe(400)
    // Regenerating the code is not an edit of the form's fields: an open form still saves after it.
    const before = OrganizationDeepMe.parse((await api.as(owner!, 'GET', '/v1/organizations/deep_me')).body)
    expect((await api.as(owner!, 'POST', '/v1/org_users/invitation_code/regenerate')).status).toBe(200)
    const afterCode = await api.as(owner!, 'PATCH', '/v1/organizations/me', {
      name: '作り直しのあと',
      expected_updated_at: before.updated_at,
    })
    expect(afterCode.status).toBe(200)
  })

  it('a class created while its teacher founds an organisation belongs to that organisation', async () => {
    // Fresh verified teachers outside any organisation, one per round: an organisation cannot be left by its owner.
    const subs = await insertMembers(api.db, 'org-found-race', 10)
    await api.db
      .update(users)
      .set({ isTeacher: true, teacherVerifiedAt: api.now })
      .where(inArray(users.sub, subs))
    const [category, style, grade] = await Promise.all(
      ['categories', 'class_styles', 'target_grades'].map(
        async (k) => (await api.call('GET', `/v1/master/${k}`)).body[0].id as number,
      ),
    )
    for (const [round, sub] of subs.entries()) {
      const [made, founded] = await Promise.all([
        api.as(sub, 'POST', '/v1/teachers/class_works', {
          title: `団体を作るのと同時に作る教室 ${round}`,
          description: '説明です。',
          category_id: category,
          class_style_id: style,
          target_grade_ids: [grade],
          price: 0,
          capacity: 5,
          duration_minutes: 60,
        }),
        api.as(sub, 'POST', '/v1/organizations', { ...orgBody, name: `同時に作る団体 ${round}` }),
      ])
      expect([made.status, founded.status], JSON.stringify([made.body, founded.body])).toEqual([201, 201])
      const orgId = OrganizationDeepMe.parse(founded.body).id
      const own = await api.db
        .select({ organizationId: classWorks.organizationId })
        .from(classWorks)
        .where(eq(classWorks.teacherId, await api.userId(sub)))
      expect(own, `round ${round}`).toEqual([{ organizationId: orgId }])
    }
  })

  it('an edit that puts contact details in the name is refused; a name saved before the rule blocks no other edit', async () => {
    const [org] = await api.db.select().from(organizations).where(eq(organizations.name, '新しい名前'))
    const refused = await api.as(SUBS.teacher, 'PATCH', '/v1/organizations/me', { name: 'LINE ID: juku_abc' })
    expect([refused.status, refused.body.code]).toEqual([422, 'contact_info'])
    expect(refused.body.issues[0].path).toEqual(['name'])
    expect((await api.db.select().from(organizations).where(eq(organizations.id, org!.id)))[0]).toEqual(org)
    // Saved before the rule existed: the form sends the name back unchanged with the other fields.
    await api.db
      .update(organizations)
      .set({ name: '旧名 090-1234-5678' })
      .where(eq(organizations.id, org!.id))
    const other = await api.as(SUBS.teacher, 'PATCH', '/v1/organizations/me', {
      name: '旧名 090-1234-5678',
      description: '紹介文を変えました',
    })
    expect(other.status).toBe(200)
    await api.db.update(organizations).set({ name: org!.name }).where(eq(organizations.id, org!.id))
  })

  it('a member (not the owner) cannot edit the organisation (404, unchanged)', async () => {
    const before = await api.db.select().from(organizations)
    expect((await api.as(SUBS.emily, 'PATCH', '/v1/organizations/me', { name: '乗っ取り' })).status).toBe(404)
    expect((await api.as(SUBS.parent, 'PATCH', '/v1/organizations/me', { name: '乗っ取り' })).status).toBe(
      404,
    )
    expect(await api.db.select().from(organizations)).toEqual(before)
  })
})
