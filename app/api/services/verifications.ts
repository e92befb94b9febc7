import { asc, desc, eq, sql } from 'drizzle-orm'
import type {
  AdminVerification,
  DecideVerificationBody,
  MyVerification,
  SubmitVerificationBody,
} from '../../contract/v1/trust'
import { audit } from '../../db/audit'
import type { Db } from '../../db/client'
import { teacherVerifications, users } from '../../db/schema'
import { transaction } from '../../db/transaction'
import { enqueue } from '../../jobs/queue.server'
import { ageOn } from '../../lib/age'
import { ADMIN_LIST_PAGE_SIZE } from '../../lib/page-sizes'
import { actorLabel, type UserRow } from '../auth'
import { ApiError, notFound, ownAccount } from '../errors'
import { iso } from './class-cards'

/**
 * 本人確認 (issue 15; docs/decisions/0020). A member turns on teaching by submitting their identity; they may then
 * write drafts, and publish once an operator approved. Every operator step is audited, reading an image included.
 */

export const MIN_TEACHER_AGE = 18
/** The images are deleted this long after the decision (job verifications.purge). */
export const DOCUMENT_RETENTION_MS = 30 * 24 * 3600_000

export async function getMyVerification(db: Db, user: UserRow): Promise<MyVerification> {
  const [row] = await db
    .select()
    .from(teacherVerifications)
    .where(eq(teacherVerifications.userId, user.id))
    .orderBy(desc(teacherVerifications.submittedAt), desc(teacherVerifications.id))
    .limit(1)
  // A teacher approved without a row (the demo teachers, seeded) is approved all the same.
  const status = user.teacherVerifiedAt ? 'approved' : (row?.status ?? 'none')
  return {
    status: status as MyVerification['status'],
    is_teacher: user.isTeacher,
    submitted_at: row ? iso(row.submittedAt) : null,
    decided_at: row?.decidedAt
      ? iso(row.decidedAt)
      : user.teacherVerifiedAt
        ? iso(user.teacherVerifiedAt)
        : null,
    reason: row?.status === 'rejected' ? row.reason : null,
  }
}

/**
 * Turns teaching on and submits the identity for review. One pending submission at a time (a partial unique
 * index makes two racing submits one success and one 409); an approved teacher has nothing to submit.
 */
export async function submitVerification(
  db: Db,
  user: UserRow,
  body: SubmitVerificationBody,
  now: Date,
): Promise<MyVerification> {
  if (user.teacherVerifiedAt) throw new ApiError(409, 'already_verified', '本人確認はすでに完了しています')
  if (body.birth_date > now.toISOString().slice(0, 10) || ageOn(body.birth_date, now) < MIN_TEACHER_AGE)
    throw new ApiError(422, 'too_young', `先生として活動できるのは${MIN_TEACHER_AGE}歳以上の方です`)
  await transaction(db, async (tx) => {
    const inserted = await tx
      .insert(teacherVerifications)
      .values({
        userId: user.id,
        legalName: body.legal_name,
        legalNameKana: body.legal_name_kana,
        birthDate: body.birth_date,
        career: body.career.trim(),
        facePath: body.face_path,
        documentPath: body.document_path,
        submittedAt: now,
      })
      .onConflictDoNothing({
        target: teacherVerifications.userId,
        // A literal, not a parameter (see createReport): it must match the partial unique index when prepared.
        where: sql`${teacherVerifications.status} = 'pending'`,
      })
      .returning({ id: teacherVerifications.id })
    if (inserted.length === 0)
      throw new ApiError(409, 'verification_pending', '本人確認を審査中です。結果をお待ちください')
    await tx.update(users).set({ isTeacher: true, updatedAt: now }).where(eq(users.id, user.id))
  })
  const [fresh] = await db.select().from(users).where(eq(users.id, user.id))
  return getMyVerification(db, fresh!)
}

const adminColumns = {
  id: teacherVerifications.id,
  status: teacherVerifications.status,
  legalName: teacherVerifications.legalName,
  legalNameKana: teacherVerifications.legalNameKana,
  birthDate: teacherVerifications.birthDate,
  career: teacherVerifications.career,
  submittedAt: teacherVerifications.submittedAt,
  decidedAt: teacherVerifications.decidedAt,
  reason: teacherVerifications.reason,
  facePath: teacherVerifications.facePath,
  userId: users.id,
  nickname: users.nickname,
  email: users.email,
}

interface AdminRow {
  id: number
  status: string
  legalName: string
  legalNameKana: string
  birthDate: string
  career: string
  submittedAt: Date
  decidedAt: Date | null
  reason: string | null
  facePath: string | null
  userId: number
  nickname: string
  email: string | null
}

const toAdminVerification = (r: AdminRow): AdminVerification => ({
  id: r.id,
  status: r.status as AdminVerification['status'],
  user: { id: r.userId, nickname: r.nickname, email: r.email },
  legal_name: r.legalName,
  legal_name_kana: r.legalNameKana,
  birth_date: r.birthDate,
  career: r.career,
  submitted_at: iso(r.submittedAt),
  decided_at: r.decidedAt ? iso(r.decidedAt) : null,
  reason: r.reason,
  has_documents: r.facePath !== null,
})

