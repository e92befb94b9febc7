import { z } from 'zod'
import { AUDIT_ACTIONS } from '../../lib/audit-actions'
import { DateTime, Id, IdString, line, paragraph } from './common'
import { AdminListPage } from './trust'

/** /v1/admin/* — operators (運営) only (issue 15). */

export const AdminNoticeState = z.enum(['scheduled', 'published', 'withdrawn'])
export const AdminNotice = z.object({
  id: Id,
  title: z.string(),
  body: z.string(),
  body_html: z.string().nullable(),
  published_at: DateTime,
  withdrawn_at: DateTime.nullable(),
  state: AdminNoticeState,
  created_by: z.string().nullable(),
})
export type AdminNotice = z.infer<typeof AdminNotice>
/** A page of notices (200 a page, the latest publication first; a full page may have a next). */
export const AdminNoticeList = z.array(AdminNotice)
export const AdminNoticeQuery = z.object({ page: AdminListPage })

export const CreateNoticeBody = z
  .object({
    title: line(100),
    body: paragraph(5000).refine((v) => v.trim().length > 0, '本文を入力してください'),
    /** When it appears (default: now). A time in the past publishes at once. */
    published_at: DateTime.optional(),
  })
  .strict()
export type CreateNoticeBody = z.input<typeof CreateNoticeBody>

export const AuditAction = z.enum(AUDIT_ACTIONS)
export const AuditQuery = z.object({
  action: AuditAction.optional(),
  actor_id: IdString.optional(),
  /** YYYY-MM-DD, Tokyo days, inclusive. */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  page: z.coerce.number().int().min(1).max(1000).default(1),
})
export type AuditQuery = z.input<typeof AuditQuery>

export const AuditEntry = z.object({
  id: Id,
  at: DateTime,
  actor_id: Id.nullable(),
  actor_label: z.string(),
  action: AuditAction,
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  address: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
})
export type AuditEntry = z.infer<typeof AuditEntry>
export const AuditPage = z.object({
  entries: z.array(AuditEntry),
  page: z.number().int(),
  has_next: z.boolean(),
})
export type AuditPage = z.infer<typeof AuditPage>

/** A message held for an operator: it contained contact details and was sent after the warning. */
export const HeldMessage = z.object({
  id: Id,
  room_id: Id,
  body: z.string(),
  created_at: DateTime,
  /** What the detector found (電話番号, メールアドレス …). */
  found: z.string(),
  sender: z.object({ id: Id, nickname: z.string() }),
  recipient: z.object({ id: Id, nickname: z.string() }).nullable(),
})
export type HeldMessage = z.infer<typeof HeldMessage>
export const HeldMessageList = z.array(HeldMessage)
export const ModerationResult = z.object({ id: Id, status: z.enum(['visible', 'deleted']) })
