import { and, eq, gt, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { noticePlainText } from '../api/services/markdown'
import type { ReceiptIssuer } from '../api/services/payments'
import { expireOffers, offerDetails } from '../api/services/waitlist'
import type { Db, DbOrTx } from '../db/client'
import {
  classAnnouncements,
  classRequests,
  classWorkScheduleLessons,
  classWorkSchedules,
  classWorks,
  jobs,
  learners,
  mails,
  messages,
  notices,
  notificationPreferences,
  notificationThrottles,
  organizations,
  payments,
  purchases,
  refunds,
  reviews,
  roomMembers,
  rooms,
  teacherVerifications,
  users,
  waitlistEntries,
} from '../db/schema'
import { transaction } from '../db/transaction'
import { enqueue } from '../jobs/queue.server'
import type { Job, JobHandler, RecurringJob } from '../jobs/runner.server'
import { JobNotDueError, PermanentJobError } from '../jobs/runner.server'
import { addressName } from '../lib/format'
import { receiptNumber } from '../lib/money'
import { notificationKind } from '../lib/notification-kinds'
import { cancelDeadline } from '../lib/reservation-rules'
import type { MailRequest, MailSettings } from '../mail/mailer.server'
import { MAIL_MAX_ATTEMPTS, sendMail } from '../mail/mailer.server'
import type { TemplateName, TemplateProps } from '../mail/templates'
import { templates } from '../mail/templates'
import type { LiveEventType } from '../server/live-events.server'
import { isNotificationEnabled } from './preferences.server'

/**
 * What the app does after a change commits (issue 14): each `notify.*` job is queued in the transaction of the
 * change (outbox) and, when it runs, decides who hears of it, queues one `mail.send` job per recipient (keyed by
 * this job, so a re-run queues nothing twice) and tells the open pages (live events).
 */

export const MESSAGE_MAIL_INTERVAL_MS = 10 * 60 * 1000
export const REMINDER_SWEEP_MS = 60 * 1000
/** Reminders go out from this long before the start … */
const REMINDERS = [
  { hoursBefore: 24 as const, lead: 24 * 3600_000 },
  { hoursBefore: 1 as const, lead: 3600_000 },
]
/** … unless the sweep finds the lesson already closer than this (a reservation made late gets no stale reminder). */
const REMINDER_WINDOW_MS = 30 * 60 * 1000
const KEEP_FINISHED_JOBS_MS = 7 * 24 * 3600_000
const KEEP_MAILS_MS = 90 * 24 * 3600_000

export interface NotificationDeps {
  mail: MailSettings
  /**
   * Tells every instance that public pages may have changed (seats freed by a job): their caches of public reads
   * empty (`search_invalidate`, docs/decisions/0026). Optional so that jobs run without the bus.
   */
  publicContentChanged?: (why: string) => Promise<void>
  /** Tells the recipients' open pages (GET /events); optional so that jobs run without the stream. */
  publish?: (userIds: number[], type: LiveEventType) => Promise<void>
  /**
   * The issuer configured now: a receipt mail names it when its payment recorded none (made to succeed by hand
   * since the app last started, app/db/receipt-issuers.ts), as the receipt page does.
   */
  issuer: () => ReceiptIssuer
}

const positiveId = (v: unknown, name: string): number => {
  if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v
  throw new PermanentJobError(`payload.${name} must be a positive integer`)
}

function messageIdFor(deps: NotificationDeps, key: string) {
  const host = new URL(deps.mail.siteOrigin).hostname || 'manabi.example'
  return `<${key}@${host}>`
}

/** The first `max` characters and an ellipsis, cut by code points: an emoji is never cut in half. */
function excerptOf(text: string, max: number) {
  const chars = [...text]
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : text
}

/** The lesson's cancellation deadline, or null when it has passed (booked or moved less than 24 h ahead). */
function deadlineAhead(startedAt: Date): string | null {
  const deadline = cancelDeadline(startedAt)
  return deadline.getTime() > Date.now() ? deadline.toISOString() : null
}

/** Queues a mail to a member when they have an address and have not switched the kind off. */
async function mailMember<N extends TemplateName>(
  db: DbOrTx,
  deps: NotificationDeps,
  key: string,
  user: { id: number; email: string | null },
  template: N,
  props: TemplateProps<N>,
  about: Pick<MailRequest, 'noticeId' | 'reminds' | 'offer'> = {},
) {
  if (!user.email) return
  if (!(await isNotificationEnabled(db, user.id, templates[template].kind))) return
  const request: MailRequest<N> = {
    messageId: messageIdFor(deps, key),
    to: user.email,
    userId: user.id,
    template,
    props,
    ...about,
  }
  await enqueue(db, 'mail.send', request as unknown as Record<string, unknown>, {
    dedupeKey: `mail:${key}`,
    maxAttempts: MAIL_MAX_ATTEMPTS,
  })
}

/**
 * Whether a queued mail to a member still goes when its turn comes (minutes later for a notice's fan-out, longer
 * while SMTP is retried): not when they have switched its kind off since (an unsubscribe link included), nor when
 * their account was suspended since — except the mails a suspended account must still get: about its money
 * (mandatory kinds: refunds, cancellations) and about the account itself (kinds that are no member's choice).
 */
async function stillWanted(db: DbOrTx, request: MailRequest): Promise<boolean> {
  const userId = positiveId(request.userId, 'userId')
  const kind = templates[request.template].kind
  const [member] = await db.select({ suspendedAt: users.suspendedAt }).from(users).where(eq(users.id, userId))
  if (!member) return false
  const choice = notificationKind(kind)
  if (member.suspendedAt && choice && !choice.mandatory) return false
  return isNotificationEnabled(db, userId, kind)
}

function dateIn(value: unknown, name: string): Date {
  const d = new Date(typeof value === 'string' ? value : Number.NaN)
  if (Number.isNaN(d.getTime())) throw new PermanentJobError(`${name} is not a time`)
  return d
}

/** A reminder still holds when it goes: the reservation live, the lesson still at that time and yet to start. */
async function stillReserved(db: DbOrTx, about: NonNullable<MailRequest['reminds']>): Promise<boolean> {
  const startedAt = dateIn(about.startedAt, 'reminds.startedAt')
  if (!about.untilEnd && !(startedAt.getTime() > Date.now())) return false
  const [row] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .where(
      and(
        eq(purchases.id, positiveId(about.purchaseId, 'purchaseId')),
        eq(purchases.status, 'reserved'),
        eq(classWorkSchedules.isCanceled, false),
        about.untilEnd ? gt(classWorkSchedules.endedAt, new Date()) : undefined,
        // To the millisecond, as the reminder took it (a time the database wrote carries microseconds).
        sql`(date_trunc('milliseconds', ${classWorkSchedules.startedAt}) = ${startedAt.toISOString()}::timestamptz
          or exists (select 1 from ${classWorkScheduleLessons} where ${classWorkScheduleLessons.scheduleId} = ${classWorkSchedules.id}
            and date_trunc('milliseconds', ${classWorkScheduleLessons.startedAt}) = ${startedAt.toISOString()}::timestamptz))`,
      ),
    )
  return row !== undefined
}

/** An offer's mail still holds when it goes: the same offer, still open. */
async function stillOffered(db: DbOrTx, about: NonNullable<MailRequest['offer']>): Promise<boolean> {
  const [row] = await db
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.id, positiveId(about.entryId, 'entryId')),
        eq(waitlistEntries.status, 'offered'),
        sql`date_trunc('milliseconds', ${waitlistEntries.offeredAt}) = ${dateIn(about.offeredAt, 'offer.offeredAt').toISOString()}::timestamptz`,
        gt(waitlistEntries.offerExpiresAt, new Date()),
      ),
    )
  return row !== undefined
}

