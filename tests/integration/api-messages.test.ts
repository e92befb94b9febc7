import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { markRoomRead, openRoom, roomListQuery, sendMessage } from '../../app/api/services/rooms'
import { DestinationList, Message, MessageList, Room, RoomList } from '../../app/contract/v1/rooms'
import { rowsOf } from '../../app/db/rows'
import { follows, messages, purchases, rateLimits, roomMembers, rooms, users } from '../../app/db/schema'
import { tokyoAt } from '../../app/db/seed'
import { retriedConflicts } from '../../app/db/transaction'
import { DESTINATION_SEARCH_LIMIT, STUDENT_LIMIT } from '../../app/lib/page-sizes'
import { createApiClient } from '../../app/server/api-client/client'
import { inProcessTransport } from '../../app/server/api-client/transport'
import { setupApi, type TestApi } from './support/api'
import { loadMasters, postClass, postSchedule } from './support/classes'
import { whileHeld } from './support/locks'
import { insertMembers } from './support/people'
import { accessToken, SUBS } from './support/tokens'

let api: TestApi
let parentId: number
let teacherId: number

beforeAll(async () => {
  api = await setupApi()
  parentId = await api.userId(SUBS.parent)
  teacherId = await api.userId(SUBS.teacher)
})
afterAll(async () => {
  await api?.close()
})

const roomsOf = async (sub: string) => RoomList.parse((await api.as(sub, 'GET', '/v1/rooms')).body)

describe('rooms and unread counts', () => {
  it('lists rooms with unread counts; opening a room marks it read', async () => {
    const list = await roomsOf(SUBS.parent)
    const unreadRoom = list.find((r) => r.unread_count > 0)
    expect(unreadRoom).toBeDefined()
    const res = await api.as(SUBS.parent, 'POST', `/v1/rooms/${unreadRoom!.id}/read`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ room_id: unreadRoom!.id, unread_count: 0 })
    const after = await roomsOf(SUBS.parent)
    expect(after.find((r) => r.id === unreadRoom!.id)!.unread_count).toBe(0)
    // Other rooms are untouched.
    for (const r of after) {
      if (r.id !== unreadRoom!.id) expect(r.unread_count).toBe(list.find((x) => x.id === r.id)!.unread_count)
    }
  })

  it('a room of others is 404 for reading, marking read and sending', async () => {
    const [foreign] = await api.db
      .select({ id: rooms.id })
      .from(rooms)
      .where(eq(rooms.memberId, await api.userId(SUBS.member01)))
    if (!foreign) return
    expect((await api.as(SUBS.owner, 'GET', `/v1/rooms/${foreign.id}/messages`)).status).toBe(404)
    expect((await api.as(SUBS.owner, 'POST', `/v1/rooms/${foreign.id}/read`)).status).toBe(404)
    const before = await api.count('messages')
    expect(
      (await api.as(SUBS.owner, 'POST', `/v1/rooms/${foreign.id}/messages`, { body: 'こんにちは' })).status,
    ).toBe(404)
    expect(await api.count('messages')).toBe(before)
  })
})

