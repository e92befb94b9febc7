import { createFileRoute } from '@tanstack/react-router'
import { FollowPage } from '~/features/follow/follow-page'
import { followPageQuery } from '~/features/follow/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/follow')({
  loader: ({ context }) => context.queryClient.ensureQueryData(followPageQuery()),
  head: ({ match }) => pageHead(match, { title: 'フォロー・お気に入り', noindex: true }),
  component: FollowPage,
})
