import { createFileRoute } from '@tanstack/react-router'
import { classSearchQuery, searchOptionsQuery } from '~/features/class-search/queries'
import { ClassSearchPage } from '~/features/class-search/search-page'
import { parseClassSearch } from '~/features/class-search/search-params'
import { PageFurigana } from '~/features/furigana/page-furigana'
import { prefetchFurigana } from '~/features/furigana/queries'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/class_search/')({
  validateSearch: parseClassSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    const [result] = await Promise.all([
      context.queryClient.ensureQueryData(classSearchQuery(deps)),
      context.queryClient.ensureQueryData(searchOptionsQuery()),
    ])
    const classIds = result?.items.map((c) => c.id) ?? []
    await prefetchFurigana(context.queryClient, context.auth.furigana, { class_ids: classIds })
    return { classIds }
  },
  head: ({ match }) =>
    pageHead(match, {
      title: match.search.q ? `「${match.search.q}」のクラス` : 'クラスを探す',
      description:
        'オンラインで受けられる子ども向けのクラスを、キーワード・カテゴリ・対象学年・授業形式・料金・開催日から探せます。',
    }),
  component: SearchRoute,
})

function SearchRoute() {
  const { classIds } = Route.useLoaderData()
  return (
    <PageFurigana ids={{ class_ids: classIds }}>
      <ClassSearchPage />
    </PageFurigana>
  )
}
