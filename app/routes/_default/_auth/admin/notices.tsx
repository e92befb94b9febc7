import { createFileRoute } from '@tanstack/react-router'
import { AdminNotices } from '~/features/admin/admin-notices'
import { adminNoticesQuery } from '~/features/admin/queries'
import { laterPage } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/admin/notices')({
  validateSearch: (search: Record<string, unknown>): { page?: number } => ({ page: laterPage(search.page) }),
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(adminNoticesQuery(deps.page)),
  head: ({ match }) => pageHead(match, { title: 'お知らせの管理', noindex: true }),
  component: function Notices() {
    return <AdminNotices page={Route.useSearch().page ?? 1} />
  },
})
