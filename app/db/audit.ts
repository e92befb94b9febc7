import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm'
import type { AuditAction } from '../lib/audit-actions'
import type { DbOrTx } from './client'
import { auditLog } from './schema'

/**
 * The one way to write the audit log (issue 15; docs/decisions/0019): operator actions and security events.
 * Rows are only ever inserted; the table refuses UPDATE, DELETE and TRUNCATE (a trigger). Pass the transaction of
 * the action when there is one, so that the action and its entry commit together.
 */

export type { AuditAction } from '../lib/audit-actions'

export interface AuditEntry {
  actorId?: number | null
  actorLabel: string
  action: AuditAction
  targetType?: string
  targetId?: string | number
  address?: string
  before?: unknown
  after?: unknown
}

export async function audit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorId: entry.actorId ?? null,
    actorLabel: entry.actorLabel.slice(0, 300),
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId === undefined ? null : String(entry.targetId),
    address: entry.address ? entry.address.slice(0, 100) : null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  })
}

export interface AuditFilter {
  action?: AuditAction
  actorId?: number
  /** Entries at or after this moment … */
  from?: Date
  /** … and before this one. */
  to?: Date
  page: number
}

export const AUDIT_PAGE_SIZE = 50

/** One page of entries, newest first, and whether there is a next page. */
export async function listAudit(db: DbOrTx, filter: AuditFilter) {
  const where: SQL[] = []
  if (filter.action) where.push(eq(auditLog.action, filter.action))
  if (filter.actorId !== undefined) where.push(eq(auditLog.actorId, filter.actorId))
  if (filter.from) where.push(gte(auditLog.at, filter.from))
  if (filter.to) where.push(lt(auditLog.at, filter.to))
  const rows = await db
    .select()
    .from(auditLog)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1)
    .offset((filter.page - 1) * AUDIT_PAGE_SIZE)
  return { entries: rows.slice(0, AUDIT_PAGE_SIZE), hasNext: rows.length > AUDIT_PAGE_SIZE }
}