describe('sending messages', () => {
  let roomId: number

  it('POST /v1/rooms opens a room with a destination teacher, and returns the same room again', async () => {
    const dests = DestinationList.parse(
      (await api.as(SUBS.parent, 'GET', '/v1/destinations?candidate=teachers')).body,
    )
    const target = dests.find((d) => d.room_id === null) ?? dests[0]!
    const first = await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: target.id })
    expect([200, 201]).toContain(first.status)
    const room = Room.parse(first.body)
    expect(room.partner.id).toBe(target.id)
    if (target.room_id === null) expect(first.status).toBe(201)
    const again = await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: target.id })
    expect(again.status).toBe(200)
    expect(Room.parse(again.body).id).toBe(room.id)
    const pairs = await api.db
      .select()
      .from(rooms)
      .where(and(eq(rooms.teacherId, target.id), eq(rooms.memberId, parentId)))
    expect(pairs).toHaveLength(1)
    roomId = room.id
  })

  it('a teacher opens a room with a student who reserved their class', async () => {
    const students = DestinationList.parse(
      (await api.as(SUBS.teacher, 'GET', '/v1/destinations?candidate=students')).body,
    )
    expect(students.length).toBeGreaterThan(0)
    const res = await api.as(SUBS.teacher, 'POST', '/v1/rooms', { partner_id: students[0]!.id })
    expect([200, 201]).toContain(res.status)
    expect(Room.parse(res.body).partner.id).toBe(students[0]!.id)
  })

  it('with a body, POST /v1/rooms opens the room and its first message together; a bad body makes neither', async () => {
    // A teacher with a published class whom the parent has never written to (「先生に質問する」).
    const mine = new Set((await roomsOf(SUBS.parent)).map((r) => r.partner.id))
    let target: number | undefined
    for (let page = 1; target === undefined && page <= 5; page++) {
      const found = (await api.call('POST', '/v1/class_works/search', { body: { page } })).body as {
        items: { teacher: { id: number } }[]
      }
      target = found.items.map((c) => c.teacher.id).find((id) => !mine.has(id) && id !== parentId)
    }
    expect(target).toBeDefined()

    const [roomsBefore, messagesBefore] = [await api.count('rooms'), await api.count('messages')]
    for (const body of ['', '   ', 'あ'.repeat(2001), 42]) {
      const res = await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: target, body })
      expect(res.status, JSON.stringify(body)).toBe(400)
    }
    expect(await api.count('rooms')).toBe(roomsBefore)
    expect(await api.count('messages')).toBe(messagesBefore)

    const res = await api.as(SUBS.parent, 'POST', '/v1/rooms', {
      partner_id: target,
      body: '小学2年生でも参加できますか？',
    })
    expect(res.status).toBe(201)
    const room = Room.parse(res.body)
    const sent = MessageList.parse((await api.as(SUBS.parent, 'GET', `/v1/rooms/${room.id}/messages`)).body)
    expect(sent.map((m) => [m.body, m.is_mine, m.status])).toEqual([
      ['小学2年生でも参加できますか？', true, 'visible'],
    ])
    // The teacher sees the room with the message, unread.
    const theirs = (await roomsOf(SUBS.teacher)).find((r) => r.id === room.id)
    if (target === teacherId) expect(theirs?.unread_count).toBe(1)
    // Again with a body: the same room, one more message.
    const again = await api.as(SUBS.parent, 'POST', '/v1/rooms', {
      partner_id: target,
      body: 'よろしくお願いします',
    })
    expect(again.status).toBe(200)
    expect(Room.parse(again.body).id).toBe(room.id)
    expect(await api.count('rooms')).toBe(roomsBefore + 1)
    expect(await api.count('messages')).toBe(messagesBefore + 2)
  })

  it('GET /v1/destinations?partner_id= answers that one person if they are a destination, else nothing', async () => {
    const all = DestinationList.parse(
      (await api.as(SUBS.parent, 'GET', '/v1/destinations?candidate=teachers')).body,
    )
    expect(all.length).toBeGreaterThan(1)
    const one = DestinationList.parse(
      (await api.as(SUBS.parent, 'GET', `/v1/destinations?candidate=teachers&partner_id=${all[1]!.id}`)).body,
    )
    expect(one).toEqual([all[1]])
    const member01 = await api.userId(SUBS.member01)
    for (const partner of [member01, parentId, 99_999_999]) {
      const res = await api.as(
        SUBS.parent,
        'GET',
        `/v1/destinations?candidate=teachers&partner_id=${partner}`,
      )
      expect(res.status).toBe(200)
      expect(res.body).toEqual([])
    }
    // A teacher finds one student the same way; not someone who never reserved.
    const students = DestinationList.parse(
      (await api.as(SUBS.teacher, 'GET', '/v1/destinations?candidate=students')).body,
    )
    const student = students[0]!
    expect(
      (await api.as(SUBS.teacher, 'GET', `/v1/destinations?candidate=students&partner_id=${student.id}`))
        .body,
    ).toEqual([student])
    const stranger = (await insertMembers(api.db, 'not-a-student', 1))[0]!
    expect(
      (
        await api.as(
          SUBS.teacher,
          'GET',
          `/v1/destinations?candidate=students&partner_id=${await api.userId(stranger)}`,
        )
      ).body,
    ).toEqual([])
    for (const bad of ['abc', '0', '-1', '1.5', ''])
      expect(
        (await api.as(SUBS.parent, 'GET', `/v1/destinations?candidate=teachers&partner_id=${bad}`)).status,
        bad,
      ).toBe(400)
  })

  it('someone outside the destinations is 404 and no room is made', async () => {
    const before = await api.count('rooms')
    const member01 = await api.userId(SUBS.member01)
    for (const partner of [member01, 99_999_999]) {
      const res = await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: partner })
      expect(res.status).toBe(404)
    }
    expect((await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: parentId })).status).toBe(404)
    expect((await api.as(SUBS.parent, 'POST', '/v1/rooms', { partner_id: 'x' })).status).toBe(400)
    expect(await api.count('rooms')).toBe(before)
  })

  it('sends a message; the partner sees it unread; newest at the bottom', async () => {
    const res = await api.as(SUBS.parent, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: '来週の授業の持ち物を教えてください。',
    })
    expect(res.status).toBe(201)
    const m = Message.parse(res.body)
    expect(m).toMatchObject({ is_mine: true, contains_contact_info: false, sender_id: parentId })
    const list = MessageList.parse((await api.as(SUBS.parent, 'GET', `/v1/rooms/${roomId}/messages`)).body)
    expect(list.at(-1)!.id).toBe(m.id)
    const room = await roomsOf(SUBS.parent)
    expect(room.find((r) => r.id === roomId)!.unread_count).toBe(0)
    expect(room.find((r) => r.id === roomId)!.last_message!.id).toBe(m.id)
  })

  it('stores the contact-details flag computed by the server, whatever the client sends', async () => {
    const res = await api.as(SUBS.parent, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: '電話は０９０－１２３４－５６７８です',
    })
    expect(res.status).toBe(201)
    expect(Message.parse(res.body)).toMatchObject({ contains_contact_info: true, status: 'held' })
    const [row] = await api.db.select().from(messages).where(eq(messages.id, res.body.id))
    expect(row!.containsContactInfo).toBe(true)
    expect(row!.status).toBe('held')
    // The client cannot set the flag.
    const forged = await api.as(SUBS.parent, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: 'ふつうのメッセージ',
      contains_contact_info: false,
    })
    expect(forged.status).toBe(400)
  })

  it.each([[{}], [{ body: '' }], [{ body: '   ' }], [{ body: 'あ'.repeat(2001) }], [{ body: 42 }]])(
    'bad input %j is 400 and nothing is stored',
    async (body) => {
      const before = await api.count('messages')
      const res = await api.as(SUBS.parent, 'POST', `/v1/rooms/${roomId}/messages`, body)
      expect(res.status).toBe(400)
      expect(await api.count('messages')).toBe(before)
    },
  )

  it('the partner’s unread count grows and drops when they read', async () => {
    const partnerRoom = (await api.db.select().from(rooms).where(eq(rooms.id, roomId)))[0]!
    const [member] = await api.db
      .select()
      .from(roomMembers)
      .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, partnerRoom.teacherId)))
    expect(member).toBeDefined()
    if (partnerRoom.teacherId !== teacherId) return
    const before = (await roomsOf(SUBS.teacher)).find((r) => r.id === roomId)!.unread_count
    expect(before).toBeGreaterThanOrEqual(2)
    await api.as(SUBS.teacher, 'POST', `/v1/rooms/${roomId}/read`)
    expect((await roomsOf(SUBS.teacher)).find((r) => r.id === roomId)!.unread_count).toBe(0)
  })
})

