import { createFileRoute } from '@tanstack/react-router'
import { DeepInfoFailure } from '~/components/shell/deep-info-failure'
import { ProfileEdit } from '~/features/profile/profile-edit'
import { profileQuery } from '~/features/profile/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/profile_/edit_user')({
  loader: ({ context }) => context.queryClient.ensureQueryData(profileQuery()),
  errorComponent: DeepInfoFailure,
  head: ({ match }) => pageHead(match, { title: 'ユーザー情報の編集', noindex: true }),
  component: ProfileEdit,
})
