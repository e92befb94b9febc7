import { createFileRoute } from '@tanstack/react-router'
import { DeepInfoFailure } from '~/components/shell/deep-info-failure'
import { MyPageView } from '~/features/mypage/mypage-view'
import { myPageQuery } from '~/features/mypage/queries'
import { pageHead } from '~/lib/seo'

/** The teacher tools that exist (class management, sales management). */
const TEACHER_LINKS = [
  { to: '/class_management', label: 'クラス管理' },
  { to: '/sales_management', label: '売上管理' },
] as const

export const Route = createFileRoute('/_default/_auth/mypage')({
  loader: ({ context }) => context.queryClient.ensureQueryData(myPageQuery()),
  errorComponent: DeepInfoFailure,
  head: ({ match }) => pageHead(match, { title: 'マイページ', noindex: true }),
  component: () => <MyPageView teacherLinks={[...TEACHER_LINKS]} />,
})