describe('read marks and clocks', () => {
  it('a message recorded with a time before the partner marked the room read (a send in flight, a clock behind) still counts as unread', async () => {
    const [sender, reader] = await insertMembers(api.db, 'read-clock', 2)
    const senderId = await api.userId(sender!)
    const readerId = await api.userId(reader!)
    // A teacher (the reader) and a parent (the sender) in one room with one earlier message.
    await api.db
      .update(users)
      .set({ isTeacher: true, teacherVerifiedAt: api.now })
      .where(eq(users.id, readerId))
    const [room] = await api.db
      .insert(rooms)
      .values({ teacherId: readerId, memberId: senderId, createdAt: api.now })
      .returning()
    // Opened by the sender (openRoom puts a room in its opener's list at once).
    await api.db.insert(roomMembers).values([
      { roomId: room!.id, userId: senderId, lastReadAt: api.now },
      { roomId: room!.id, userId: readerId },
    ])
    await sendMessage(api.db, senderId, room!.id, 'はじめまして', api.now)
    const unread = async () => (await roomsOf(reader!)).find((r) => r.id === room!.id)?.unread_count
    expect(await unread()).toBe(1)
    // The reader's instance marks the room read at +60 s; the sender's message is recorded with +30 s after that.
    await markRoomRead(api.db, readerId, room!.id, new Date(api.now.getTime() + 60_000))
    expect(await unread()).toBe(0)
    await sendMessage(api.db, senderId, room!.id, 'まだ読んでいません', new Date(api.now.getTime() + 30_000))
    expect(await unread()).toBe(1)
    await markRoomRead(api.db, readerId, room!.id, new Date(api.now.getTime() + 90_000))
    expect(await unread()).toBe(0)
    // The reader's own answer, sent at +120 s, does not move the mark: a partner message recorded at +100 s that
    // commits after the reading still counts.
    await sendMessage(api.db, readerId, room!.id, 'お返事です', new Date(api.now.getTime() + 120_000))
    await markRoomRead(api.db, readerId, room!.id, new Date(api.now.getTime() + 125_000))
    await sendMessage(api.db, senderId, room!.id, '行き違いでした', new Date(api.now.getTime() + 100_000))
    expect(await unread()).toBe(1)
    await markRoomRead(api.db, readerId, room!.id, new Date(api.now.getTime() + 130_000))
    expect(await unread()).toBe(0)
    // Sending moves no read mark once the room is in the sender's list, whatever their clock says.
    await sendMessage(api.db, senderId, room!.id, 'もうひとつ', new Date(api.now.getTime() - 60_000))
    const [mark] = await api.db
      .select({ at: roomMembers.lastReadAt })
      .from(roomMembers)
      .where(and(eq(roomMembers.roomId, room!.id), eq(roomMembers.userId, senderId)))
    expect(mark!.at).toEqual(api.now)
  })

  it('sending does not mark the partner’s messages read: one in flight, and those unseen when asking from a class page', async () => {
    const [member, teacher] = await insertMembers(api.db, 'send-unread', 2)
    const memberId = await api.userId(member!)
    const teacherUserId = await api.userId(teacher!)
    await api.db
      .update(users)
      .set({ isTeacher: true, teacherVerifiedAt: api.now })
      .where(eq(users.id, teacherUserId))
    await api.db.insert(follows).values({ followerId: memberId, teacherId: teacherUserId })
    const [me] = await api.db.select().from(users).where(eq(users.id, memberId))
    const at = (s: number) => new Date(api.now.getTime() + s * 1000)
    const { room } = await openRoom(api.db, me!, teacherUserId, at(0), '質問です')
    const unread = async () => (await roomsOf(member!)).find((r) => r.id === room.id)?.unread_count
    // The teacher's answer is recorded at +10 s but commits after the member's next send at +20 s.
    await sendMessage(api.db, memberId, room.id, '追加の質問です', at(20))
    await sendMessage(api.db, teacherUserId, room.id, 'お答えします', at(10))
    expect(await unread()).toBe(1)
    // Asking again from the class page (a room that exists, a first message) leaves the answer unread too.
    await openRoom(api.db, me!, teacherUserId, at(30), 'もう一つ質問です')
    expect(await unread()).toBe(1)
    // Opening the room reads it.
    await markRoomRead(api.db, memberId, room.id, at(40))
    expect(await unread()).toBe(0)
  })
})

