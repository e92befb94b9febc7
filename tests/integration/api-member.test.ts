import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClassAnnouncementList } from '../../app/contract/v1/announcements'
import { DestinationList, MessageList, RoomList } from '../../app/contract/v1/rooms'
import { SitemapEntries } from '../../app/contract/v1/sitemap'
import { DeepMe, FollowingList, User } from '../../app/contract/v1/users'
import { classWorkSchedules, follows, rooms, users } from '../../app/db/schema'
import { setupApi, type TestApi } from './support/api'
import { insertMembers } from './support/people'
import { accessToken, SUBS } from './support/tokens'

let api: TestApi
beforeAll(async () => {
  api = await setupApi()
})
afterAll(async () => {
  await api?.close()
})

describe('the caller’s profile', () => {
  it('GET /v1/users/me returns the demo parent', async () => {
    const res = await api.as(SUBS.parent, 'GET', '/v1/users/me')
    expect(res.status).toBe(200)
    expect(User.parse(res.body)).toMatchObject({
      sub: SUBS.parent,
      email: 'parent@manabi.example',
      email_verified: true,
      name: '山田 花子',
      role: 'parent',
      is_teacher: false,
    })
  })

  it('GET /v1/users/deep_me: a parent has two learners and no organisation', async () => {
    const me = DeepMe.parse((await api.as(SUBS.parent, 'GET', '/v1/users/deep_me')).body)
    expect(me.learners.map((l) => l.nickname)).toEqual(['たろう', 'さくら'])
    expect(me.organization).toBeNull()
    expect(me.teacher).toBeNull()
    expect(me.following_count).toBe(3)
    expect(me.favorite_count).toBe(5)
    expect(me.upcoming_reservation_count).toBeGreaterThanOrEqual(3)
  })

  it('GET /v1/users/deep_me: the reservations count is the 次の授業 list, a lesson under way included', async () => {
    // Those still reserved (the list also shows cancelled ones and holds awaiting payment).
    const upcoming = async () =>
      (
        (await api.as(SUBS.parent, 'GET', '/v1/purchases?scope=upcoming')).body as {
          status: string
          schedule: { id: number }
        }[]
      ).filter((p) => p.status === 'reserved')
    const list = await upcoming()
    expect(list.length).toBeGreaterThan(0)
    // The first one is under way: started half an hour ago, ends in half an hour.
    const id = list[0]!.schedule.id
    const [before] = await api.db.select().from(classWorkSchedules).where(eq(classWorkSchedules.id, id))
    await api.db
      .update(classWorkSchedules)
      .set({
        startedAt: new Date(api.now.getTime() - 1_800_000),
        endedAt: new Date(api.now.getTime() + 1_800_000),
      })
      .where(eq(classWorkSchedules.id, id))
    try {
      const me = DeepMe.parse((await api.as(SUBS.parent, 'GET', '/v1/users/deep_me')).body)
      expect(me.upcoming_reservation_count).toBe((await upcoming()).length)
    } finally {
      await api.db
        .update(classWorkSchedules)
        .set({ startedAt: before!.startedAt, endedAt: before!.endedAt })
        .where(eq(classWorkSchedules.id, id))
    }
  })

  it('GET /v1/users/deep_me: a teacher has figures; an owner has the organisation', async () => {
    const teacher = DeepMe.parse((await api.as(SUBS.teacher, 'GET', '/v1/users/deep_me')).body)
    expect(teacher.teacher).not.toBeNull()
    expect(teacher.teacher!.class_work_count).toBeGreaterThan(teacher.teacher!.published_class_work_count)
    expect(teacher.teacher!.student_count).toBeGreaterThan(0)
    expect(teacher.teacher!.summary.times_held).toBeGreaterThan(0)
    const owner = DeepMe.parse((await api.as(SUBS.owner, 'GET', '/v1/users/deep_me')).body)
    expect(owner.organization).toMatchObject({
      role: 'owner',
      kind: 'corporation',
      name: '株式会社みらいキッズアカデミー',
    })
  })

  it('GET /v1/users/followings lists followed teachers', async () => {
    const list = FollowingList.parse((await api.as(SUBS.parent, 'GET', '/v1/users/followings')).body)
    expect(list.map((f) => f.nickname).sort()).toEqual(['けんた先生', 'たかはし博士', 'エミリー先生'].sort())
    expect(list.find((f) => f.nickname === 'エミリー先生')?.organization_name).toBe(
      '株式会社みらいキッズアカデミー',
    )
  })
})

