import { and, asc, desc, eq, gt, ilike, inArray, isNotNull, isNull, ne, or, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Destination, Message, Room } from '../../contract/v1/rooms'
import type { Db, Tx } from '../../db/client'
import {
  classWorkSchedules,
  classWorks,
  follows,
  messages,
  purchases,
  roomMembers,
  rooms,
  users,
} from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { containsContactInfo } from '../../lib/contact-detector'
import { escapeLike } from '../../lib/like'
import { DESTINATION_SEARCH_LIMIT, MESSAGE_PAGE_SIZE, STUDENT_LIMIT } from '../../lib/page-sizes'
import { foldKana } from '../../lib/search-normalize'
import type { UserRow } from '../auth'
import { ApiError, notFound } from '../errors'
import { refuseIfSuspended } from './account-state'
import { iso } from './class-cards'
import { publicTeacher } from './teachers'

/** The most rooms a list holds (the most recent ones). */
const ROOM_LIMIT = 200

/**
 * Which of the caller's rooms: their most recent ones, or one room (by id, or the one with a partner) wherever it
 * stands in the list — a popular teacher's conversation pushed out of the newest ROOM_LIMIT can still be opened.
 */
export type RoomFilter = { roomId?: number; partnerId?: number }

/**
 * The caller's rooms, most recent activity first, each with the number of unread messages from the partner. A
 * room with no message yet is listed only to whoever opened or visited it: anyone may open a room with a teacher
 * (a question before booking), and a stranger's empty room — or one whose only message is held — must not
 * appear in the teacher's list. With a filter: that room only (what opening a room answers; none when not theirs).
 */
export async function listRooms(db: Db, userId: number, filter: RoomFilter = {}): Promise<Room[]> {
  const rows = await roomListQuery(db, userId, filter)
  return rows.map((r) => ({
    id: r.id,
    partner: {
      id: r.partnerId,
      nickname: r.partnerNickname,
      avatar_url: r.partnerAvatarUrl,
      is_teacher: r.partnerIsTeacher,
    },
    last_message:
      r.lastId !== null && r.lastSenderId !== null && r.lastBody !== null && r.lastCreatedAt !== null
        ? { id: r.lastId, sender_id: r.lastSenderId, body: r.lastBody, created_at: iso(r.lastCreatedAt) }
        : null,
    unread_count: Number(r.unread),
    updated_at: iso(r.lastMessageAt ?? r.createdAt),
    can_send: !r.partnerSuspended,
  }))
}

/**
 * The one statement behind listRooms: the caller's 200 most recent rooms first, then, for those only, the unread
 * count and the last message. The last message is a LATERAL probe of messages_room_created_idx from the newest end
 * (LIMIT 1), so the list costs the same however long a room's history is; a DISTINCT ON over the rooms' messages
 * read every message ever sent, on every signed-in page (the header's unread count). Exported for the test that
 * checks the plan.
 */
