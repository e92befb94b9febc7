import { createFileRoute } from '@tanstack/react-router'
import { DeepInfoFailure } from '~/components/shell/deep-info-failure'
import { ProfileView } from '~/features/profile/profile-view'
import { profileQuery } from '~/features/profile/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/profile')({
  loader: ({ context }) => context.queryClient.ensureQueryData(profileQuery()),
  errorComponent: DeepInfoFailure,
  head: ({ match }) => pageHead(match, { title: '基本情報', noindex: true }),
  component: ProfileView,
})
