import { queryOptions } from '@tanstack/react-query'
import { getAdminAudit, getAdminNotices, getHeldMessages } from './admin.functions'

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