export function roomListQuery(db: Db, userId: number, { roomId, partnerId }: RoomFilter = {}) {
  const partner = alias(users, 'partner')
  const list = db
    .select({
      id: rooms.id,
      createdAt: rooms.createdAt,
      lastMessageAt: rooms.lastMessageAt,
      lastReadAt: roomMembers.lastReadAt,
      sortAt: sql<Date>`coalesce(${rooms.lastMessageAt}, ${rooms.createdAt})`.as('sort_at'),
      partnerId: sql<number>`${partner.id}`.as('partner_id'),
      partnerNickname: sql<string>`${partner.nickname}`.as('partner_nickname'),
      partnerAvatarUrl: sql<string | null>`${partner.avatarUrl}`.as('partner_avatar_url'),
      partnerIsTeacher: sql<boolean>`${partner.isTeacher}`.as('partner_is_teacher'),
      partnerSuspended: sql<boolean>`${partner.suspendedAt} is not null`.as('partner_suspended'),
    })
    .from(roomMembers)
    .innerJoin(rooms, eq(rooms.id, roomMembers.roomId))
    .innerJoin(
      partner,
      eq(
        partner.id,
        sql`case when ${rooms.teacherId} = ${userId} then ${rooms.memberId} else ${rooms.teacherId} end`,
      ),
    )
    .where(
      and(
        eq(roomMembers.userId, userId),
        // Looked up by id or partner too: probing partner ids must not reveal a stranger's empty room.
        or(isNotNull(rooms.lastMessageAt), isNotNull(roomMembers.lastReadAt)),
        roomId === undefined ? undefined : eq(rooms.id, roomId),
        partnerId === undefined ? undefined : eq(partner.id, partnerId),
      ),
    )
    .orderBy(desc(sql`sort_at`), desc(rooms.id))
    .limit(ROOM_LIMIT)
    .as('room_list')
  const unread = sql<number>`(select count(*)::int from ${messages} where ${messages.roomId} = ${list.id} and ${messages.senderId} <> ${userId} and ${messages.status} = 'visible' and ${messages.createdAt} > coalesce(${list.lastReadAt}, '-infinity'::timestamptz))`
  const last = db
    .select({
      id: sql<number>`${messages.id}`.as('last_id'),
      senderId: sql<number>`${messages.senderId}`.as('last_sender_id'),
      body: sql<string>`${messages.body}`.as('last_body'),
      createdAt: sql<Date>`${messages.createdAt}`.mapWith(messages.createdAt).as('last_created_at'),
    })
    .from(messages)
    .where(and(eq(messages.roomId, list.id), seenBy(userId)))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1)
    .as('last_message')
  return db
    .select({
      id: list.id,
      createdAt: list.createdAt,
      lastMessageAt: list.lastMessageAt,
      partnerId: list.partnerId,
      partnerNickname: list.partnerNickname,
      partnerAvatarUrl: list.partnerAvatarUrl,
      partnerIsTeacher: list.partnerIsTeacher,
      partnerSuspended: list.partnerSuspended,
      unread,
      lastId: last.id,
      lastSenderId: last.senderId,
      lastBody: last.body,
      lastCreatedAt: last.createdAt,
    })
    .from(list)
    .leftJoinLateral(last, sql`true`)
    .orderBy(desc(list.sortAt), desc(list.id))
}

/**
 * Unread messages from partners over all of the caller's rooms (the header's badge), not only the newest
 * ROOM_LIMIT. Only rooms with a message after the caller's read mark are counted into: a member with thousands of
 * read rooms costs one pass over their memberships, not a probe of every room's messages.
 */
export async function unreadMessageCount(db: Db, userId: number): Promise<number> {
  const [row] = await db
    .select({
      n: sql<number>`coalesce(sum((select count(*)::int from ${messages} where ${messages.roomId} = ${rooms.id} and ${messages.senderId} <> ${userId} and ${messages.status} = 'visible' and ${messages.createdAt} > coalesce(${roomMembers.lastReadAt}, '-infinity'::timestamptz))), 0)::int`,
    })
    .from(roomMembers)
    .innerJoin(rooms, eq(rooms.id, roomMembers.roomId))
    .where(
      and(
        eq(roomMembers.userId, userId),
        sql`${rooms.lastMessageAt} > coalesce(${roomMembers.lastReadAt}, '-infinity'::timestamptz)`,
      ),
    )
  return Number(row?.n ?? 0)
}

/**
 * Messages of a room the caller is in: the latest MESSAGE_PAGE_SIZE, oldest first; with `before`, the page just
 * older than that message (keyset on created_at, id, so a page stays whole while new messages arrive). Other rooms,
 * and a `before` the caller cannot see there, do not exist for them.
 */
