import { createFileRoute } from '@tanstack/react-router'
import { AdminSuspensions } from '~/features/admin/admin-suspensions'
import { adminSuspensionsQuery } from '~/features/admin/queries'
import { laterPage } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/admin/suspensions')({
  validateSearch: (search: Record<string, unknown>): { page?: number } => ({ page: laterPage(search.page) }),
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(adminSuspensionsQuery(deps.page)),
  head: ({ match }) => pageHead(match, { title: '利用停止中のアカウント', noindex: true }),
  component: function Suspensions() {
    return <AdminSuspensions page={Route.useSearch().page ?? 1} />
  },
})
