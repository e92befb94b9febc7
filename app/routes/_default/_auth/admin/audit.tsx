import { createFileRoute } from '@tanstack/react-router'
import { AdminAudit } from '~/features/admin/admin-audit'
import { type AuditSearch, adminAuditQuery } from '~/features/admin/queries'
import { laterPage, parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

const DAY = /^\d{4}-\d{2}-\d{2}$/
// The shape of an action's name; whether the log knows it is checked by adminAuditQuery, away from the entry.
const ACTION = /^[a-z_]{1,40}$/

export const Route = createFileRoute('/_default/_auth/admin/audit')({
  validateSearch: (search: Record<string, unknown>): AuditSearch => ({
    action: typeof search.action === 'string' && ACTION.test(search.action) ? search.action : undefined,
    actor_id: parseId(search.actor_id),
    from: typeof search.from === 'string' && DAY.test(search.from) ? search.from : undefined,
    to: typeof search.to === 'string' && DAY.test(search.to) ? search.to : undefined,
    page: laterPage(search.page),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(adminAuditQuery(deps)),
  head: ({ match }) => pageHead(match, { title: '監査ログ', noindex: true }),
  component: function Audit() {
    return <AdminAudit search={Route.useSearch()} />
  },
})
