import { createFileRoute } from '@tanstack/react-router'
import { AdminSuspensions } from '~/features/admin/admin-suspensions'
import { adminSuspensionsQuery } from '~/features/admin/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/admin/suspensions')({
  loader: ({ context }) => context.queryClient.ensureQueryData(adminSuspensionsQuery()),
  head: ({ match }) => pageHead(match, { title: '利用停止中のアカウント', noindex: true }),
  component: AdminSuspensions,
})