export async function roomMessages(
  db: Db,
  userId: number,
  roomId: number,
  before?: number,
): Promise<Message[]> {
  await requireVisibleRoom(db, userId, roomId)
  let older: SQL | undefined
  if (before !== undefined) {
    const [from] = await db
      .select({ id: messages.id, createdAt: messages.createdAt })
      .from(messages)
      .where(and(eq(messages.id, before), eq(messages.roomId, roomId), seenBy(userId)))
      .limit(1)
    if (!from) throw notFound('メッセージ')
    // As text: postgres-js takes no Date in a raw fragment (PGlite would).
    older = sql`(${messages.createdAt}, ${messages.id}) < (${from.createdAt.toISOString()}::timestamptz, ${from.id})`
  }
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.roomId, roomId), seenBy(userId), older))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(MESSAGE_PAGE_SIZE)
  return rows.reverse().map((m) => ({
    id: m.id,
    room_id: m.roomId,
    sender_id: m.senderId,
    body: m.body,
    created_at: iso(m.createdAt),
    is_mine: m.senderId === userId,
    contains_contact_info: m.containsContactInfo,
    status: m.status as Message['status'],
  }))
}

/** What a member sees of a room: visible messages, and their own whatever became of them (held, deleted). */
const seenBy = (userId: number) => or(eq(messages.status, 'visible'), eq(messages.senderId, userId))

/**
 * Whom the caller may write to. `teachers`: teachers the caller reserved or follows.
 * `students`: members who reserved one of the caller's classes.
 */
export async function destinations(
  db: Db,
  userId: number,
  candidate: 'teachers' | 'students',
  /** Only this person, if they are one (opening a room, /message?to=): not the whole list to find one. */
  partnerId?: number,
  /** Only those whose nickname contains this, at most DESTINATION_SEARCH_LIMIT, among all of them. */
  nickname?: string,
): Promise<Destination[]> {
  const whole = partnerId !== undefined || nickname !== undefined
  const reservedTeachers = db
    .selectDistinct({ id: classWorks.teacherId })
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .where(and(eq(purchases.userId, userId), eq(purchases.status, 'reserved')))
  const followed = db.select({ id: follows.teacherId }).from(follows).where(eq(follows.followerId, userId))
  // A popular teacher's students run to thousands: the list holds the most recent (a given one is still found
  // with partnerId).
  const studentsQuery = db
    .select({ id: purchases.userId })
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .where(
      and(
        eq(classWorks.teacherId, userId),
        eq(purchases.status, 'reserved'),
        partnerId === undefined ? undefined : eq(purchases.userId, partnerId),
      ),
    )
    .groupBy(purchases.userId)
  const students = whole
    ? studentsQuery
    : studentsQuery
        .orderBy(desc(sql`max(${purchases.createdAt})`), desc(purchases.userId))
        .limit(STUDENT_LIMIT)

  const asTeacherSide = candidate === 'students'
  const roomJoin = asTeacherSide
    ? and(eq(rooms.teacherId, userId), eq(rooms.memberId, users.id))
    : and(eq(rooms.teacherId, users.id), eq(rooms.memberId, userId))
  const who = asTeacherSide
    ? and(inArray(users.id, students), isNull(users.suspendedAt))
    : and(
        // A teacher with a public page (approved): a follow made before pages waited for it names no one else.
        publicTeacher,
        // A suspended account can no longer be written to.
        isNull(users.suspendedAt),
        sql`(${inArray(users.id, reservedTeachers)} or ${inArray(users.id, followed)})`,
      )
  const query = db
    .select({
      id: users.id,
      nickname: users.nickname,
      avatarUrl: users.avatarUrl,
      isTeacher: users.isTeacher,
      roomId: rooms.id,
    })
    .from(users)
    .leftJoin(rooms, roomJoin)
    .where(
      and(
        who,
        sql`${users.id} <> ${userId}`,
        partnerId === undefined ? undefined : eq(users.id, partnerId),
        nickname === undefined ? undefined : nicknameContains(nickname),
      ),
    )
    .orderBy(asc(users.nickname), asc(users.id))
    .$dynamic()
  const rows = await (nickname === undefined ? query : query.limit(DESTINATION_SEARCH_LIMIT))
  return rows.map((r) => ({
    id: r.id,
    nickname: r.nickname,
    avatar_url: r.avatarUrl,
    is_teacher: r.isTeacher,
    room_id: r.roomId,
  }))
}

