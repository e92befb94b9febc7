import { queryOptions } from '@tanstack/react-query'
import {
  getAdminAudit,
  getAdminNotices,
  getAdminReports,
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

export const adminNoticesQuery = () =>
  queryOptions({ queryKey: ['admin', 'notices'], queryFn: () => getAdminNotices() })

export const adminAuditQuery = (search: AuditSearch) =>
  queryOptions({
    queryKey: ['admin', 'audit', search],
    // biome-ignore lint/suspicious/noExplicitAny: the route's search schema has checked the values
    queryFn: () => getAdminAudit({ data: search as any }),
  })

export const heldMessagesQuery = () =>
  queryOptions({ queryKey: ['admin', 'messages'], queryFn: () => getHeldMessages() })

export type VerificationStatus = 'pending' | 'approved' | 'rejected'
export const adminVerificationsQuery = (status: VerificationStatus) =>
  queryOptions({
    queryKey: ['admin', 'verifications', status],
    queryFn: () => getAdminVerifications({ data: { status } }),
  })

export interface ReportSearch {
  status?: 'open' | 'dismissed' | 'hidden' | 'suspended'
  kind?: 'class' | 'teacher' | 'message' | 'review'
}
export const adminReportsQuery = (search: ReportSearch) =>
  queryOptions({ queryKey: ['admin', 'reports', search], queryFn: () => getAdminReports({ data: search }) })