describe('teaching is turned on by the identity verification only (docs/decisions/0020)', () => {
  const rowOf = async (id: number) => (await api.db.select().from(users).where(eq(users.id, id)))[0]!
  const sitemapTeachers = async () =>
    SitemapEntries.parse((await api.call('GET', '/v1/sitemap_entries')).body).teachers.map((t) => t.id)

  /** Signs up 佐藤 颯太 under `name` with the role's own fields; their token and user id. */
  const signUp = async (name: string, roleFields: Record<string, unknown>) => {
    const token = await accessToken(`test|${name}`, { email: `${name}@manabi.example`, email_verified: true })
    const registered = await api.call('POST', '/v1/users', {
      token,
      body: {
        nickname: 'そうた',
        name: '佐藤 颯太',
        name_kana: 'サトウ ソウタ',
        agreed_to_terms: true,
        ...roleFields,
      },
    })
    expect(registered.status, JSON.stringify(registered.body)).toBe(201)
    return { token, id: User.parse(registered.body).id }
  }

  it('a learner (child) account cannot make itself a public teacher through PATCH /v1/users/me', async () => {
    const { token, id } = await signUp('learner-teach', {
      role: 'learner',
      school_type_id: 3,
      target_grade_id: 8,
    })
    const before = await rowOf(id)
    for (const body of [{ is_teacher: true }, { nickname: 'そうた先生', is_teacher: true }]) {
      const res = await api.call('PATCH', '/v1/users/me', { token, body })
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'invalid_request'])
    }
    expect(await rowOf(id)).toEqual(before)
    expect(before.isTeacher).toBe(false)
    // Nothing public appeared: no teacher page (its real name), no sitemap entry.
    expect((await api.call('GET', `/v1/teachers/${id}`)).status).toBe(404)
    expect(await sitemapTeachers()).not.toContain(id)
  })

  it('a member who signs up 「先生として」 has no public page, sitemap entry or followers until an operator approves them', async () => {
    const { id } = await signUp('signup-teacher', { role: 'teacher', profession_id: 1 })
    expect((await rowOf(id)).isTeacher).toBe(true)
    // Teaching is on (drafts), but the real name is nowhere public: anyone may pick 先生, a child too.
    expect((await api.call('GET', `/v1/teachers/${id}`)).status).toBe(404)
    expect((await api.call('GET', `/v1/teachers/${id}/class_works`)).status).toBe(404)
    expect(await sitemapTeachers()).not.toContain(id)
    expect((await api.as(SUBS.parent, 'POST', `/v1/users/followings/${id}`)).status).toBe(404)
    // Nothing to report either: reports name what the reporter can see.
    const report = { target_type: 'teacher', target_id: id, reason: 'child_safety' }
    expect((await api.as(SUBS.parent, 'POST', '/v1/reports', report)).status).toBe(404)
    // A follow left from before (pages did not wait for the approval then) lists nothing that would be a 404.
    await api.db.insert(follows).values({ followerId: await api.userId(SUBS.parent), teacherId: id })
    const listed = FollowingList.parse((await api.as(SUBS.parent, 'GET', '/v1/users/followings')).body)
    expect(listed.map((f) => f.id)).not.toContain(id)
    await api.db.delete(follows).where(eq(follows.teacherId, id))
    // Approved: the page, the sitemap entry and following appear.
    await api.db.update(users).set({ teacherVerifiedAt: api.now }).where(eq(users.id, id))
    const page = await api.call('GET', `/v1/teachers/${id}`)
    expect([page.status, page.body.name, page.body.is_verified]).toEqual([200, '佐藤 颯太', true])
    expect(await sitemapTeachers()).toContain(id)
    expect((await api.as(SUBS.parent, 'POST', '/v1/reports', report)).status).toBe(201)
    const followed = await api.as(SUBS.parent, 'POST', `/v1/users/followings/${id}`)
    expect(followed.status).toBeLessThan(300)
    await api.as(SUBS.parent, 'DELETE', `/v1/users/followings/${id}`)
  })

  it('a teacher cannot turn teaching off through PATCH /v1/users/me (booked lessons keep their teacher)', async () => {
    const id = await api.userId(SUBS.teacher)
    const before = await rowOf(id)
    expect(before.isTeacher).toBe(true)
    const res = await api.as(SUBS.teacher, 'PATCH', '/v1/users/me', { is_teacher: false })
    expect([res.status, res.body.code]).toEqual([400, 'invalid_request'])
    expect(await rowOf(id)).toEqual(before)
    expect((await api.call('GET', `/v1/teachers/${id}`)).status).toBe(200)
    expect(await sitemapTeachers()).toContain(id)
    // The rest of the profile stays editable.
    const edited = await api.as(SUBS.teacher, 'PATCH', '/v1/users/me', {
      introduction: '算数を教えています。',
    })
    expect(edited.status).toBe(200)
    expect(User.parse(edited.body)).toMatchObject({ is_teacher: true, introduction: '算数を教えています。' })
  })
})