const KATAKANA = String.fromCharCode(
  ...Array.from({ length: 0x30f6 - 0x30a1 + 1 }, (_, i) => 0x30a1 + i),
  0x30fd,
  0x30fe,
)
const HIRAGANA = String.fromCharCode(...Array.from(KATAKANA, (ch) => ch.charCodeAt(0) - 0x60))

/**
 * A nickname containing `q` as a Japanese reader would search it: both sides folded alike (foldKana: NFKC,
 * katakana as hiragana; ILIKE for case), so ハナコ and ﾊﾅｺ find はなこ. The set searched is one teacher's students,
 * so no index is needed.
 */
function nicknameContains(q: string): SQL {
  const folded = sql`translate(normalize(${users.nickname}, NFKC), ${KATAKANA}, ${HIRAGANA})`
  return ilike(folded, `%${escapeLike(foldKana(q.trim()))}%`)
}

/**
 * A room the caller is in and may see: the rule of their list (listRooms). A stranger's room whose only message
 * is held, or that has none, does not exist for its other member: probing ids must not let them find it, mark it
 * read into their list, or write into it.
 */
async function requireVisibleRoom(tx: Tx | Db, userId: number, roomId: number) {
  const [member] = await tx
    .select({ roomId: roomMembers.roomId })
    .from(roomMembers)
    .innerJoin(rooms, eq(rooms.id, roomMembers.roomId))
    .where(
      and(
        eq(roomMembers.roomId, roomId),
        eq(roomMembers.userId, userId),
        or(isNotNull(rooms.lastMessageAt), isNotNull(roomMembers.lastReadAt)),
      ),
    )
    .limit(1)
  if (!member) throw notFound('メッセージルーム')
}

/** An active public teacher with at least one published class: members may ask them before booking. */
async function teachesPublicly(db: Db, teacherId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: classWorks.id })
    .from(classWorks)
    .innerJoin(users, eq(users.id, classWorks.teacherId))
    .where(
      and(
        eq(classWorks.teacherId, teacherId),
        eq(classWorks.isPublished, true),
        // Approved (0020): a class published before approvals existed is no way to an unverified adult.
        publicTeacher,
        isNull(users.suspendedAt),
      ),
    )
    .limit(1)
  return row !== undefined
}

/**
 * Opens the room with a partner from the caller's destinations (POST /v1/rooms): a teacher the caller
 * reserved or follows, or any teacher with a published class (a question before booking), or — for a
 * teacher — a member who reserved their class. An existing room is returned
 * as it is (created: false). Anyone else is 404, like a user who does not exist.
 */
