import { createFileRoute } from '@tanstack/react-router'
import { AdminReports } from '~/features/admin/admin-reports'
import { adminReportsQuery, type ReportSearch } from '~/features/admin/queries'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

const STATUSES = ['dismissed', 'hidden', 'suspended'] as const
const KINDS = ['class', 'teacher', 'message', 'review'] as const

export const Route = createFileRoute('/_default/_auth/admin/reports')({
  validateSearch: (search: Record<string, unknown>): ReportSearch => {
    const out: ReportSearch = {}
    if ((STATUSES as readonly unknown[]).includes(search.status))
      out.status = search.status as ReportSearch['status']
    if ((KINDS as readonly unknown[]).includes(search.kind)) out.kind = search.kind as ReportSearch['kind']
    const page = parseId(search.page)
    if (page !== undefined && page > 1 && page <= 1000) out.page = page
    return out
  },
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(adminReportsQuery(deps)),
  head: ({ match }) => pageHead(match, { title: '通報', noindex: true }),
  component: function Reports() {
    return <AdminReports search={Route.useSearch()} />
  },
})
