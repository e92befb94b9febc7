import { createFileRoute } from '@tanstack/react-router'
import { AdminVerifications } from '~/features/admin/admin-verifications'
import { adminVerificationsQuery, type VerificationStatus } from '~/features/admin/queries'
import { laterPage } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/admin/verifications')({
  validateSearch: (
    search: Record<string, unknown>,
  ): { status?: Exclude<VerificationStatus, 'pending'>; page?: number } => {
    return {
      status: search.status === 'approved' || search.status === 'rejected' ? search.status : undefined,
      page: laterPage(search.page),
    }
  },
  loaderDeps: ({ search }) => ({ status: search.status ?? ('pending' as const), page: search.page ?? 1 }),
  loader: ({ context, deps }) =>
    context.queryClient.ensureQueryData(adminVerificationsQuery(deps.status, deps.page)),
  head: ({ match }) => pageHead(match, { title: '本人確認', noindex: true }),
  component: function Verifications() {
    const search = Route.useSearch()
    return <AdminVerifications status={search.status ?? 'pending'} page={search.page ?? 1} />
  },
})