describe('profile fields others see carry no contact details', () => {
  it('PATCH /v1/users/me refuses them in the nickname and the introduction (422 contact_info) and changes nothing', async () => {
    const before = User.parse((await api.as(SUBS.parent, 'GET', '/v1/users/me')).body)
    for (const [field, value] of [
      ['nickname', 'LINE:hanako_mama'],
      ['nickname', 'hanako@gmail.com'],
      ['introduction', 'インスタは hanako.mama です'],
      ['nickname', 'ha\u200bnako@gmail.com'],
    ] as const) {
      const res = await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { [field]: value })
      expect(res.status, value).toBe(422)
      expect(res.body.code).toBe('contact_info')
      expect((res.body.issues as { path: string[] }[])[0]!.path).toEqual([field])
    }
    expect(User.parse((await api.as(SUBS.parent, 'GET', '/v1/users/me')).body)).toEqual(before)
    // Ordinary names still pass.
    expect((await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { nickname: before.nickname })).status).toBe(
      200,
    )
  })

  it("a teacher's name, shown at the head of their public page, is checked too (422 contact_info on name)", async () => {
    const before = User.parse((await api.as(SUBS.teacher, 'GET', '/v1/users/me')).body)
    const res = await api.as(SUBS.teacher, 'PATCH', '/v1/users/me', { name: '山田 LINE:hanako_mama' })
    expect([res.status, res.body.code]).toEqual([422, 'contact_info'])
    expect((res.body.issues as { path: string[] }[])[0]!.path).toEqual(['name'])
    expect(User.parse((await api.as(SUBS.teacher, 'GET', '/v1/users/me')).body)).toEqual(before)
  })

  it('a nickname cannot pass for the staff (422 reserved_nickname) nor be written backwards (the overrides are taken out)', async () => {
    const before = User.parse((await api.as(SUBS.parent, 'GET', '/v1/users/me')).body)
    for (const nickname of ['運営スタッフ', 'まなびのたね 公式', '運 営', '事務局の田中', 'ｺｳｼｷ公式'])
      expect((await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { nickname })).body.code, nickname).toBe(
        'reserved_nickname',
      )
    expect(User.parse((await api.as(SUBS.parent, 'GET', '/v1/users/me')).body)).toEqual(before)
    // Direction overrides are taken out: nothing reads backwards as another name.
    for (const [nickname, saved] of [
      ['\u202eフッタス営運', 'フッタス営運'],
      ['はな\u2066こ\u2069', 'はなこ'],
    ]) {
      const res = await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { nickname })
      expect([res.status, res.body.nickname], nickname).toEqual([200, saved])
    }
    // In text of several lines too (a message, a description): reversed, a number would show as a phone number
    // the contact check never read.
    const [writer] = (await insertMembers(api.db, 'direction-marks', 1)) as [string]
    // (Another teacher than the demo teacher, whose rooms the tests below list.)
    const emilyId = await api.userId(SUBS.emily)
    const room = (await api.as(writer, 'POST', '/v1/rooms', { partner_id: emilyId })).body.id as number
    const sent = await api.as(writer, 'POST', `/v1/rooms/${room}/messages`, {
      body: 'よろしくお願いします \u202e8765-4321-090',
    })
    expect([sent.status, sent.body.body]).toEqual([201, 'よろしくお願いします 8765-4321-090'])
    // A mark saved before the rule does not block an edit of another field (the form sends it back as it is).
    await api.db.update(users).set({ name: '山田\u200e花子' }).where(eq(users.id, before.id))
    const edited = await api.as(SUBS.parent, 'PATCH', '/v1/users/me', {
      name: '山田\u200e花子',
      introduction: 'よろしくお願いします',
    })
    expect([edited.status, edited.body.name]).toEqual([200, '山田花子'])
    // Names that only look near those words are fine.
    expect((await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { nickname: 'はなこママ' })).status).toBe(200)
    expect((await api.as(SUBS.parent, 'PATCH', '/v1/users/me', { nickname: before.nickname })).status).toBe(
      200,
    )
  })

  it('text saved before the rule does not block an edit of another field (the form sends every field)', async () => {
    const me = User.parse((await api.as(SUBS.member01, 'GET', '/v1/users/me')).body)
    await api.db
      .update(users)
      .set({ introduction: 'ASP.NET と socket.io を教えています' })
      .where(eq(users.id, me.id))
    const res = await api.as(SUBS.member01, 'PATCH', '/v1/users/me', {
      nickname: me.nickname,
      introduction: 'ASP.NET と socket.io を教えています',
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })
})

