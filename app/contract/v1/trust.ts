import { z } from 'zod'
import { REPORT_REASONS, type ReportReason as ReasonKey } from '../../lib/report-reasons'
import { DateTime, Id, line, paragraph } from './common'

/** Identity verification (本人確認) and reports (通報): issue 15, docs/decisions/0020. */

// ── 本人確認 ────────────────────────────────────────────────────────────────────────────────────

/** Where the upload store keeps a verification image: never under a path /uploads serves. */
export const VERIFICATION_PATH = /^verifications\/[a-f0-9]{32}\.webp$/
const VerificationPath = z.string().regex(VERIFICATION_PATH, '画像をアップロードしてください')

/** Katakana or hiragana with spaces and the long vowel mark (the profile's rule). */
const kana = line(50).regex(
  /^[\p{Script=Katakana}\p{Script=Hiragana}ー・ 　]+$/u,
  'ふりがなはカタカナかひらがなで入力してください',
)

/** A date of birth: a real day, at least 18 years before `now` (checked by the service) and after 1900. */
const BirthDate = z.iso
  .date('生年月日を正しく入力してください')
  .refine((v) => v >= '1900-01-01', '生年月日を正しく入力してください')

export const SubmitVerificationBody = z
  .object({
    legal_name: line(50),
    legal_name_kana: kana,
    birth_date: BirthDate,
    career: paragraph(1000).refine((v) => v.trim().length >= 10, '経歴は10文字以上で入力してください'),
    face_path: VerificationPath,
    document_path: VerificationPath,
  })
  .strict()
export type SubmitVerificationBody = z.infer<typeof SubmitVerificationBody>

export const VerificationState = z.enum(['none', 'pending', 'approved', 'rejected'])
export type VerificationState = z.infer<typeof VerificationState>

/** GET /v1/users/teacher_verification: the caller's latest submission, or none. */
export const MyVerification = z.object({
  status: VerificationState,
  /** Teaching is on (drafts allowed); publishing needs `status: approved`. */
  is_teacher: z.boolean(),
  submitted_at: DateTime.nullable(),
  decided_at: DateTime.nullable(),
  /** The operator's reason when rejected. */
  reason: z.string().nullable(),
})
export type MyVerification = z.infer<typeof MyVerification>

export const AdminVerification = z.object({
  id: Id,
  status: z.enum(['pending', 'approved', 'rejected']),
  user: z.object({ id: Id, nickname: z.string(), email: z.string().nullable() }),
  legal_name: z.string(),
  legal_name_kana: z.string(),
  birth_date: z.string(),
  career: z.string(),
  submitted_at: DateTime,
  decided_at: DateTime.nullable(),
  reason: z.string().nullable(),
  /** False once the images were deleted (30 days after the decision). */
  has_documents: z.boolean(),
})
export type AdminVerification = z.infer<typeof AdminVerification>
export const AdminVerificationList = z.array(AdminVerification)

/** A page of 200 (ADMIN_LIST_PAGE_SIZE): an operator reaches every entry, however many there are. */
export const AdminListPage = z.coerce.number().int().min(1).max(1000).default(1)

export const AdminVerificationQuery = z.object({
  status: z.enum(['pending', 'approved', 'rejected']).default('pending'),
  page: AdminListPage,
})

export const VerificationDocumentKind = z.enum(['face', 'document'])
export const VerificationDocumentParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,8}$/, '数値のIDを指定してください')
    .transform(Number),
  kind: VerificationDocumentKind,
})
/** Where the image is in the upload store (the BFF streams it to the operator; the access is audited). */
export const VerificationDocument = z.object({ path: VerificationPath })

export const DecideVerificationBody = z
  .object({
    decision: z.enum(['approve', 'reject']),
    /** Required to reject: the member reads it. */
    reason: paragraph(500).optional(),
  })
  .strict()
  .refine((v) => v.decision === 'approve' || (v.reason ?? '').trim().length > 0, {
    message: '却下の理由を入力してください',
    path: ['reason'],
  })
export type DecideVerificationBody = z.infer<typeof DecideVerificationBody>

// ── 通報 ────────────────────────────────────────────────────────────────────────────────────────

export const ReportReason = z.enum(Object.keys(REPORT_REASONS) as [ReasonKey, ...ReasonKey[]], {
  message: '通報の理由を選んでください',
})

