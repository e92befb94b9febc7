import { createFileRoute } from '@tanstack/react-router'
import { AdminHome } from '~/features/admin/admin-home'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/admin/')({
  head: ({ match }) => pageHead(match, { title: '運営管理', noindex: true }),
  component: AdminHome,
})