const attendanceUrl = (deps: NotificationDeps) => `${deps.mail.siteOrigin}/class_attendance`
const manageUrl = (deps: NotificationDeps) => `${deps.mail.siteOrigin}/class_management`

const teachers = alias(users, 'teachers')

/** Purchases with everything their mails show, in one query. */
async function purchaseDetailsWhere(db: Db, where: SQL | undefined) {
  const rows = await db
    .select({
      id: purchases.id,
      status: purchases.status,
      price: purchases.price,
      memberId: users.id,
      memberEmail: users.email,
      memberNickname: users.nickname,
      memberSuspendedAt: users.suspendedAt,
      learnerNickname: learners.nickname,
      teacherId: teachers.id,
      teacherEmail: teachers.email,
      classWorkId: classWorks.id,
      className: classWorks.title,
      lessonCount: classWorks.lessonCount,
      startedAt: classWorkSchedules.startedAt,
      endedAt: classWorkSchedules.endedAt,
      capacity: classWorkSchedules.capacity,
      purchasedCount: classWorkSchedules.purchasedCount,
      heldCount: classWorkSchedules.heldCount,
    })
    .from(purchases)
    .innerJoin(users, eq(users.id, purchases.userId))
    .leftJoin(learners, eq(learners.id, purchases.learnerId))
    .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
    .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
    .innerJoin(teachers, eq(teachers.id, classWorks.teacherId))
    .where(where)
  return rows.map((row) => ({
    ...row,
    lesson: {
      className: row.className,
      startedAt: row.startedAt.toISOString(),
      endedAt: row.endedAt.toISOString(),
      attendee: row.learnerNickname ?? `${row.memberNickname}（ご本人）`,
      ...(row.lessonCount > 1 ? { lessonCount: row.lessonCount } : {}),
    },
  }))
}

async function purchaseDetails(db: Db, purchaseId: number) {
  const [row] = await purchaseDetailsWhere(db, eq(purchases.id, purchaseId))
  return row
}