describe('one member writing from two tabs at once', () => {
  it('opening a room with a message and sending in it at the same moment both land, and nothing deadlocks (PostgreSQL)', async () => {
    const [member, teacher] = await insertMembers(api.db, 'two-tabs', 2)
    const memberId = await api.userId(member!)
    const teacherUserId = await api.userId(teacher!)
    await api.db
      .update(users)
      .set({ isTeacher: true, teacherVerifiedAt: api.now })
      .where(eq(users.id, teacherUserId))
    await api.db.insert(follows).values({ followerId: memberId, teacherId: teacherUserId })
    const [me] = await api.db.select().from(users).where(eq(users.id, memberId))
    // Opened with a question: the teacher sees the room (and may answer in it) from the first round on.
    const { room } = await openRoom(api.db, me!, teacherUserId, api.now, 'はじめまして')
    const deadlocksBefore = retriedConflicts['40P01'] ?? 0
    const rounds = 15
    for (let round = 0; round < rounds; round++) {
      // Tab A opens the room again with a message (「先生に質問する」), tab B sends in it, the teacher answers.
      const results = await Promise.allSettled([
        openRoom(api.db, me!, teacherUserId, api.now, `A${round}`),
        sendMessage(api.db, memberId, room.id, `B${round}`, api.now),
        sendMessage(api.db, teacherUserId, room.id, `T${round}`, api.now),
        markRoomRead(api.db, memberId, room.id, api.now),
      ])
      const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []))
      expect(failures, `round ${round}`).toEqual([])
    }
    const sent = await api.db
      .select({ body: messages.body })
      .from(messages)
      .where(eq(messages.roomId, room.id))
    expect(sent).toHaveLength(3 * rounds + 1)
    // The lock order holds: no deadlock was hidden by a retry either.
    expect(retriedConflicts['40P01'] ?? 0, 'deadlocks retried').toBe(deadlocksBefore)
  })
})

describe('more rooms than the list holds', () => {
  it('the oldest conversation is still found by id or partner, and its unread messages still count', async () => {
    // A teacher with 201 students who wrote, the oldest one's message still unread.
    const [teacher, ...students] = await insertMembers(api.db, 'many-rooms', 202)
    const tId = await api.userId(teacher!)
    const ids = await Promise.all(students.map((sub) => api.userId(sub)))
    await api.db.update(users).set({ isTeacher: true, teacherVerifiedAt: api.now }).where(eq(users.id, tId))
    const start = api.now.getTime() - 86_400_000
    const made = await api.db
      .insert(rooms)
      .values(
        ids.map((memberId, i) => ({
          teacherId: tId,
          memberId,
          createdAt: new Date(start),
          lastMessageAt: new Date(start + i * 60_000),
        })),
      )
      .returning({ id: rooms.id, memberId: rooms.memberId })
    await api.db.insert(roomMembers).values(
      made.flatMap((r) => [
        { roomId: r.id, userId: tId, lastReadAt: new Date(start + 120 * 60_000) },
        { roomId: r.id, userId: r.memberId },
      ]),
    )
    await api.db.insert(messages).values(
      made.map((r, i) => ({
        roomId: r.id,
        senderId: r.memberId,
        body: `質問${i}`,
        createdAt: new Date(start + i * 60_000),
      })),
    )
    const oldest = made[0]!
    // Unread for the teacher: the oldest room's message (read mark moved back) and those after the mark.
    await api.db
      .update(roomMembers)
      .set({ lastReadAt: new Date(start - 60_000) })
      .where(and(eq(roomMembers.roomId, oldest.id), eq(roomMembers.userId, tId)))
    const listed = await roomsOf(teacher!)
    expect(listed).toHaveLength(200)
    expect(listed.map((r) => r.id)).not.toContain(oldest.id)
    const expected = 1 + made.length - 121
    const unread = await api.as(teacher!, 'GET', '/v1/rooms/unread_count')
    expect(unread.body).toEqual({ count: expected })
    // The list's own sum misses the room outside it.
    expect(listed.reduce((n, r) => n + r.unread_count, 0)).toBe(expected - 1)

    for (const query of [`room_id=${oldest.id}`, `partner_id=${oldest.memberId}`]) {
      const found = RoomList.parse((await api.as(teacher!, 'GET', `/v1/rooms?${query}`)).body)
      expect(
        found.map((r) => [r.id, r.partner.id, r.unread_count]),
        query,
      ).toEqual([[oldest.id, oldest.memberId, 1]])
    }
    // Someone else's room, or a person without one: nothing. A bad id: 400.
    expect((await api.as(SUBS.parent, 'GET', `/v1/rooms?room_id=${oldest.id}`)).body).toEqual([])
    expect((await api.as(teacher!, 'GET', `/v1/rooms?partner_id=${parentId}`)).body).toEqual([])
    expect((await api.as(teacher!, 'GET', '/v1/rooms?room_id=abc')).status).toBe(400)
    // The BFF's client: the room, or nothing.
    const client = createApiClient(() => inProcessTransport(async () => api.app), {
      logger: { error: () => {}, warn: () => {} },
    })
    const token = await accessToken(teacher!)
    expect((await client.findRoom(token, { partnerId: oldest.memberId }))?.id).toBe(oldest.id)
    expect(await client.findRoom(token, { partnerId: parentId })).toBeUndefined()
    expect((await client.unreadMessageCount(token)).count).toBe(expected)
    // Reading it takes it off the count.
    expect((await api.as(teacher!, 'POST', `/v1/rooms/${oldest.id}/read`)).status).toBe(200)
    expect((await api.as(teacher!, 'GET', '/v1/rooms/unread_count')).body).toEqual({ count: expected - 1 })
  })
})

