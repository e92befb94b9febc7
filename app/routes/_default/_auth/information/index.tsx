import { createFileRoute } from '@tanstack/react-router'
import { InformationList } from '~/features/information/information-list'
import { informationQuery } from '~/features/information/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/information/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(informationQuery()),
  head: ({ match }) => pageHead(match, { title: 'お知らせ', noindex: true }),
  component: InformationList,
})
