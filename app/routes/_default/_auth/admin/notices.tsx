import { createFileRoute } from '@tanstack/react-router'
import { AdminNotices } from '~/features/admin/admin-notices'
import { adminNoticesQuery } from '~/features/admin/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/admin/notices')({
  loader: ({ context }) => context.queryClient.ensureQueryData(adminNoticesQuery()),
  head: ({ match }) => pageHead(match, { title: 'お知らせの管理', noindex: true }),
  component: AdminNotices,
})