describe('an instance whose clock is behind', () => {
  it('never moves a room’s last activity backwards: its unread message still counts in the header', async () => {
    const [member] = await insertMembers(api.db, 'clock-behind', 1)
    const memberId = await api.userId(member!)
    await api.db.insert(follows).values({ followerId: memberId, teacherId })
    const [me] = await api.db.select().from(users).where(eq(users.id, memberId))
    const before = (await api.as(SUBS.teacher, 'GET', '/v1/rooms/unread_count')).body.count as number
    const { room } = await openRoom(api.db, me!, teacherId, api.now, 'こんにちは')
    // The teacher's read mark is half a minute back (a read before this message); the member then writes again
    // from an instance a minute behind, a message that counts as read.
    await api.db
      .update(roomMembers)
      .set({ lastReadAt: new Date(api.now.getTime() - 30_000) })
      .where(and(eq(roomMembers.roomId, room.id), eq(roomMembers.userId, teacherId)))
    await sendMessage(api.db, memberId, room.id, 'もう一通', new Date(api.now.getTime() - 60_000))
    const [row] = await api.db.select({ at: rooms.lastMessageAt }).from(rooms).where(eq(rooms.id, room.id))
    expect(row!.at!.getTime()).toBe(api.now.getTime())
    expect((await api.as(SUBS.teacher, 'GET', '/v1/rooms/unread_count')).body.count).toBe(before + 1)
  })
})

describe('two teachers writing to each other', () => {
  it('one room between them, whichever opens it, also when both open at the same moment', async () => {
    const masters = await loadMasters(api)
    for (const round of [0, 1]) {
      const subs = await insertMembers(api.db, `two-teachers-${round}`, 2)
      const ids = await Promise.all(subs.map((sub) => api.userId(sub)))
      await api.db
        .update(users)
        .set({ isTeacher: true, teacherVerifiedAt: api.now })
        .where(sql`${users.id} in (${ids[0]}, ${ids[1]})`)
      for (const sub of subs) {
        const cls = await postClass(api, masters, sub, { is_published: true })
        expect(cls.status).toBe(201)
      }
      const open = (i: 0 | 1) => api.as(subs[i]!, 'POST', '/v1/rooms', { partner_id: ids[1 - i] })
      // One after the other, then both at once (PostgreSQL: two connections).
      const answers = round === 0 ? [await open(0), await open(1)] : await Promise.all([open(0), open(1)])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 201])
      expect(Room.parse(answers[0]!.body).id).toBe(Room.parse(answers[1]!.body).id)
      const between = await api.db
        .select({ id: rooms.id })
        .from(rooms)
        .where(
          sql`${rooms.teacherId} in (${ids[0]}, ${ids[1]}) and ${rooms.memberId} in (${ids[0]}, ${ids[1]})`,
        )
      expect(between).toHaveLength(1)
    }
  })
})

describe('a teacher not yet approved', () => {
  it('takes no question, even with a class published before approvals existed (0020)', async () => {
    const masters = await loadMasters(api)
    const [teacher, member] = await insertMembers(api.db, 'unapproved-teacher', 2)
    const teacherUserId = await api.userId(teacher!)
    await api.db
      .update(users)
      .set({ isTeacher: true, teacherVerifiedAt: api.now })
      .where(eq(users.id, teacherUserId))
    expect((await postClass(api, masters, teacher!, { is_published: true })).status).toBe(201)
    // Approval withdrawn (or never given, for a class published before approvals): the class stays published.
    await api.db.update(users).set({ teacherVerifiedAt: null }).where(eq(users.id, teacherUserId))
    const asked = await api.as(member!, 'POST', '/v1/rooms', { partner_id: teacherUserId })
    expect(asked.status).toBe(404)
    expect(
      await api.db.select({ id: rooms.id }).from(rooms).where(eq(rooms.teacherId, teacherUserId)),
    ).toEqual([])
    await api.db.update(users).set({ teacherVerifiedAt: api.now }).where(eq(users.id, teacherUserId))
    expect((await api.as(member!, 'POST', '/v1/rooms', { partner_id: teacherUserId })).status).toBe(201)
  })
})