export const ReportTargetType = z.enum(['class', 'teacher', 'message', 'review'], {
  message: '通報する対象が正しくありません',
})

export const CreateReportBody = z
  .object({
    target_type: ReportTargetType,
    target_id: Id,
    reason: ReportReason,
    detail: paragraph(1000).default(''),
  })
  .strict()
export type CreateReportBody = z.input<typeof CreateReportBody>

export const ReportReceipt = z.object({ id: Id, message: z.string() })

export const ReportStatus = z.enum(['open', 'dismissed', 'hidden', 'suspended'])
export const AdminReportQuery = z.object({
  status: ReportStatus.default('open'),
  kind: z.enum(['class', 'teacher', 'message', 'review']).optional(),
  page: AdminListPage,
})
export type AdminReportQuery = z.input<typeof AdminReportQuery>

export const AdminReport = z.object({
  id: Id,
  target_type: z.enum(['class', 'teacher', 'message', 'review']),
  target_id: Id,
  /** What the operator needs to judge: a class's title, a teacher's nickname, a message's text. */
  target_summary: z.string(),
  /** Where it can be seen (class and teacher pages); null for messages. */
  target_url: z.string().nullable(),
  target_user: z.object({ id: Id, nickname: z.string(), suspended: z.boolean() }),
  reporter: z.object({ id: Id, nickname: z.string() }),
  reason: ReportReason,
  detail: z.string(),
  status: ReportStatus,
  created_at: DateTime,
  resolved_at: DateTime.nullable(),
  note: z.string().nullable(),
})
export type AdminReport = z.infer<typeof AdminReport>
export const AdminReportList = z.array(AdminReport)

export const ResolveReportBody = z
  .object({
    action: z.enum(['dismiss', 'hide', 'suspend']),
    note: paragraph(500).default(''),
  })
  .strict()
export type ResolveReportBody = z.input<typeof ResolveReportBody>

export const ResolveReportResult = z.object({
  id: Id,
  status: ReportStatus,
  /** Suspension: reservations cancelled (and refunded in full) on the account's classes and of its own. */
  canceled_reservations: z.number().int().nonnegative(),
  refunded_amount: z.number().int().nonnegative(),
})
export type ResolveReportResult = z.infer<typeof ResolveReportResult>

// ── suspensions ─────────────────────────────────────────────────────────────────────────────────

/** GET /v1/admin/suspensions: suspended accounts, the most recently suspended first. */
export const AdminSuspension = z.object({
  user: z.object({ id: Id, nickname: z.string(), is_teacher: z.boolean() }),
  suspended_at: DateTime,
  /** The operator's note on the report whose decision suspended the account, if any. */
  note: z.string().nullable(),
  /** Classes the suspension took down: they come back as drafts when it is lifted. */
  hidden_classes: z.number().int().nonnegative(),
  /** Reviews the suspension took down: they show again when it is lifted. */
  hidden_reviews: z.number().int().nonnegative(),
})
export type AdminSuspension = z.infer<typeof AdminSuspension>
/** A page of suspended accounts (200 a page, the most recently suspended first; a full page may have a next). */
export const AdminSuspensionList = z.array(AdminSuspension)
export type AdminSuspensionList = z.infer<typeof AdminSuspensionList>
export const AdminSuspensionQuery = z.object({ page: AdminListPage })

/** POST /v1/admin/suspensions/{id}/lift (id: the account's): why it is lifted, for the audit log. */
export const LiftSuspensionBody = z
  .object({
    note: paragraph(500).default(''),
    /** The suspension the operator is looking at (its suspended_at): a newer one is not lifted unseen (409). */
    suspended_at: DateTime.optional(),
  })
  .strict()
export type LiftSuspensionBody = z.input<typeof LiftSuspensionBody>

export const LiftSuspensionResult = z.object({
  user_id: Id,
  /** Classes the suspension had taken down, now drafts their teacher may publish again. */
  classes_restored: z.number().int().nonnegative(),
  /** Reviews the suspension had taken down, shown again (not those hidden on a report of their own). */
  reviews_restored: z.number().int().nonnegative(),
})
export type LiftSuspensionResult = z.infer<typeof LiftSuspensionResult>
