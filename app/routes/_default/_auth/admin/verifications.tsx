import { createFileRoute } from '@tanstack/react-router'
import { AdminVerifications } from '~/features/admin/admin-verifications'
import { adminVerificationsQuery, type VerificationStatus } from '~/features/admin/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/admin/verifications')({
  validateSearch: (search: Record<string, unknown>): { status?: Exclude<VerificationStatus, 'pending'> } =>
    search.status === 'approved' || search.status === 'rejected' ? { status: search.status } : {},
  loaderDeps: ({ search }) => ({ status: search.status ?? ('pending' as const) }),
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(adminVerificationsQuery(deps.status)),
  head: ({ match }) => pageHead(match, { title: '本人確認', noindex: true }),
  component: function Verifications() {
    return <AdminVerifications status={Route.useSearch().status ?? 'pending'} />
  },
})
