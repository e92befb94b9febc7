import { createFileRoute } from '@tanstack/react-router'
import { AdminVerifications } from '~/features/admin/admin-verifications'
import { adminVerificationsQuery, type VerificationStatus } from '~/features/admin/queries'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/admin/verifications')({
  validateSearch: (
    search: Record<string, unknown>,
  ): { status?: Exclude<VerificationStatus, 'pending'>; page?: number } => {
    const page = parseId(search.page)
    return {
      ...(search.status === 'approved' || search.status === 'rejected' ? { status: search.status } : {}),
      ...(page !== undefined && page > 1 && page <= 1000 ? { page } : {}),
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
