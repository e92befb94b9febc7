import { createFileRoute, notFound } from '@tanstack/react-router'
import { PageFurigana } from '~/features/furigana/page-furigana'
import { prefetchFurigana } from '~/features/furigana/queries'
import { InformationDetail } from '~/features/information/information-detail'
import { informationItemQuery } from '~/features/information/queries'
import { parseInformationKey } from '~/lib/information-key'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/_auth/information/detail/$id')({
  loader: async ({ context, params }) => {
    const key = parseInformationKey(params.id)
    if (!key) throw notFound()
    const item = await context.queryClient.ensureQueryData(informationItemQuery(params.id))
    if (!item) throw notFound()
    const furigana = furiganaIdsOf(key, item.class_work?.id)
    await prefetchFurigana(context.queryClient, context.auth.furigana, furigana)
    return { title: item.title, furigana }
  },
  head: ({ match, loaderData }) => pageHead(match, { title: loaderData?.title ?? 'お知らせ', noindex: true }),
  component: InformationDetailPage,
})

function InformationDetailPage() {
  const { id } = Route.useParams()
  const { furigana } = Route.useLoaderData()
  return (
    <PageFurigana ids={furigana}>
      <InformationDetail infoKey={id} />
    </PageFurigana>
  )
}

/** A class announcement and its class have readings; the operator's notices are Markdown (not read). */
function furiganaIdsOf(key: { kind: 'notice' | 'class'; id: number }, classId: number | undefined) {
  return key.kind === 'class' ? { announcement_ids: [key.id], class_ids: classId ? [classId] : [] } : {}
}
