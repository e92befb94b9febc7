import { createFileRoute } from '@tanstack/react-router'
import { classSearchQuery, searchOptionsQuery } from '~/features/class-search/queries'
import { ClassSearchPage } from '~/features/class-search/search-page'
import { parseClassSearch } from '~/features/class-search/search-params'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_default/class_search/')({
  validateSearch: parseClassSearch,
  loaderDeps: ({ search }) => search,
  loader: async ({ context, deps }) => {
    await Promise.all([
      context.queryClient.ensureQueryData(classSearchQuery(deps)),
      context.queryClient.ensureQueryData(searchOptionsQuery()),
    ])
  },
  head: ({ match }) =>
    pageHead(match, {
      title: match.search.q ? `「${match.search.q}」のクラス` : 'クラスを探す',
      description:
        'オンラインで受けられる子ども向けのクラスを、キーワード・カテゴリ・対象学年・授業形式・料金・開催日から探せます。',
    }),
  component: ClassSearchPage,
})