export function notificationHandlers(deps: NotificationDeps): Record<string, JobHandler> {
  const live = async (userIds: number[], type: LiveEventType) => {
    if (userIds.length > 0) await deps.publish?.(userIds, type)
  }

  return {
    'mail.send': async (job, { db }) => {
      const request = job.payload as unknown as MailRequest
      if (!request || typeof request.to !== 'string' || !(request.template in templates))
        throw new PermanentJobError('payload is not a mail request')
      // A notice's mails are queued one per member and sent over minutes: one withdrawn meanwhile is not sent on.
      if (request.noticeId !== undefined) {
        const [n] = await db
          .select({ withdrawnAt: notices.withdrawnAt })
          .from(notices)
          .where(eq(notices.id, positiveId(request.noticeId, 'noticeId')))
        if (!n || n.withdrawnAt) return
      }
      if (request.reminds && !(await stillReserved(db, request.reminds))) return
      if (request.offer && !(await stillOffered(db, request.offer))) return
      if (request.userId !== undefined && !(await stillWanted(db, request))) return
      await sendMail(db, deps.mail, request)
    },

    'notify.purchase_created': async (job, { db }) => {
      const p = await purchaseDetails(db, positiveId(job.payload.purchaseId, 'purchaseId'))
      // Cancelled before its news went out (by the member, the teacher or a suspension): that mail says so instead.
      if (p?.status !== 'reserved') return
      await mailMember(
        db,
        deps,
        `purchase-${p.id}-confirmed`,
        { id: p.memberId, email: p.memberEmail },
        'reservation_confirmed',
        {
          ...p.lesson,
          price: p.price,
          cancelDeadline: deadlineAhead(new Date(p.lesson.startedAt)),
          attendanceUrl: attendanceUrl(deps),
        },
        // Held up (SMTP away) past a cancellation or a move, it would arrive after the mail that says so.
        { reminds: { purchaseId: p.id, startedAt: p.lesson.startedAt, untilEnd: true } },
      )
      await mailMember(
        db,
        deps,
        `purchase-${p.id}-teacher-new`,
        { id: p.teacherId, email: p.teacherEmail },
        'teacher_new_reservation',
        {
          ...p.lesson,
          member: p.memberNickname,
          seatsLeft: Math.max(0, p.capacity - p.purchasedCount - p.heldCount),
          manageUrl: manageUrl(deps),
        },
      )
      await live([p.memberId, p.teacherId], 'reservation')
    },

    /** A payment went through: the receipt (or, paid after the hold ended with no seat left, the refund notice). */
    'notify.payment_receipt': async (job, { db }) => {
      const paymentId = positiveId(job.payload.paymentId, 'paymentId')
      const [pay] = await db
        .select({
          purchaseId: payments.purchaseId,
          amount: payments.amount,
          taxAmount: payments.taxAmount,
          status: payments.status,
          issuerName: payments.receiptIssuerName,
          registrationNumber: payments.receiptRegistrationNumber,
          refunded: refunds.id,
        })
        .from(payments)
        .leftJoin(refunds, eq(refunds.paymentId, payments.id))
        .where(eq(payments.id, paymentId))
      if (pay?.status !== 'succeeded') return
      const p = await purchaseDetails(db, pay.purchaseId)
      if (!p) return
      const noSeat = p.status === 'expired' && pay.refunded !== null
      await mailMember(
        db,
        deps,
        `payment-${paymentId}-receipt`,
        { id: p.memberId, email: p.memberEmail },
        'payment_receipt',
        {
          ...p.lesson,
          amount: pay.amount,
          taxAmount: pay.taxAmount,
          receiptNumber: receiptNumber(paymentId),
          issuer: pay.issuerName
            ? { name: pay.issuerName, registrationNumber: pay.registrationNumber }
            : deps.issuer(),
          receiptUrl: noSeat
            ? `${deps.mail.siteOrigin}/purchase_history`
            : `${deps.mail.siteOrigin}/purchase_history/receipt/${paymentId}`,
          ...(noSeat ? { refundedNoSeat: true } : {}),
        },
      )
      await live([p.memberId], 'reservation')
    },

    /** The provider refunded: the member hears that the money is on its way back. */
    'notify.refund_completed': async (job, { db }) => {
      const refundId = positiveId(job.payload.refundId, 'refundId')
      const [r] = await db
        .select({ purchaseId: refunds.purchaseId, amount: refunds.amount, status: refunds.status })
        .from(refunds)
        .where(eq(refunds.id, refundId))
      if (r?.status !== 'succeeded') return
      const p = await purchaseDetails(db, r.purchaseId)
      if (!p) return
      await mailMember(
        db,
        deps,
        `refund-${refundId}-completed`,
        { id: p.memberId, email: p.memberEmail },
        'refund_completed',
        {
          ...p.lesson,
          amount: r.amount,
          historyUrl: `${deps.mail.siteOrigin}/purchase_history`,
        },
      )
      await live([p.memberId], 'reservation')
    },

    'notify.purchase_canceled': async (job, { db }) => {
      const p = await purchaseDetails(db, positiveId(job.payload.purchaseId, 'purchaseId'))
      if (!p) return
      // An operator's cancellation (the member was suspended) is told as one, and as money mail.
      const byOperator = job.payload.by === 'operator'
      if (byOperator)
        await mailMember(
          db,
          deps,
          `purchase-${p.id}-canceled`,
          { id: p.memberId, email: p.memberEmail },
          'reservation_withdrawn',
          { ...p.lesson, refund: p.price },
        )
      else
        await mailMember(
          db,
          deps,
          `purchase-${p.id}-canceled`,
          { id: p.memberId, email: p.memberEmail },
          'reservation_canceled',
          {
            ...p.lesson,
            refund: p.price,
            attendanceUrl: attendanceUrl(deps),
          },
        )
      await mailMember(
        db,
        deps,
        `purchase-${p.id}-teacher-canceled`,
        { id: p.teacherId, email: p.teacherEmail },
        'teacher_reservation_canceled',
        {
          ...p.lesson,
          member: p.memberNickname,
          manageUrl: manageUrl(deps),
          ...(byOperator ? { byOperator } : {}),
        },
      )
      await live([p.memberId, p.teacherId], 'reservation')
    },

    'notify.schedule_canceled': async (job, { db }) => {
      const ids = (Array.isArray(job.payload.purchaseIds) ? job.payload.purchaseIds : []).map((v) =>
        positiveId(v, 'purchaseIds[]'),
      )
      const notified = new Set<number>()
      const canceled = ids.length
        ? await purchaseDetailsWhere(
            db,
            and(inArray(purchases.id, ids), eq(purchases.status, 'canceled_by_teacher')),
          )
        : []
      for (const p of canceled) {
        await mailMember(
          db,
          deps,
          `purchase-${p.id}-schedule-canceled`,
          { id: p.memberId, email: p.memberEmail },
          'schedule_canceled',
          {
            ...p.lesson,
            refund: p.price,
            // A class stopped by an operator has no page any more: the link goes to the search instead.
            ...(job.payload.by === 'operator'
              ? { byOperator: true, classUrl: `${deps.mail.siteOrigin}/class_search` }
              : { classUrl: `${deps.mail.siteOrigin}/class_search/detail/${p.classWorkId}` }),
          },
        )
        notified.add(p.memberId)
      }
      // The teacher's open pages too (sales, students), whoever cancelled it.
      await live([...notified, ...canceled.slice(0, 1).map((p) => p.teacherId)], 'reservation')
      await live([...notified], 'announcement')
    },

    'notify.schedule_moved': async (job, { db }) => {
      const scheduleId = positiveId(job.payload.scheduleId, 'scheduleId')
      const { movedAt, startedAt, endedAt, previousStartedAt, previousEndedAt } = job.payload
      if (
        typeof movedAt !== 'string' ||
        typeof startedAt !== 'string' ||
        typeof endedAt !== 'string' ||
        typeof previousStartedAt !== 'string' ||
        typeof previousEndedAt !== 'string'
      )
        throw new PermanentJobError('payload of notify.schedule_moved is incomplete')
      // Moved again since (or gone): the later move's job tells the time that stands.
      const [schedule] = await db
        .select({
          startedAt: classWorkSchedules.startedAt,
          endedAt: classWorkSchedules.endedAt,
          classWorkId: classWorks.id,
          title: classWorks.title,
          lessonCount: classWorks.lessonCount,
        })
        .from(classWorkSchedules)
        .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
        .where(eq(classWorkSchedules.id, scheduleId))
      if (schedule?.startedAt.toISOString() !== startedAt || schedule.endedAt.toISOString() !== endedAt)
        return
      // Moved away and back before any mail went: the time members last heard of stands (a course's lessons
      // inside the same span may have moved, so a course is still told).
      if (schedule.lessonCount === 1 && previousStartedAt === startedAt && previousEndedAt === endedAt) return
      // Paid reservations: a hold being paid for shows its time on the checkout page. One booked after the move
      // (while this job waited) chose the new time, as the line below (jobs queued before bookedUpTo: everyone).
      const { bookedUpTo } = job.payload
      const booked = await purchaseDetailsWhere(
        db,
        and(
          eq(purchases.scheduleId, scheduleId),
          eq(purchases.status, 'reserved'),
          typeof bookedUpTo === 'number' ? lte(purchases.id, bookedUpTo) : undefined,
        ),
      )
      const notified = new Set<number>()
      for (const p of booked) {
        if (p.memberSuspendedAt) continue
        await mailMember(
          db,
          deps,
          `purchase-${p.id}-moved-${Date.parse(movedAt)}-${Date.parse(startedAt)}-${Date.parse(endedAt)}`,
          { id: p.memberId, email: p.memberEmail },
          'schedule_moved',
          {
            ...p.lesson,
            previousStartedAt,
            previousEndedAt,
            cancelDeadline: deadlineAhead(new Date(startedAt)),
            attendanceUrl: attendanceUrl(deps),
          },
          // Held up (SMTP away) past a later move or a cancellation: that one's mail tells what stands.
          { reminds: { purchaseId: p.id, startedAt } },
        )
        notified.add(p.memberId)
      }
      // Its line (one live place per member), as it stood when the lesson moved: one who joined later saw the new
      // time already. An offer whose time ran out is passed on by its own job. A parent told of their booking above
      // still hears of a seat held for another child: its end may have moved with the start.
      const line = await db
        .select({
          userId: users.id,
          email: users.email,
          status: waitlistEntries.status,
          offerExpiresAt: waitlistEntries.offerExpiresAt,
        })
        .from(waitlistEntries)
        .innerJoin(users, eq(users.id, waitlistEntries.userId))
        .where(
          and(
            eq(waitlistEntries.scheduleId, scheduleId),
            inArray(waitlistEntries.status, ['waiting', 'offered']),
            lte(waitlistEntries.createdAt, new Date(movedAt)),
            isNull(users.suspendedAt),
          ),
        )
        .orderBy(waitlistEntries.id)
      for (const e of line) {
        const offer = e.status === 'offered' ? e.offerExpiresAt : null
        if (offer && offer.getTime() <= Date.now()) continue
        if (!offer && notified.has(e.userId)) continue
        await mailMember(
          db,
          deps,
          `waitlist-${scheduleId}-${e.userId}-moved-${Date.parse(movedAt)}-${Date.parse(startedAt)}-${Date.parse(endedAt)}`,
          { id: e.userId, email: e.email },
          'waitlist_moved',
          {
            className: schedule.title,
            startedAt,
            endedAt,
            previousStartedAt,
            previousEndedAt,
            ...(schedule.lessonCount > 1 ? { lessonCount: schedule.lessonCount } : {}),
            ...(offer ? { offerExpiresAt: offer.toISOString() } : {}),
            classUrl: `${deps.mail.siteOrigin}/class_search/detail/${schedule.classWorkId}`,
          },
        )
        notified.add(e.userId)
      }
      await live([...notified], 'reservation')
    },

    'notify.message': async (job, { db }) => {
      const messageId = positiveId(job.payload.messageId, 'messageId')
      const [m] = await db
        .select({
          roomId: messages.roomId,
          senderId: messages.senderId,
          sender: users.nickname,
          senderTeaches: sql<boolean>`${rooms.teacherId} = ${messages.senderId}`,
          at: messages.createdAt,
          status: messages.status,
        })
        .from(messages)
        .innerJoin(users, eq(users.id, messages.senderId))
        .innerJoin(rooms, eq(rooms.id, messages.roomId))
        .where(eq(messages.id, messageId))
        .limit(1)
      // Held for an operator (or deleted): the recipient hears of it only when it is released.
      if (m?.status !== 'visible') return
      const recipients = await db
        .select({ id: users.id, email: users.email })
        .from(roomMembers)
        .innerJoin(users, eq(users.id, roomMembers.userId))
        // A suspended account is not written to (nor mailed) any more, even about a message sent just before.
        .where(
          and(
            eq(roomMembers.roomId, m.roomId),
            ne(roomMembers.userId, m.senderId),
            isNull(users.suspendedAt),
          ),
        )
      // The open pages first: a mail that fails (and retries) must not hold the badge back.
      await live(
        recipients.map((r) => r.id),
        'message',
      )
      for (const r of recipients) {
        // At most one mail per room and recipient per 10 minutes: claim the slot atomically, so that two messages
        // handled at once on two instances still send one mail. The claim and the mail commit together: a job
        // retried after a failure between them must not find its slot taken and send nothing.
        await transaction(db, async (tx) => {
          const claimed = await tx
            .insert(notificationThrottles)
            .values({ key: `message:${m.roomId}:${r.id}`, sentAt: m.at })
            .onConflictDoUpdate({
              target: notificationThrottles.key,
              set: { sentAt: m.at },
              setWhere: lte(
                notificationThrottles.sentAt,
                new Date(m.at.getTime() - MESSAGE_MAIL_INTERVAL_MS),
              ),
            })
            .returning({ key: notificationThrottles.key })
          if (claimed.length === 0) return
          await mailMember(tx, deps, `message-${messageId}-${r.id}`, r, 'new_message', {
            // As the app addresses them: the room's teacher as 先生, a member with さん.
            sender: m.senderTeaches ? addressName(m.sender, true) : `${m.sender}さん`,
            roomUrl: `${deps.mail.siteOrigin}/message?room=${m.roomId}`,
          })
        })
      }
    },

    'notify.announcement': async (job, { db }) => {
      const announcementId = positiveId(job.payload.announcementId, 'announcementId')
      const [a] = await db
        .select({
          id: classAnnouncements.id,
          title: classAnnouncements.title,
          body: classAnnouncements.body,
          classWorkId: classAnnouncements.classWorkId,
          className: classWorks.title,
          createdAt: classAnnouncements.createdAt,
          classHiddenAt: classWorks.hiddenAt,
        })
        .from(classAnnouncements)
        .innerJoin(classWorks, eq(classWorks.id, classAnnouncements.classWorkId))
        .where(eq(classAnnouncements.id, announcementId))
        .limit(1)
      // Its class taken down before the job ran: the announcement went down with it.
      if (!a || a.classHiddenAt) return
      // Members booked on a lesson still to come when it was posted: not everyone who ever attended.
      const members = await db
        .selectDistinct({ id: users.id, email: users.email })
        .from(purchases)
        .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, purchases.scheduleId))
        .innerJoin(users, eq(users.id, purchases.userId))
        .where(
          and(
            eq(classWorkSchedules.classWorkId, a.classWorkId),
            eq(purchases.status, 'reserved'),
            gt(classWorkSchedules.endedAt, a.createdAt),
            // Booked before it was posted, as on /information (announcementVisibleTo): a job run late (behind a
            // notice's fan-out, retried) does not mail it to a family who booked since.
            lte(purchases.createdAt, a.createdAt),
            isNull(users.suspendedAt),
          ),
        )
      const excerpt = excerptOf(a.body, 200)
      for (const u of members) {
        await mailMember(db, deps, `announcement-${a.id}-${u.id}`, u, 'class_announcement', {
          className: a.className,
          title: a.title,
          excerpt,
          url: `${deps.mail.siteOrigin}/information`,
        })
      }
      await live(
        members.map((u) => u.id),
        'announcement',
      )
    },

    /** A member reviewed a class: its teacher hears of it (a setting they may switch off). */
    'notify.review': async (job, { db }) => {
      const reviewId = positiveId(job.payload.reviewId, 'reviewId')
      const [r] = await db
        .select({
          rating: reviews.rating,
          comment: reviews.comment,
          status: reviews.status,
          reviewer: users.nickname,
          classWorkId: classWorks.id,
          className: classWorks.title,
          teacherId: teachers.id,
          teacherEmail: teachers.email,
          teacherSuspendedAt: teachers.suspendedAt,
        })
        .from(reviews)
        .innerJoin(users, eq(users.id, reviews.userId))
        .innerJoin(classWorks, eq(classWorks.id, reviews.classWorkId))
        .innerJoin(teachers, eq(teachers.id, classWorks.teacherId))
        .where(eq(reviews.id, reviewId))
      if (r?.status !== 'visible' || r.teacherSuspendedAt) return
      await mailMember(
        db,
        deps,
        `review-${reviewId}`,
        { id: r.teacherId, email: r.teacherEmail },
        'new_review',
        {
          className: r.className,
          rating: r.rating,
          comment: excerptOf(r.comment, 300),
          reviewer: r.reviewer,
          classUrl: `${deps.mail.siteOrigin}/class_search/detail/${r.classWorkId}#reviews`,
        },
      )
    },

    /**
     * A teacher joined the organisation or left it of their own accord: its owner hears of it (a setting they may
     * switch off). A removal is the owner's own act: the removed teacher hears of it instead.
     */
    'notify.org_member': async (job, { db }) => {
      const organizationId = positiveId(job.payload.organizationId, 'organizationId')
      const userId = positiveId(job.payload.userId, 'userId')
      // As it stood right after the change (counted in its transaction), not when the job runs.
      const memberCount = positiveId(job.payload.memberCount, 'memberCount')
      const change = job.payload.change
      if (change !== 'joined' && change !== 'left' && change !== 'removed' && change !== 'owner')
        throw new PermanentJobError('payload.change must be joined, left, removed or owner')
      // The member concerned hears of a removal, and of becoming the owner (an account matter either way).
      if (change === 'removed' || change === 'owner') {
        const [member] = await db
          .select({
            id: users.id,
            email: users.email,
            nickname: users.nickname,
            suspendedAt: users.suspendedAt,
            organizationName: organizations.name,
          })
          .from(users)
          .innerJoin(organizations, eq(organizations.id, organizationId))
          .where(eq(users.id, userId))
        if (!member || member.suspendedAt) return
        if (change === 'owner')
          await mailMember(db, deps, `org-member-${job.id}`, member, 'org_owner_assigned', {
            nickname: member.nickname,
            organizationName: member.organizationName,
            memberCount,
            url: `${deps.mail.siteOrigin}/organization_management`,
          })
        else
          await mailMember(db, deps, `org-member-${job.id}`, member, 'org_member_removed', {
            nickname: member.nickname,
            organizationName: member.organizationName,
            manageUrl: `${deps.mail.siteOrigin}/class_management`,
          })
        return
      }
      const [o] = await db
        .select({
          name: organizations.name,
          ownerId: users.id,
          ownerEmail: users.email,
          ownerSuspendedAt: users.suspendedAt,
        })
        .from(organizations)
        .innerJoin(users, eq(users.id, organizations.ownerId))
        .where(eq(organizations.id, organizationId))
      const [member] = await db.select({ nickname: users.nickname }).from(users).where(eq(users.id, userId))
      if (!o || !member || o.ownerSuspendedAt) return
      await mailMember(
        db,
        deps,
        `org-member-${job.id}`,
        { id: o.ownerId, email: o.ownerEmail },
        'org_member_changed',
        {
          organizationName: o.name,
          member: addressName(member.nickname, true),
          change,
          memberCount,
          url: `${deps.mail.siteOrigin}/organization_management`,
        },
      )
    },

    /** A schedule was added to a class members had asked for: each of them hears of it, once. */
    'notify.class_requests': async (job, { db }) => {
      const classWorkId = positiveId(job.payload.classWorkId, 'classWorkId')
      const scheduleId = positiveId(job.payload.scheduleId, 'scheduleId')
      const [s] = await db
        .select({
          title: classWorks.title,
          lessonCount: classWorks.lessonCount,
          startedAt: classWorkSchedules.startedAt,
          endedAt: classWorkSchedules.endedAt,
          isCanceled: classWorkSchedules.isCanceled,
          isPublished: classWorks.isPublished,
          hiddenAt: classWorks.hiddenAt,
        })
        .from(classWorkSchedules)
        .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
        .where(and(eq(classWorkSchedules.id, scheduleId), eq(classWorkSchedules.classWorkId, classWorkId)))
      if (!s || s.isCanceled) return
      // A date nobody can book yet (class not published, or taken down) closes no request: publishing tells them.
      if (!s.isPublished || s.hiddenAt) return
      // Run late (the runner or the mail was away) past the start: a date nobody can book any more closes no
      // request either; the members are told of the teacher's next date instead.
      if (s.startedAt.getTime() <= Date.now()) return
      const open = await db
        .select({ id: classRequests.id, userId: users.id, email: users.email })
        .from(classRequests)
        .innerJoin(users, eq(users.id, classRequests.userId))
        .where(
          and(
            eq(classRequests.classWorkId, classWorkId),
            sql`${classRequests.notifiedAt} is null`,
            isNull(users.suspendedAt),
          ),
        )
      for (const r of open) {
        await mailMember(db, deps, `request-${r.id}`, { id: r.userId, email: r.email }, 'request_scheduled', {
          className: s.title,
          startedAt: s.startedAt.toISOString(),
          endedAt: s.endedAt.toISOString(),
          lessonCount: s.lessonCount,
          classUrl: `${deps.mail.siteOrigin}/class_search/detail/${classWorkId}`,
        })
        await db.update(classRequests).set({ notifiedAt: new Date() }).where(eq(classRequests.id, r.id))
      }
    },

    /** A seat was held for the first in line: they get a mail and their open pages update. */
    'notify.waitlist_offer': async (job, { db }) => {
      const o = await offerDetails(db, positiveId(job.payload.entryId, 'entryId'))
      // Not for an offer that has ended (taken back, expired, its member suspended) before the job ran.
      if (o?.status !== 'offered' || !o.expiresAt || !o.offeredAt) return
      if (o.expiresAt.getTime() <= Date.now() || o.suspendedAt) return
      await mailMember(
        db,
        deps,
        // Per offer: the same place offered again (a class published again) is mailed again.
        `offer-${job.payload.entryId}-${o.offeredAt.getTime()}`,
        { id: o.userId, email: o.email },
        'waitlist_offer',
        {
          className: o.title,
          startedAt: o.startedAt.toISOString(),
          endedAt: o.endedAt.toISOString(),
          lessonCount: o.lessonCount,
          attendee: o.learner ?? `${o.nickname}（ご本人）`,
          expiresAt: o.expiresAt.toISOString(),
          classUrl: `${deps.mail.siteOrigin}/class_search/detail/${o.classWorkId}`,
        },
        {
          offer: {
            entryId: positiveId(job.payload.entryId, 'entryId'),
            offeredAt: o.offeredAt.toISOString(),
          },
        },
      )
      await live([o.userId], 'reservation')
    },

    'notify.waitlist_canceled': async (job, { db }) => {
      const ids = (Array.isArray(job.payload.entryIds) ? job.payload.entryIds : []).map((v) =>
        positiveId(v, 'entryIds[]'),
      )
      if (ids.length === 0) return
      const ended = await db
        .select({
          id: waitlistEntries.id,
          userId: users.id,
          email: users.email,
          classWorkId: classWorks.id,
          title: classWorks.title,
          lessonCount: classWorks.lessonCount,
          startedAt: classWorkSchedules.startedAt,
          endedAt: classWorkSchedules.endedAt,
        })
        .from(waitlistEntries)
        .innerJoin(users, eq(users.id, waitlistEntries.userId))
        .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, waitlistEntries.scheduleId))
        .innerJoin(classWorks, eq(classWorks.id, classWorkSchedules.classWorkId))
        .where(
          and(
            inArray(waitlistEntries.id, ids),
            eq(waitlistEntries.status, 'canceled'),
            isNull(users.suspendedAt),
          ),
        )
      for (const e of ended)
        await mailMember(
          db,
          deps,
          `waitlist-${e.id}-canceled`,
          { id: e.userId, email: e.email },
          'waitlist_canceled',
          {
            className: e.title,
            startedAt: e.startedAt.toISOString(),
            endedAt: e.endedAt.toISOString(),
            ...(e.lessonCount > 1 ? { lessonCount: e.lessonCount } : {}),
            ...(job.payload.by === 'operator'
              ? { byOperator: true, classUrl: `${deps.mail.siteOrigin}/class_search` }
              : { classUrl: `${deps.mail.siteOrigin}/class_search/detail/${e.classWorkId}` }),
          },
        )
      await live([...new Set(ended.map((e) => e.userId))], 'reservation')
    },

    /** Every minute: offers nobody answered pass to the next in line. */
    'waitlist.expire': async (_job: Job, { db }) => {
      const ended: number[] = []
      if ((await expireOffers(db, new Date(), ended)) === 0) return
      await deps.publicContentChanged?.('job:waitlist.expire')
      // Their open pages (the class page's 「席を確保中」, My Page) stop offering the seat.
      await live([...new Set(ended)], 'reservation')
    },

    /** An operator decided a 本人確認: the member hears the result (a mail that cannot be switched off). */
    'notify.verification': async (job, { db }) => {
      const verificationId = positiveId(job.payload.verificationId, 'verificationId')
      const [v] = await db
        .select({
          status: teacherVerifications.status,
          reason: teacherVerifications.reason,
          id: users.id,
          email: users.email,
          nickname: users.nickname,
        })
        .from(teacherVerifications)
        .innerJoin(users, eq(users.id, teacherVerifications.userId))
        .where(eq(teacherVerifications.id, verificationId))
      if (!v || v.status === 'pending') return
      const key = `verification-${verificationId}`
      if (v.status === 'approved')
        await mailMember(db, deps, key, v, 'verification_approved', {
          nickname: v.nickname,
          manageUrl: manageUrl(deps),
        })
      else
        await mailMember(db, deps, key, v, 'verification_rejected', {
          nickname: v.nickname,
          reason: v.reason ?? '',
          retryUrl: `${deps.mail.siteOrigin}/profile/teacher`,
        })
    },

    /** An operator suspended an account: its owner is told (the cancellations mail their members themselves). */
    /** A teacher's payout account was set or changed: they hear of it, with where the money now goes. */
    'notify.bank_account_changed': async (job, { db }) => {
      const userId = positiveId(job.payload.userId, 'userId')
      const [u] = await db
        .select({ id: users.id, email: users.email, nickname: users.nickname })
        .from(users)
        .where(eq(users.id, userId))
      const { bankName, numberLast4 } = job.payload
      if (!u || typeof bankName !== 'string' || typeof numberLast4 !== 'string') return
      await mailMember(db, deps, `bank-account-${job.id}`, u, 'bank_account_changed', {
        nickname: u.nickname,
        bankName,
        numberMasked: `＊＊＊${numberLast4}`,
        salesUrl: `${deps.mail.siteOrigin}/sales_management?tab=payouts`,
      })
    },

    'notify.account_suspended': async (job, { db }) => {
      const userId = positiveId(job.payload.userId, 'userId')
      const [u] = await db
        .select({
          id: users.id,
          email: users.email,
          nickname: users.nickname,
          suspendedAt: users.suspendedAt,
        })
        .from(users)
        .where(eq(users.id, userId))
      // Lifted before the mail went, or lifted and suspended again (that suspension has a job of its own): it would
      // announce what is no longer true. A job queued without the time only checks the account is suspended.
      if (!u?.suspendedAt) return
      if (
        job.payload.suspendedAt !== undefined &&
        u.suspendedAt.getTime() !== dateIn(job.payload.suspendedAt, 'suspendedAt').getTime()
      )
        return
      await mailMember(db, deps, `suspended-${job.id}`, u, 'account_suspended', { nickname: u.nickname })
    },

    /** An operator lifted a suspension: its owner may sign in again (a teacher's hidden classes are drafts). */
    'notify.account_reinstated': async (job, { db }) => {
      const userId = positiveId(job.payload.userId, 'userId')
      const count = (v: unknown) => (Number.isInteger(v) && (v as number) > 0 ? (v as number) : 0)
      const [u] = await db
        .select({
          id: users.id,
          email: users.email,
          nickname: users.nickname,
          suspendedAt: users.suspendedAt,
        })
        .from(users)
        .where(eq(users.id, userId))
      // Suspended again before the mail went: it would promise what is no longer true.
      if (u && !u.suspendedAt)
        await mailMember(db, deps, `reinstated-${job.id}`, u, 'account_reinstated', {
          nickname: u.nickname,
          classesRestored: count(job.payload.classesRestored),
          reviewsRestored: count(job.payload.reviewsRestored),
          loginUrl: `${deps.mail.siteOrigin}/`,
          manageUrl: manageUrl(deps),
        })
    },

    'notify.class_hidden': async (job, { db }) => {
      const classWorkId = positiveId(job.payload.classWorkId, 'classWorkId')
      const count = (v: unknown) => (Number.isInteger(v) && (v as number) > 0 ? (v as number) : 0)
      const [c] = await db
        .select({ title: classWorks.title, id: users.id, email: users.email, suspendedAt: users.suspendedAt })
        .from(classWorks)
        .innerJoin(users, eq(users.id, classWorks.teacherId))
        .where(eq(classWorks.id, classWorkId))
      // A suspended teacher has had the suspension's own mail.
      if (c && !c.suspendedAt)
        await mailMember(db, deps, `class-hidden-${classWorkId}`, c, 'class_hidden', {
          className: c.title,
          canceled: count(job.payload.canceled),
          refunded: count(job.payload.refunded),
        })
    },

    /** An operator's notice, when it appears: a mail to the members who asked for them (opt-in). */
    'notify.notice': async (job, { db }) => {
      const noticeId = positiveId(job.payload.noticeId, 'noticeId')
      const [n] = await db.select().from(notices).where(eq(notices.id, noticeId)).limit(1)
      if (!n || n.withdrawnAt) return
      // Not yet by this instance's clock (behind the database's, or the notice moved later): sent when it is.
      if (n.publishedAt.getTime() > Date.now() + 60_000) throw new JobNotDueError(n.publishedAt)
      const members = await db
        .select({ id: users.id, email: users.email })
        .from(notificationPreferences)
        .innerJoin(users, eq(users.id, notificationPreferences.userId))
        .where(
          and(
            eq(notificationPreferences.kind, 'operator_notice'),
            eq(notificationPreferences.enabled, true),
            isNull(users.suspendedAt),
          ),
        )
      // The notice is Markdown: the mail quotes its words, not its marks.
      const text = noticePlainText(n.body)
      const excerpt = excerptOf(text, 200)
      for (const u of members)
        await mailMember(
          db,
          deps,
          `notice-${n.id}-${u.id}`,
          u,
          'operator_notice',
          { title: n.title, excerpt, url: `${deps.mail.siteOrigin}/information/detail/notice-${n.id}` },
          { noticeId: n.id },
        )
    },

    /** Every minute (one run per minute across instances): lesson reminders, and old rows swept away. */
    'reminders.sweep': async (_job: Job, { db }) => {
      const now = Date.now()
      for (const r of REMINDERS) {
        const window = {
          from: new Date(now + r.lead - REMINDER_WINDOW_MS),
          to: new Date(now + r.lead),
        }
        // Single lessons by their schedule's start; each lesson of a course run (全N回) by its own.
        const due = await purchaseDetailsWhere(
          db,
          and(
            eq(purchases.status, 'reserved'),
            eq(classWorkSchedules.isCanceled, false),
            eq(classWorks.lessonCount, 1),
            gt(classWorkSchedules.startedAt, window.from),
            lte(classWorkSchedules.startedAt, window.to),
          ),
        )
        const courseLessons = await db
          .select({
            purchaseId: purchases.id,
            position: classWorkScheduleLessons.position,
            startedAt: classWorkScheduleLessons.startedAt,
            endedAt: classWorkScheduleLessons.endedAt,
          })
          .from(classWorkScheduleLessons)
          .innerJoin(purchases, eq(purchases.scheduleId, classWorkScheduleLessons.scheduleId))
          .innerJoin(classWorkSchedules, eq(classWorkSchedules.id, classWorkScheduleLessons.scheduleId))
          .where(
            and(
              eq(purchases.status, 'reserved'),
              eq(classWorkSchedules.isCanceled, false),
              gt(classWorkScheduleLessons.startedAt, window.from),
              lte(classWorkScheduleLessons.startedAt, window.to),
            ),
          )
        const courseDetails = courseLessons.length
          ? await purchaseDetailsWhere(
              db,
              inArray(
                purchases.id,
                courseLessons.map((l) => l.purchaseId),
              ),
            )
          : []
        const detailOf = new Map(courseDetails.map((p) => [p.id, p]))
        const reminders = [
          ...due.map((p) => ({ p, lesson: p.lesson })),
          ...courseLessons.flatMap((l) => {
            const p = detailOf.get(l.purchaseId)
            if (!p) return []
            const lesson = {
              className: `${p.className}（第${l.position}回／全${p.lessonCount}回）`,
              startedAt: l.startedAt.toISOString(),
              endedAt: l.endedAt.toISOString(),
              attendee: p.lesson.attendee,
            }
            return [{ p, lesson }]
          }),
        ]
        for (const { p, lesson } of reminders) {
          // A suspended account cannot sign in to attend: no reminder (a course run already under way keeps
          // its seat, see 0020).
          if (p.memberSuspendedAt) continue
          // Keyed by the start time too: a lesson moved to another day is reminded again for the new time.
          await mailMember(
            db,
            deps,
            `reminder-${r.hoursBefore}h-${p.id}-${new Date(lesson.startedAt).getTime()}`,
            { id: p.memberId, email: p.memberEmail },
            'lesson_reminder',
            { ...lesson, hoursBefore: r.hoursBefore, attendanceUrl: attendanceUrl(deps) },
            { reminds: { purchaseId: p.id, startedAt: lesson.startedAt } },
          )
        }
      }
      await db
        .delete(jobs)
        .where(
          and(
            sql`${jobs.finishedAt} is not null`,
            lte(jobs.finishedAt, new Date(now - KEEP_FINISHED_JOBS_MS)),
          ),
        )
      await db.delete(mails).where(lte(mails.createdAt, new Date(now - KEEP_MAILS_MS)))
      await db
        .delete(notificationThrottles)
        .where(lte(notificationThrottles.sentAt, new Date(now - 24 * 3600_000)))
    },
  }
}

export const recurringJobs: RecurringJob[] = [
  { kind: 'reminders.sweep', everyMs: REMINDER_SWEEP_MS },
  { kind: 'waitlist.expire', everyMs: 60_000 },
]
