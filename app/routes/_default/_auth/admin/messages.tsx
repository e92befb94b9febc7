import { createFileRoute } from '@tanstack/react-router'
import { AdminMessages } from '~/features/admin/admin-messages'
import { heldMessagesQuery } from '~/features/admin/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/admin/messages')({
  loader: ({ context }) => context.queryClient.ensureQueryData(heldMessagesQuery()),
  head: ({ match }) => pageHead(match, { title: '確認待ちのメッセージ', noindex: true }),
  component: AdminMessages,
})