describe('a room with a long history', () => {
  /** Rows each plan node over `messages` produced, summed over its loops (EXPLAIN ANALYZE). */
  const messageRowsRead = async (query: { getSQL(): ReturnType<typeof sql> }) => {
    const rows = rowsOf<Record<string, unknown>>(
      await api.db.execute(sql`explain (analyze, format json) ${query}`),
    )
    const raw = Object.values(rows[0]!)[0]
    const [top] = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[]
    let read = 0
    const walk = (node: PlanNode) => {
      if (node['Relation Name'] === 'messages') read += node['Actual Rows'] * node['Actual Loops']
      for (const child of node.Plans ?? []) walk(child)
    }
    walk(top!.Plan)
    return read
  }
  type PlanNode = {
    'Relation Name'?: string
    'Actual Rows': number
    'Actual Loops': number
    Plans?: PlanNode[]
  }

  it('lists it from its newest messages only, not its whole history (every signed-in page reads the list)', async () => {
    const [member] = await insertMembers(api.db, 'long-history', 1)
    const memberId = await api.userId(member!)
    const opened = await api.as(member!, 'POST', '/v1/rooms', { partner_id: teacherId })
    expect(opened.status).toBe(201)
    const roomId = Room.parse(opened.body).id
    // 3,000 messages over the past days, then the member's newest one held for an operator.
    const start = api.now.getTime() - 3 * 86_400_000
    await api.db.insert(messages).values(
      Array.from({ length: 3000 }, (_, i) => ({
        roomId,
        senderId: i % 2 === 0 ? memberId : teacherId,
        body: `メッセージ${i}`,
        createdAt: new Date(start + i * 60_000),
      })),
    )
    await api.db.insert(messages).values({
      roomId,
      senderId: memberId,
      body: 'LINE ID: long_history',
      status: 'held',
      createdAt: new Date(start + 3000 * 60_000),
    })
    await api.db
      .update(rooms)
      .set({ lastMessageAt: new Date(start + 3000 * 60_000) })
      .where(eq(rooms.id, roomId))
    await api.db.execute(sql`analyze messages`)
    expect((await api.as(SUBS.teacher, 'POST', `/v1/rooms/${roomId}/read`)).status).toBe(200)

    // Each sees the last message they may see: the teacher not the held one, its sender theirs.
    const last = async (sub: string) => (await roomsOf(sub)).find((r) => r.id === roomId)?.last_message?.body
    expect(await last(SUBS.teacher)).toBe('メッセージ2999')
    expect(await last(member!)).toBe('LINE ID: long_history')

    // The room itself pages back through the history, 200 at a time, each page whole and in order.
    const page = async (sub: string, before?: number) => {
      const res = await api.as(sub, 'GET', `/v1/rooms/${roomId}/messages${before ? `?before=${before}` : ''}`)
      expect(res.status).toBe(200)
      return MessageList.parse(res.body)
    }
    const seen: string[] = []
    let current = await page(SUBS.teacher)
    expect(current).toHaveLength(200)
    expect(current.at(-1)!.body).toBe('メッセージ2999')
    for (let pages = 1; current.length > 0; pages++) {
      expect(pages).toBeLessThanOrEqual(16)
      seen.unshift(...current.map((m) => m.body))
      current = await page(SUBS.teacher, current[0]!.id)
    }
    expect(seen).toEqual(Array.from({ length: 3000 }, (_, i) => `メッセージ${i}`))
    // The sender pages from their held message; the teacher cannot name it, nor a message of another room.
    const mine = await page(member!)
    expect(mine.at(-1)!.body).toBe('LINE ID: long_history')
    expect((await page(member!, mine.at(-1)!.id)).at(-1)!.body).toBe('メッセージ2999')
    const [otherRoom] = await api.db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.senderId, parentId)))
      .limit(1)
    for (const before of [mine.at(-1)!.id, otherRoom!.id, 99_999_999]) {
      const res = await api.as(SUBS.teacher, 'GET', `/v1/rooms/${roomId}/messages?before=${before}`)
      expect(res.status, String(before)).toBe(404)
    }
    for (const before of ['abc', '0', '-1', '1e3', '']) {
      const res = await api.as(SUBS.teacher, 'GET', `/v1/rooms/${roomId}/messages?before=${before}`)
      expect(res.status, before).toBe(400)
    }

    // The teacher's whole list reads a handful of messages, not the room's 3,000 (a DISTINCT ON read them all).
    const read = await messageRowsRead(roomListQuery(api.db, teacherId))
    expect(read).toBeLessThan(100)
  })
})