/** Pending ones oldest first (the longest wait first); decided ones newest first. */
export async function adminListVerifications(
  db: Db,
  status: 'pending' | 'approved' | 'rejected',
  page = 1,
): Promise<AdminVerification[]> {
  const rows = await db
    .select(adminColumns)
    .from(teacherVerifications)
    .innerJoin(users, eq(users.id, teacherVerifications.userId))
    .where(eq(teacherVerifications.status, status))
    .orderBy(
      status === 'pending' ? asc(teacherVerifications.submittedAt) : desc(teacherVerifications.decidedAt),
      asc(teacherVerifications.id),
    )
    .limit(ADMIN_LIST_PAGE_SIZE)
    .offset((page - 1) * ADMIN_LIST_PAGE_SIZE)
  return rows.map(toAdminVerification)
}

/** Where one image of a submission is; the read is audited before the path is given out. */
export async function adminVerificationDocument(
  db: Db,
  operator: UserRow,
  id: number,
  kind: 'face' | 'document',
  address?: string,
): Promise<{ path: string }> {
  const [row] = await db
    .select({ facePath: teacherVerifications.facePath, documentPath: teacherVerifications.documentPath })
    .from(teacherVerifications)
    .where(eq(teacherVerifications.id, id))
  if (!row) throw notFound('本人確認の申請')
  const path = kind === 'face' ? row.facePath : row.documentPath
  if (!path) throw new ApiError(404, 'documents_deleted', '保存期間を過ぎたため、画像は削除されています')
  await audit(db, {
    actorId: operator.id,
    actorLabel: actorLabel(operator),
    action: 'document_access',
    targetType: 'teacher_verification',
    targetId: id,
    address,
    after: { kind },
  })
  return { path }
}

/** Approves (the member becomes 本人確認済み) or rejects with a reason; the member gets a mail either way. */
export async function adminDecideVerification(
  db: Db,
  operator: UserRow,
  id: number,
  body: DecideVerificationBody,
  now: Date,
  address?: string,
): Promise<AdminVerification> {
  await transaction(db, async (tx) => {
    // The member first (0015): a suspension and an approval of the same member never cross.
    const [peek] = await tx
      .select({ userId: teacherVerifications.userId })
      .from(teacherVerifications)
      .where(eq(teacherVerifications.id, id))
    if (!peek) throw notFound('本人確認の申請')
    // 'no key update', not share: an approval then updates this row (0015: locks are never upgraded).
    const [member] = await tx
      .select({ suspendedAt: users.suspendedAt })
      .from(users)
      .where(eq(users.id, peek.userId))
      .for('no key update')
    const [row] = await tx
      .select()
      .from(teacherVerifications)
      .where(eq(teacherVerifications.id, id))
      .for('update')
    if (!row) throw notFound('本人確認の申請')
    if (row.status !== 'pending') throw new ApiError(409, 'already_decided', 'この申請はすでに審査済みです')
    if (row.userId === operator.id) throw ownAccount()
    const approve = body.decision === 'approve'
    if (approve && member?.suspendedAt)
      throw new ApiError(409, 'member_suspended', '利用停止中のアカウントの申請は承認できません')
    const reason = approve ? null : (body.reason ?? '').trim()
    await tx
      .update(teacherVerifications)
      .set({ status: approve ? 'approved' : 'rejected', decidedAt: now, decidedBy: operator.id, reason })
      .where(eq(teacherVerifications.id, id))
    // The name the public page shows under 本人確認済み is the one checked against the document (0046).
    if (approve)
      await tx
        .update(users)
        .set({
          teacherVerifiedAt: now,
          isTeacher: true,
          name: row.legalName,
          nameKana: row.legalNameKana,
          updatedAt: now,
        })
        .where(eq(users.id, row.userId))
    await audit(tx, {
      actorId: operator.id,
      actorLabel: actorLabel(operator),
      action: approve ? 'verification_approve' : 'verification_reject',
      targetType: 'user',
      targetId: row.userId,
      address,
      before: { status: 'pending', verification_id: id },
      after: approve ? { status: 'approved' } : { status: 'rejected', reason },
    })
    await enqueue(tx, 'notify.verification', { verificationId: id }, { dedupeKey: `verification:${id}` })
  })
  const [decided] = await db
    .select(adminColumns)
    .from(teacherVerifications)
    .innerJoin(users, eq(users.id, teacherVerifications.userId))
    .where(eq(teacherVerifications.id, id))
  return toAdminVerification(decided!)
}

/** The gate of publishing a class and founding an organisation. */
export function requireVerifiedTeacher(user: UserRow, action: 'publish' | 'organization'): void {
  if (user.teacherVerifiedAt) return
  throw new ApiError(
    403,
    'not_verified',
    action === 'publish'
      ? '本人確認が完了するまでクラスを公開できません。下書きとして保存してください'
      : '団体を作成できるのは本人確認が完了した先生だけです',
  )
}
