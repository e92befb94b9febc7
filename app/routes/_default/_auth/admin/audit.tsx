import { createFileRoute } from '@tanstack/react-router'
import { AdminAudit } from '~/features/admin/admin-audit'
import { type AuditSearch, adminAuditQuery } from '~/features/admin/queries'
import { AUDIT_ACTIONS, type AuditAction } from '~/lib/audit-actions'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

const DAY = /^\d{4}-\d{2}-\d{2}$/

export const Route = createFileRoute('/_default/_auth/admin/audit')({
  validateSearch: (search: Record<string, unknown>): AuditSearch => {
    const out: AuditSearch = {}
    if (typeof search.action === 'string' && (AUDIT_ACTIONS as readonly string[]).includes(search.action))
      out.action = search.action as AuditAction
    const actor = parseId(search.actor_id)
    if (actor !== undefined) out.actor_id = actor
    if (typeof search.from === 'string' && DAY.test(search.from)) out.from = search.from
    if (typeof search.to === 'string' && DAY.test(search.to)) out.to = search.to
    const page = parseId(search.page)
    if (page !== undefined && page > 1 && page <= 1000) out.page = page
    return out
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(adminAuditQuery(deps)),
  head: ({ match }) => pageHead(match, { title: '監査ログ', noindex: true }),
  component: function Audit() {
    return <AdminAudit search={Route.useSearch()} />
  },
})