describe('empty rooms', () => {
  it("a stranger's room with no message (or only a held one) is not in the teacher's list; the opener's list has it", async () => {
    const [stranger] = await insertMembers(api.db, 'empty-room', 1)
    const teacherId = await api.userId(SUBS.teacher)
    const opened = await api.as(stranger!, 'POST', '/v1/rooms', { partner_id: teacherId })
    expect(opened.status).toBe(201)
    const roomId = opened.body.id as number
    const listed = async (sub: string) =>
      RoomList.parse((await api.as(sub, 'GET', '/v1/rooms')).body).some((r) => r.id === roomId)
    expect(await listed(stranger!)).toBe(true)
    expect(await listed(SUBS.teacher)).toBe(false)
    // Nor found by probing ids: by room or by person, the teacher gets nothing; the opener gets their room.
    const strangerId = await api.userId(stranger!)
    for (const query of [`room_id=${roomId}`, `partner_id=${strangerId}`])
      expect((await api.as(SUBS.teacher, 'GET', `/v1/rooms?${query}`)).body, query).toEqual([])
    expect(
      RoomList.parse((await api.as(stranger!, 'GET', `/v1/rooms?partner_id=${teacherId}`)).body).map(
        (r) => r.id,
      ),
    ).toEqual([roomId])
    // Opening it again answers the same room (200), still not in the teacher's list.
    expect((await api.as(stranger!, 'POST', '/v1/rooms', { partner_id: teacherId })).status).toBe(200)
    const held = await api.as(stranger!, 'POST', `/v1/rooms/${roomId}/messages`, {
      body: 'インスタは hanako.mama です。ぜろきゅうぜろ いちにさんよん ごろくななはち',
    })
    expect(held.body.status).toBe('held')
    expect(await listed(SUBS.teacher)).toBe(false)
    // Nor by the room's own addresses: reading, marking read (which would list it) and writing are all 404.
    expect((await api.as(SUBS.teacher, 'GET', `/v1/rooms/${roomId}/messages`)).status).toBe(404)
    expect((await api.as(SUBS.teacher, 'POST', `/v1/rooms/${roomId}/read`)).status).toBe(404)
    expect(
      (await api.as(SUBS.teacher, 'POST', `/v1/rooms/${roomId}/messages`, { body: 'こんにちは' })).status,
    ).toBe(404)
    expect(await listed(SUBS.teacher)).toBe(false)
    expect(
      (await api.as(stranger!, 'POST', `/v1/rooms/${roomId}/messages`, { body: '質問です' })).status,
    ).toBe(201)
    expect(await listed(SUBS.teacher)).toBe(true)
  })
})

describe('contact details written to slip past the filter', () => {
  let roomId: number
  const send = async (body: string) => {
    // What is held is the question here, not the per-minute limit (rate-limit.test.ts).
    await api.db.delete(rateLimits)
    const res = await api.as(SUBS.member01, 'POST', `/v1/rooms/${roomId}/messages`, { body })
    expect(res.status).toBe(201)
    return Message.parse(res.body)
  }

  beforeAll(async () => {
    const opened = await api.as(SUBS.member01, 'POST', '/v1/rooms', { partner_id: teacherId })
    expect([200, 201]).toContain(opened.status)
    roomId = Room.parse(opened.body).id
  })

  it('a number with zero-width spaces between its parts is held', async () => {
    expect(await send('電話は090\u200b1234\u200b5678です')).toMatchObject({
      contains_contact_info: true,
      status: 'held',
    })
  })

  it('a number split over two messages holds the one that completes it; the next plain one is visible', async () => {
    expect(await send('電話は090-1234-')).toMatchObject({ status: 'visible' })
    const rest = await send('5678です')
    expect(rest).toMatchObject({ contains_contact_info: true, status: 'held' })
    // The teacher never sees the completing part, and a plain message after it is not held for it.
    expect(await send('よろしくお願いします')).toMatchObject({ status: 'visible' })
    const seen = MessageList.parse((await api.as(SUBS.teacher, 'GET', `/v1/rooms/${roomId}/messages`)).body)
    expect(seen.map((m) => m.body)).not.toContain('5678です')
  })

  it('a number sent a few digits at a time, or one digit a message, is held at its last part', async () => {
    for (const part of ['080', '98', '76']) expect(await send(part)).toMatchObject({ status: 'visible' })
    expect(await send('5432')).toMatchObject({ contains_contact_info: true, status: 'held' })
    await send('よろしくお願いします')
    // A ten-digit number: held at its tenth digit, not before.
    const digits = [...'0312345678']
    for (const d of digits.slice(0, -1)) expect(await send(d)).toMatchObject({ status: 'visible' })
    expect(await send(digits.at(-1)!)).toMatchObject({ status: 'held' })
  })

  it('a lesson talk with numbers over several messages is not held', async () => {
    for (const body of [
      '明日は10:30からです',
      '2年生が3人です',
      '1回目は0円です',
      '教材は5ページまで',
      'よろしくお願いします',
    ])
      expect(await send(body)).toMatchObject({ status: 'visible', contains_contact_info: false })
  })

  it('a number in emoji keycaps is held', async () => {
    expect(await send('電話は0️⃣9️⃣0️⃣-1️⃣2️⃣3️⃣4️⃣-5️⃣6️⃣7️⃣8️⃣です')).toMatchObject({
      contains_contact_info: true,
      status: 'held',
    })
  })

  it('the second half sent while the first is being written (two tabs) is read with it and held (PostgreSQL)', async () => {
    // The first half is being written by another send: its transaction holds the room, as a send does.
    const senderId = await api.userId(SUBS.member01)
    const rest = await whileHeld(
      api,
      async (tx) => {
        await tx.select({ id: rooms.id }).from(rooms).where(eq(rooms.id, roomId)).for('no key update')
        await tx.insert(messages).values({
          roomId,
          senderId,
          body: '電話は080-9876-',
          containsContactInfo: false,
          status: 'visible',
          createdAt: api.now,
        })
      },
      () => send('5432です'),
    )
    expect(rest).toMatchObject({ contains_contact_info: true, status: 'held' })
  })

  it('a held message does not hold the plain ones after it, nor once an operator released it', async () => {
    const held = await send('LINE ID: hanako_99')
    expect(held).toMatchObject({ status: 'held' })
    expect(await send('ありがとうございました')).toMatchObject({ status: 'visible' })
    expect((await api.as(SUBS.operator, 'POST', `/v1/admin/messages/${held.id}/release`)).status).toBe(200)
    expect(await send('またよろしくお願いします')).toMatchObject({ status: 'visible' })
  })
})

