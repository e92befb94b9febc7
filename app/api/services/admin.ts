import { and, asc, desc, eq, isNull, ne, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { z } from 'zod'
import type {
  AdminNotice,
  AuditPage,
  AuditQuery,
  CreateNoticeBody,
  HeldMessage,
} from '../../contract/v1/admin'
import { audit, listAudit } from '../../db/audit'
import type { Db } from '../../db/client'
import { messages, notices, roomMembers, rooms, users } from '../../db/schema'
import { enqueue } from '../../jobs/queue.server'
import { contactKindsLabel, detectContactInfo } from '../../lib/contact-detector'
import { ADMIN_LIST_PAGE_SIZE } from '../../lib/page-sizes'
import { actorLabel, type UserRow } from '../auth'
import { ApiError, notFound, ownAccount } from '../errors'
import { iso } from './class-cards'
import { renderNoticeMarkdown } from './markdown'

/** Operator work (issue 15). Every function here is reached only through requireOperator; each write is audited. */

function noticeState(n: { publishedAt: Date; withdrawnAt: Date | null }, now: Date): AdminNotice['state'] {
  if (n.withdrawnAt) return 'withdrawn'
  return n.publishedAt.getTime() > now.getTime() ? 'scheduled' : 'published'
}

const adminNoticeColumns = {
  id: notices.id,
  title: notices.title,
  body: notices.body,
  bodyHtml: notices.bodyHtml,
  publishedAt: notices.publishedAt,
  withdrawnAt: notices.withdrawnAt,
  createdBy: users.nickname,
}

type AdminNoticeRow = {
  id: number
  title: string
  body: string
  bodyHtml: string | null
  publishedAt: Date
  withdrawnAt: Date | null
  createdBy: string | null
}

const toAdminNotice = (r: AdminNoticeRow, now: Date): AdminNotice => ({
  id: r.id,
  title: r.title,
  body: r.body,
  body_html: r.bodyHtml,
  published_at: iso(r.publishedAt),
  withdrawn_at: r.withdrawnAt ? iso(r.withdrawnAt) : null,
  state: noticeState(r, now),
  created_by: r.createdBy,
})

/** A page of notices, scheduled and withdrawn ones too, latest publication first. */
export async function adminListNotices(db: Db, now: Date, page: number): Promise<AdminNotice[]> {
  const rows = await db
    .select(adminNoticeColumns)
    .from(notices)
    .leftJoin(users, eq(users.id, notices.createdBy))
    .orderBy(desc(notices.publishedAt), desc(notices.id))
    .limit(ADMIN_LIST_PAGE_SIZE)
    .offset((page - 1) * ADMIN_LIST_PAGE_SIZE)
  return rows.map((r) => toAdminNotice(r, now))
}

/**
 * Writes a notice to appear at `published_at` (now when absent). Its Markdown is rendered once here; the mail to
 * members who opted in goes out when it appears (a job queued for that time, in the same transaction).
 */
export async function adminCreateNotice(
  db: Db,
  operator: UserRow,
  body: CreateNoticeBody,
  now: Date,
  address?: string,
): Promise<AdminNotice> {
  const publishedAt = body.published_at ? new Date(body.published_at) : now
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(notices)
      .values({
        title: body.title,
        body: body.body,
        bodyHtml: renderNoticeMarkdown(body.body),
        publishedAt,
        createdBy: operator.id,
      })
      .returning()
    await audit(tx, {
      actorId: operator.id,
      actorLabel: actorLabel(operator),
      action: 'notice_create',
      targetType: 'notice',
      targetId: row!.id,
      address,
      after: { title: row!.title, published_at: iso(publishedAt) },
    })
    await enqueue(
      tx,
      'notify.notice',
      { noticeId: row!.id },
      { runAt: publishedAt, dedupeKey: `notice:${row!.id}` },
    )
    return toAdminNotice({ ...row!, createdBy: operator.nickname }, now)
  })
}

/** Takes a notice down (scheduled or published): members no longer see it. Withdrawing twice is 409. */
export async function adminWithdrawNotice(
  db: Db,
  operator: UserRow,
  id: number,
  now: Date,
  address?: string,
): Promise<AdminNotice> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(notices).where(eq(notices.id, id)).for('update')
    if (!before) throw notFound('お知らせ')
    if (before.withdrawnAt)
      throw new ApiError(409, 'already_withdrawn', 'このお知らせはすでに取り下げています')
    const [row] = await tx
      .update(notices)
      .set({ withdrawnAt: now })
      .where(and(eq(notices.id, id), isNull(notices.withdrawnAt)))
      .returning()
    await audit(tx, {
      actorId: operator.id,
      actorLabel: actorLabel(operator),
      action: 'notice_withdraw',
      targetType: 'notice',
      targetId: id,
      address,
      before: { title: before.title, state: noticeState(before, now) },
      after: { state: 'withdrawn' },
    })
    const [creator] = row!.createdBy
      ? await tx.select({ nickname: users.nickname }).from(users).where(eq(users.id, row!.createdBy))
      : []
    return toAdminNotice({ ...row!, createdBy: creator?.nickname ?? null }, now)
  })
}

/** Tokyo midnight of a YYYY-MM-DD day. */
const tokyoDayStart = (day: string) => new Date(`${day}T00:00:00+09:00`)

