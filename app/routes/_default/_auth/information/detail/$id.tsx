import { createFileRoute, notFound } from '@tanstack/react-router'
import { InformationDetail } from '~/features/information/information-detail'
import { informationItemQuery } from '~/features/information/queries'
import { parseInformationKey } from '~/lib/information-key'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/information/detail/$id')({
  loader: async ({ context, params }) => {
    if (!parseInformationKey(params.id)) throw notFound()
    const item = await context.queryClient.ensureQueryData(informationItemQuery(params.id))
    if (!item) throw notFound()
    return { title: item.title }
  },
  head: ({ match, loaderData }) => pageHead(match, { title: loaderData?.title ?? 'お知らせ', noindex: true }),
  component: InformationDetailPage,
})

function InformationDetailPage() {
  const { id } = Route.useParams()
  return <InformationDetail infoKey={id} />
}
