import { createFileRoute } from '@tanstack/react-router'
import { AdminAudit } from '~/features/admin/admin-audit'
import { type AuditSearch, adminAuditQuery } from '~/features/admin/queries'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

const DAY = /^\d{4}-\d{2}-\d{2}$/
// The shape of an action's name; whether the log knows it is checked by adminAuditQuery, away from the entry.
const ACTION = /^[a-z_]{1,40}$/

export const Route = createFileRoute('/_default/_auth/admin/audit')({
  validateSearch: (search: Record<string, unknown>): AuditSearch => {
    const out: AuditSearch = {}
    if (typeof search.action === 'string' && ACTION.test(search.action)) out.action = search.action
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