export async function adminAuditPage(db: Db, query: z.output<typeof AuditQuery>): Promise<AuditPage> {
  const to = query.to ? new Date(tokyoDayStart(query.to).getTime() + 24 * 3600_000) : undefined
  const { entries, hasNext } = await listAudit(db, {
    action: query.action,
    actorId: query.actor_id,
    from: query.from ? tokyoDayStart(query.from) : undefined,
    to,
    page: query.page,
  })
  return {
    page: query.page,
    has_next: hasNext,
    entries: entries.map((e) => ({
      id: e.id,
      at: iso(e.at),
      actor_id: e.actorId,
      actor_label: e.actorLabel,
      action: e.action as AuditPage['entries'][number]['action'],
      target_type: e.targetType,
      target_id: e.targetId,
      address: e.address,
      before: e.before,
      after: e.after,
    })),
  }
}

const senders = alias(users, 'senders')
const recipients = alias(users, 'recipients')

/**
 * Messages held for review, oldest first (the longest-waiting first). Not those of the operator's own rooms: one
 * held for them is not theirs to read before another operator releases it (0019), nor theirs to decide.
 */
export async function adminHeldMessages(db: Db, operatorId: number): Promise<HeldMessage[]> {
  const rows = await db
    .select({
      id: messages.id,
      roomId: messages.roomId,
      body: messages.body,
      createdAt: messages.createdAt,
      senderId: senders.id,
      senderNickname: senders.nickname,
      recipientId: recipients.id,
      recipientNickname: recipients.nickname,
    })
    .from(messages)
    .innerJoin(senders, eq(senders.id, messages.senderId))
    .innerJoin(rooms, eq(rooms.id, messages.roomId))
    .leftJoin(
      recipients,
      eq(
        recipients.id,
        sql`case when ${rooms.teacherId} = ${messages.senderId} then ${rooms.memberId} else ${rooms.teacherId} end`,
      ),
    )
    .where(and(eq(messages.status, 'held'), ne(rooms.teacherId, operatorId), ne(rooms.memberId, operatorId)))
    .orderBy(asc(messages.createdAt), asc(messages.id))
    .limit(200)
  return rows.map((r) => ({
    id: r.id,
    room_id: r.roomId,
    body: r.body,
    created_at: iso(r.createdAt),
    found: contactKindsLabel(detectContactInfo(r.body).kinds) || '連絡先',
    sender: { id: r.senderId, nickname: r.senderNickname },
    recipient: r.recipientId ? { id: r.recipientId, nickname: r.recipientNickname ?? '' } : null,
  }))
}

/**
 * Releases a held message to its recipient (it then counts as new, and the usual mail and live event follow) or
 * deletes it (the recipient never sees it; the sender sees that it was removed). Only a held message can be either.
 */
export async function adminModerateMessage(
  db: Db,
  operator: UserRow,
  id: number,
  decision: 'release' | 'delete',
  now: Date,
  address?: string,
) {
  return db.transaction(async (tx) => {
    // The sender first, as a suspension locks it before their messages (0015): a suspended sender's held message
    // is never delivered, whichever of the two operators acts first.
    const [peek] = await tx.select({ senderId: messages.senderId }).from(messages).where(eq(messages.id, id))
    if (!peek) throw notFound('メッセージ')
    const [sender] = await tx
      .select({ suspendedAt: users.suspendedAt })
      .from(users)
      .where(eq(users.id, peek.senderId))
      .for('share')
    const [m] = await tx.select().from(messages).where(eq(messages.id, id)).for('update')
    if (!m) throw notFound('メッセージ')
    if (m.status !== 'held') throw new ApiError(409, 'not_held', 'このメッセージは確認待ちではありません')
    if (m.senderId === operator.id) throw ownAccount()
    // Nor one sent to them: a message in a room of theirs is their own interest, as for reports (0020).
    const [recipient] = await tx
      .select({ userId: roomMembers.userId })
      .from(roomMembers)
      .where(and(eq(roomMembers.roomId, m.roomId), eq(roomMembers.userId, operator.id)))
    if (recipient) throw ownAccount()
    if (decision === 'release' && sender?.suspendedAt)
      throw new ApiError(409, 'sender_suspended', '利用停止中のアカウントのメッセージは届けられません')
    const status = decision === 'release' ? 'visible' : 'deleted'
    await tx
      .update(messages)
      // Released, it arrives now: after anything the recipient has read meanwhile (unread, mail, order).
      .set({
        status,
        moderatedAt: now,
        moderatedBy: operator.id,
        ...(status === 'visible' ? { createdAt: now } : {}),
      })
      .where(eq(messages.id, id))
    if (status === 'visible') {
      await tx
        .update(rooms)
        .set({ lastMessageAt: sql`greatest(${rooms.lastMessageAt}, ${now.toISOString()}::timestamptz)` })
        .where(eq(rooms.id, m.roomId))
      await enqueue(tx, 'notify.message', { messageId: id })
    }
    await audit(tx, {
      actorId: operator.id,
      actorLabel: actorLabel(operator),
      action: decision === 'release' ? 'message_release' : 'message_delete',
      targetType: 'message',
      targetId: id,
      address,
      before: { status: 'held', sender_id: m.senderId },
      after: { status },
    })
    return { id, status: status as 'visible' | 'deleted' }
  })
}