describe('class announcements', () => {
  it('lists announcements of reserved classes with read state', async () => {
    const res = await api.as(SUBS.parent, 'GET', '/v1/class_announcements')
    expect(res.status).toBe(200)
    const list = ClassAnnouncementList.parse(res.body)
    expect(list.length).toBeGreaterThan(0)
    expect(list.some((a) => a.is_read)).toBe(true)
    expect(list.some((a) => !a.is_read)).toBe(true)
    expect(list.map((a) => a.class_work_title)).toContain('はじめてのScratch（スクラッチ）でゲームづくり')
    const dates = list.map((a) => a.created_at)
    expect(dates).toEqual([...dates].sort().reverse())
  })

  it('is empty for someone without reservations', async () => {
    const list = ClassAnnouncementList.parse(
      (await api.as(SUBS.owner, 'GET', '/v1/class_announcements')).body,
    )
    expect(list).toEqual([])
  })
})

describe('rooms and messages', () => {
  it('GET /v1/rooms: the parent’s rooms with unread counts', async () => {
    const list = RoomList.parse((await api.as(SUBS.parent, 'GET', '/v1/rooms')).body)
    expect(list).toHaveLength(4)
    const byPartner = Object.fromEntries(list.map((r) => [r.partner.nickname, r.unread_count]))
    expect(byPartner).toEqual({ けんた先生: 1, エミリー先生: 0, たかはし博士: 1, だいすけ先生: 0 })
    const updated = list.map((r) => r.updated_at)
    expect(updated).toEqual([...updated].sort().reverse())
    for (const r of list) expect(r.last_message).not.toBeNull()
  })

  it('the teacher sees the other side of the same rooms', async () => {
    const list = RoomList.parse((await api.as(SUBS.teacher, 'GET', '/v1/rooms')).body)
    expect(list.map((r) => r.partner.nickname).sort()).toEqual(
      ['けんいちさん', 'はなこ', 'めぐみさん'].sort(),
    )
    expect(list.reduce((sum, r) => sum + r.unread_count, 0)).toBe(2)
  })

  it('GET /v1/rooms/{id}/messages: own room, oldest first, is_mine set', async () => {
    const list = RoomList.parse((await api.as(SUBS.parent, 'GET', '/v1/rooms')).body)
    const room = list.find((r) => r.partner.nickname === 'けんた先生')!
    const res = await api.as(SUBS.parent, 'GET', `/v1/rooms/${room.id}/messages`)
    expect(res.status).toBe(200)
    const messages = MessageList.parse(res.body)
    expect(messages).toHaveLength(5)
    expect(messages.map((m) => m.created_at)).toEqual(messages.map((m) => m.created_at).sort())
    expect(messages[0]!.is_mine).toBe(true)
    expect(messages.at(-1)!.is_mine).toBe(false)
  })

  it('another member’s room does not exist for the caller (404); bad ids are 400', async () => {
    const emilyId = await api.userId(SUBS.emily)
    const [emilyRoom] = await api.db.select().from(rooms).where(eq(rooms.teacherId, emilyId))
    expect((await api.as(SUBS.owner, 'GET', `/v1/rooms/${emilyRoom!.id}/messages`)).status).toBe(404)
    expect((await api.as(SUBS.parent, 'GET', '/v1/rooms/999999/messages')).status).toBe(404)
    expect((await api.as(SUBS.parent, 'GET', '/v1/rooms/x/messages')).status).toBe(400)
  })

  it('GET /v1/destinations?candidate=teachers: teachers reserved or followed', async () => {
    const list = DestinationList.parse(
      (await api.as(SUBS.parent, 'GET', '/v1/destinations?candidate=teachers')).body,
    )
    const names = list.map((d) => d.nickname)
    expect(names).toEqual(expect.arrayContaining(['けんた先生', 'エミリー先生', 'たかはし博士']))
    for (const d of list) expect(d.is_teacher).toBe(true)
    expect(list.find((d) => d.nickname === 'けんた先生')!.room_id).not.toBeNull()
  })

  it('GET /v1/destinations?candidate=students: members who reserved the caller’s classes', async () => {
    const list = DestinationList.parse(
      (await api.as(SUBS.teacher, 'GET', '/v1/destinations?candidate=students')).body,
    )
    expect(list.length).toBeGreaterThan(0)
    expect(list.map((d) => d.nickname)).toContain('はなこ')
    expect(list.map((d) => d.id)).not.toContain(await api.userId(SUBS.teacher))
  })

  it.each(['', '?candidate=', '?candidate=parents', '?candidate=teachers&candidate=students'])(
    'GET /v1/destinations%s → 400',
    async (query) => {
      expect((await api.as(SUBS.parent, 'GET', `/v1/destinations${query}`)).status).toBe(400)
    },
  )
})
