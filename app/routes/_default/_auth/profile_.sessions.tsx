import { createFileRoute } from '@tanstack/react-router'
import { sessionsQuery } from '~/features/sessions/queries'
import { SessionsPage } from '~/features/sessions/sessions-page'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/profile_/sessions')({
  loader: ({ context }) => context.queryClient.ensureQueryData(sessionsQuery()),
  head: ({ match }) => pageHead(match, { title: 'ログイン中の端末', noindex: true }),
  component: SessionsPage,
})
