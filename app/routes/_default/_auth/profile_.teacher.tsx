import { createFileRoute } from '@tanstack/react-router'
import { teachingStateQuery } from '~/features/teaching/queries'
import { TeachingPage } from '~/features/teaching/teaching-page'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/profile_/teacher')({
  loader: ({ context }) => context.queryClient.ensureQueryData(teachingStateQuery()),
  head: ({ match }) => pageHead(match, { title: '先生として活動する', noindex: true }),
  component: TeachingPage,
})
