import { queryOptions } from '@tanstack/react-query'
import { AUDIT_ACTIONS } from '~/lib/audit-actions'
import {
  getAdminAudit,
  getAdminNotices,
  getAdminReports,
  getAdminSuspensions,
  getAdminVerifications,
  getHeldMessages,
} from './admin.functions'

export interface AuditSearch {
  action?: string
  actor_id?: number
  from?: string
  to?: string
  page?: number
}

export const adminNoticesQuery = (page = 1) =>
  queryOptions({ queryKey: ['admin', 'notices', page], queryFn: () => getAdminNotices({ data: { page } }) })

/**
 * The audit log's filter alone: the router's search also carries whatever else the address had, which would
 * otherwise split the cache, ride along in the server function's URL and be carried to the next page's address.
 * An action the log does not know is dropped here rather than in the route's search validation, which runs in
 * every page's entry script: the list of actions loads with the audit page only.
 */
export const auditFilter = (search: AuditSearch) => {
  const known = (AUDIT_ACTIONS as readonly (string | undefined)[]).includes(search.action)
  return {
    action: known ? search.action : undefined,
    actor_id: search.actor_id,
    from: search.from,
    to: search.to,
    page: search.page,
  }
}

/** The audit log filtered by `search`, keyed by the filter alone. */
export const adminAuditQuery = (search: AuditSearch) => {
  const filter = auditFilter(search)
  return queryOptions({
    queryKey: ['admin', 'audit', filter],
    // biome-ignore lint/suspicious/noExplicitAny: the route's search schema and the check above have checked the values
    queryFn: () => getAdminAudit({ data: filter as any }),
  })
}

export const heldMessagesQuery = () =>
  queryOptions({ queryKey: ['admin', 'messages'], queryFn: () => getHeldMessages() })

export type VerificationStatus = 'pending' | 'approved' | 'rejected'
export const adminVerificationsQuery = (status: VerificationStatus, page = 1) =>
  queryOptions({
    queryKey: ['admin', 'verifications', status, page],
    queryFn: () => getAdminVerifications({ data: { status, page } }),
  })

export interface ReportSearch {
  status?: 'open' | 'dismissed' | 'hidden' | 'suspended'
  kind?: 'class' | 'teacher' | 'message' | 'review'
  page?: number
}
export const adminReportsQuery = (search: ReportSearch) => {
  const filter = { status: search.status, kind: search.kind, page: search.page } // as in adminAuditQuery
  return queryOptions({
    queryKey: ['admin', 'reports', filter],
    queryFn: () => getAdminReports({ data: filter }),
  })
}

export const adminSuspensionsQuery = (page = 1) =>
  queryOptions({
    queryKey: ['admin', 'suspensions', page],
    queryFn: () => getAdminSuspensions({ data: { page } }),
  })