export async function openRoom(
  db: Db,
  user: UserRow,
  partnerId: number,
  now: Date,
  firstMessage?: string,
): Promise<{ room: Room; created: boolean }> {
  let teacherId: number
  let memberId: number
  if ((await destinations(db, user.id, 'teachers', partnerId)).length > 0) {
    teacherId = partnerId
    memberId = user.id
  } else if (user.isTeacher && (await destinations(db, user.id, 'students', partnerId)).length > 0) {
    teacherId = user.id
    memberId = partnerId
  } else if (partnerId !== user.id && (await teachesPublicly(db, partnerId))) {
    // 「先生に質問する」 (issue 16): a question before any booking, to a teacher with a published class.
    teacherId = partnerId
    memberId = user.id
  } else {
    throw notFound('メッセージの送信先')
  }
  const { roomId, created } = await transaction(db, async (tx) => {
    // The opener's account first (0015): a suspension committed since the sign-in check ends this write too.
    await refuseIfSuspended(tx, user.id, 'key share')
    // One room per pair of people, whichever of them is the "teacher" of it: two teachers may each open one to the
    // other (both teach publicly). The pair's lock makes the look-up and the insert one step across instances
    // (the two-integer advisory keys are used for nothing else; the setup lock is a single bigint key).
    const [low, high] = teacherId < memberId ? [teacherId, memberId] : [memberId, teacherId]
    await tx.execute(sql`select pg_advisory_xact_lock(${low}::int, ${high}::int)`)
    const [found] = await tx
      .select({ id: rooms.id })
      .from(rooms)
      .where(
        or(
          and(eq(rooms.teacherId, teacherId), eq(rooms.memberId, memberId)),
          and(eq(rooms.teacherId, memberId), eq(rooms.memberId, teacherId)),
        ),
      )
      .orderBy(asc(rooms.id))
      .limit(1)
    const [room] = found
      ? []
      : await tx
          .insert(rooms)
          .values({ teacherId, memberId, createdAt: now })
          .onConflictDoNothing()
          .returning({ id: rooms.id })
    if (room)
      await tx.insert(roomMembers).values([
        { roomId: room.id, userId: teacherId },
        { roomId: room.id, userId: memberId },
      ])
    const [existing] = room
      ? [room]
      : found
        ? [found]
        : await tx
            .select({ id: rooms.id })
            .from(rooms)
            .where(and(eq(rooms.teacherId, teacherId), eq(rooms.memberId, memberId)))
    // The opener has the room in their list from now on, even before the first message. With a message, sending
    // does it: the room row first, then the membership, as every send locks them (0015; another tab's send).
    if (firstMessage !== undefined) await insertMessage(tx, user.id, existing!.id, firstMessage, now)
    else
      await tx
        .update(roomMembers)
        .set({ lastReadAt: sql`coalesce(${roomMembers.lastReadAt}, ${now.toISOString()}::timestamptz)` })
        .where(and(eq(roomMembers.roomId, existing!.id), eq(roomMembers.userId, user.id)))
    return { roomId: existing!.id, created: Boolean(room) }
  })
  const [room] = await listRooms(db, user.id, { roomId })
  if (!room) throw notFound('メッセージの送信先')
  return { room, created }
}

/**
 * Sends a message (POST /v1/rooms/{id}/messages). The contact-details flag is computed here from the body;
 * whatever the client believed is ignored. The partner's messages stay as read or unread as they were.
 */
export async function sendMessage(
  db: Db,
  userId: number,
  roomId: number,
  body: string,
  now: Date,
): Promise<Message> {
  return transaction(db, async (tx) => {
    // The sender's account first (0015): a suspension committed since the sign-in check ends this send too.
    await refuseIfSuspended(tx, userId, 'key share')
    await requireVisibleRoom(tx, userId, roomId)
    // A suspended account can no longer be written to, in a room opened before the suspension too.
    const [partner] = await tx
      .select({ suspendedAt: users.suspendedAt })
      .from(roomMembers)
      .innerJoin(users, eq(users.id, roomMembers.userId))
      .where(and(eq(roomMembers.roomId, roomId), ne(roomMembers.userId, userId)))
      .limit(1)
    if (partner?.suspendedAt)
      throw new ApiError(410, 'gone', 'この相手は現在ご利用いただけないため、メッセージを送れません')
    return insertMessage(tx, userId, roomId, body, now)
  })
}

/** How far back a message may be the first part of contact details split over several messages. */
export const SPLIT_CONTACT_WINDOW_MS = 10 * 60_000
/** Earlier messages read with a new one: enough for a phone number sent one digit at a time. */
const SPLIT_CONTACT_PARTS = 10

/**
 * Whether this message completes contact details begun in the sender's last visible messages of the room
 * ('電話は090-1234-', then '5678です'): each part alone passes the check, together they do not. Parts that were
 * flagged themselves (held, or released by an operator) are left out, so a plain message after one is not held.
 * Up to SPLIT_CONTACT_PARTS earlier parts: a number sent a few digits at a time ('080', '98', '76', '5432').
 */
