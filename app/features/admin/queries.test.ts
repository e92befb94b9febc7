import { describe, expect, it } from 'vitest'
import { adminAuditQuery, adminReportsQuery, auditFilter } from './queries'

// The router's search carries every key of the address, not only those the route validated.
const withExtra = <T>(search: T) => ({ ...search, utm_source: 'x'.repeat(6_000) }) as T

describe('operator list queries', () => {
  it('key the audit log by its filter alone, dropping an action the log does not know', () => {
    const { queryKey } = adminAuditQuery(withExtra({ action: 'no_such_action', actor_id: 3, page: 2 }))
    expect(queryKey).toEqual([
      'admin',
      'audit',
      { action: undefined, actor_id: 3, from: undefined, to: undefined, page: 2 },
    ])
    expect(adminAuditQuery(withExtra({ action: 'sign_in' })).queryKey[2]).toMatchObject({ action: 'sign_in' })
  })

  it('carry only the audit filter to the next page of the log', () => {
    expect(auditFilter(withExtra({ action: 'sign_in', from: '2026-12-01', page: 3 }))).toEqual({
      action: 'sign_in',
      actor_id: undefined,
      from: '2026-12-01',
      to: undefined,
      page: 3,
    })
  })

  it('key the reports by status, kind and page alone', () => {
    const { queryKey } = adminReportsQuery(withExtra({ status: 'hidden' as const, kind: 'review' as const }))
    expect(queryKey).toEqual(['admin', 'reports', { status: 'hidden', kind: 'review', page: undefined }])
  })
})