describe("a popular teacher's students", () => {
  it(`lists the ${STUDENT_LIMIT} who reserved most recently, and still finds any other one by partner_id`, async () => {
    const masters = await loadMasters(api)
    const cls = (await postClass(api, masters, SUBS.teacher)).body as { id: number }
    const schedule =
      // 06:00 in Tokyo: the demo teacher's seeded lessons start at 10:00 or later (one lesson at a time, 0056).
      (await postSchedule(api, SUBS.teacher, cls.id, tokyoAt(api.now, 3, 6))).body as { id: number }
    const subs = await insertMembers(api.db, 'popular', STUDENT_LIMIT + 2)
    const ids = await Promise.all(subs.map((sub) => api.userId(sub)))
    // Reserved one after another, the first longest ago; all after the demo's own students.
    await api.db.insert(purchases).values(
      ids.map((userId, i) => ({
        scheduleId: schedule.id,
        userId,
        price: 0,
        commission: 0,
        status: 'reserved',
        createdAt: new Date(api.now.getTime() + (i + 1) * 1000),
      })),
    )
    const listed = DestinationList.parse(
      (await api.as(SUBS.teacher, 'GET', '/v1/destinations?candidate=students')).body,
    )
    expect(listed).toHaveLength(STUDENT_LIMIT)
    const shown = new Set(listed.map((d) => d.id))
    expect(ids.slice(2).every((id) => shown.has(id))).toBe(true)
    expect(shown.has(ids[0]!) || shown.has(ids[1]!)).toBe(false)
    // The oldest is still a destination: found by partner_id, and a room opens with them.
    const found = DestinationList.parse(
      (await api.as(SUBS.teacher, 'GET', `/v1/destinations?candidate=students&partner_id=${ids[0]}`)).body,
    )
    expect(found.map((d) => d.id)).toEqual([ids[0]])
    const opened = await api.as(SUBS.teacher, 'POST', '/v1/rooms', { partner_id: ids[0] })
    expect(opened.status).toBe(201)

    // And by nickname, among all of them (?q=): LIKE's wildcards are literal, at most 50 answer.
    await api.db.update(users).set({ nickname: 'ひまわり_100%' }).where(eq(users.id, ids[1]!))
    const search = async (q: string, sub: string = SUBS.teacher) => {
      const res = await api.as(sub, 'GET', `/v1/destinations?candidate=students&q=${encodeURIComponent(q)}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      return DestinationList.parse(res.body).map((d) => d.id)
    }
    expect(await search('ひまわり')).toEqual([ids[1]])
    expect(await search('_100%')).toEqual([ids[1]])
    expect(await search('%')).toEqual([ids[1]])
    expect(await search('  ひまわり  ')).toEqual([ids[1]])
    // Folded as the class search folds: katakana, half-width kana and full-width letters find the nickname.
    await api.db.update(users).set({ nickname: 'ユキミABC' }).where(eq(users.id, ids[2]!))
    for (const q of ['ゆきみ', 'ユキミ', 'ﾕｷﾐ', 'ＡＢＣ', 'abc', 'きみa'])
      expect(await search(q), q).toEqual([ids[2]])
    expect(await search('受講者')).toHaveLength(DESTINATION_SEARCH_LIMIT)
    expect(await search('いない名前')).toEqual([])
    // Another teacher's students are not found; a bad q is 400.
    expect(await search('ひまわり', SUBS.emily)).toEqual([])
    for (const bad of ['', '   ', 'あ'.repeat(51)])
      expect(
        (
          await api.as(
            SUBS.teacher,
            'GET',
            `/v1/destinations?candidate=students&q=${encodeURIComponent(bad)}`,
          )
        ).status,
        JSON.stringify(bad),
      ).toBe(400)
  })
})