async function completesSplitContact(tx: Tx, userId: number, roomId: number, body: string, now: Date) {
  const recent = await tx
    .select({ body: messages.body })
    .from(messages)
    .where(
      and(
        eq(messages.roomId, roomId),
        eq(messages.senderId, userId),
        eq(messages.status, 'visible'),
        // A part that carried contact details by itself (held, then released by an operator) is judged already.
        eq(messages.containsContactInfo, false),
        gt(messages.createdAt, new Date(now.getTime() - SPLIT_CONTACT_WINDOW_MS)),
      ),
    )
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(SPLIT_CONTACT_PARTS)
  if (recent.length === 0) return false
  return containsContactInfo([...recent.reverse().map((m) => m.body), body].join('\n'))
}

/** One message into a room the caller is in; the caller's transaction. */
async function insertMessage(
  tx: Tx,
  userId: number,
  roomId: number,
  body: string,
  now: Date,
): Promise<Message> {
  // The room first (0015): sends into one room queue here, so a message split over two tabs at once is read
  // whole by the second (completesSplitContact sees the first, committed).
  await tx.select({ id: rooms.id }).from(rooms).where(eq(rooms.id, roomId)).for('no key update')
  // Contact details sent after the composer's warning: held for an operator; the recipient sees nothing yet.
  const flagged = containsContactInfo(body) || (await completesSplitContact(tx, userId, roomId, body, now))
  const [m] = await tx
    .insert(messages)
    .values({
      roomId,
      senderId: userId,
      body,
      containsContactInfo: flagged,
      status: flagged ? 'held' : 'visible',
      createdAt: now,
    })
    .returning()
  if (!flagged) {
    // Never backwards (an instance whose clock is behind): the header's count reads rooms with news by it.
    await tx
      .update(rooms)
      .set({ lastMessageAt: sql`greatest(${rooms.lastMessageAt}, ${now.toISOString()}::timestamptz)` })
      .where(eq(rooms.id, roomId))
    await enqueue(tx, 'notify.message', { messageId: m!.id })
  }
  // The room is in the sender's list from now on. Sending does not mark the partner's messages read: a message
  // sent from a class page (「先生に質問する」) is written without them in view, and one of theirs still in flight
  // carries an earlier time than this send. The room page marks what it shows (markRoomRead).
  await tx
    .update(roomMembers)
    .set({ lastReadAt: sql`coalesce(${roomMembers.lastReadAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, userId)))
  return {
    id: m!.id,
    room_id: roomId,
    sender_id: userId,
    body: m!.body,
    created_at: iso(m!.createdAt),
    is_mine: true,
    contains_contact_info: m!.containsContactInfo,
    status: m!.status as Message['status'],
  }
}

/**
 * Marks every message in the room read for the caller (POST /v1/rooms/{id}/read): read up to the partner's newest
 * visible message, not up to `now`. A message being sent at that moment carries its sender's time, which can be
 * earlier (a transaction not yet committed, an instance whose clock is behind): marked read up to `now`, it would
 * never have counted as unread. Never earlier than before; `now` only for a room with nothing in it yet.
 */
export async function markRoomRead(db: Db, userId: number, roomId: number, now: Date) {
  return transaction(db, async (tx) => {
    await requireVisibleRoom(tx, userId, roomId)
    // The partner's newest visible message (0042): the reader's own never count as unread, and one sent just
    // before would mark read a partner message recorded with an earlier time that commits after this.
    const latest = sql`(select max(${messages.createdAt}) from ${messages} where ${messages.roomId} = ${roomId} and ${messages.status} = 'visible' and ${messages.senderId} <> ${userId})`
    await tx
      .update(roomMembers)
      .set({
        lastReadAt: sql`coalesce(greatest(${roomMembers.lastReadAt}, ${latest}), ${now.toISOString()}::timestamptz)`,
      })
      .where(and(eq(roomMembers.roomId, roomId), eq(roomMembers.userId, userId)))
    return { room_id: roomId, unread_count: 0 }
  })
}
