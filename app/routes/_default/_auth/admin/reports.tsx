import { createFileRoute } from '@tanstack/react-router'
import { AdminReports } from '~/features/admin/admin-reports'
import { adminReportsQuery, type ReportSearch } from '~/features/admin/queries'
import { laterPage } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

const STATUSES = ['dismissed', 'hidden', 'suspended'] as const
const KINDS = ['class', 'teacher', 'message', 'review'] as const

export const Route = createFileRoute('/_default/_auth/admin/reports')({
  validateSearch: (search: Record<string, unknown>): ReportSearch => ({
    status: (STATUSES as readonly unknown[]).includes(search.status)
      ? (search.status as ReportSearch['status'])
      : undefined,
    kind: (KINDS as readonly unknown[]).includes(search.kind)
      ? (search.kind as ReportSearch['kind'])
      : undefined,
    page: laterPage(search.page),
  }),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(adminReportsQuery(deps)),
  head: ({ match }) => pageHead(match, { title: '通報', noindex: true }),
  component: function Reports() {
    return <AdminReports search={Route.useSearch()} />
  },
})
