import { createFileRoute } from '@tanstack/react-router'
import { MagazineList } from '~/features/magazine/magazine-list'
import { magazineListQuery } from '~/features/magazine/queries'
import { parseMagazineSearch } from '~/features/magazine/search-params'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/_magazine/magazine/')({
  validateSearch: parseMagazineSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => context.queryClient.ensureQueryData(magazineListQuery(deps)),
  head: ({ match }) =>
    pageHead(match, {
      title: match.search.category ?? (match.search.tag ? `#${match.search.tag}` : '記事一覧'),
      magazine: true,
      description:
        '子どもの学びと習いごとのヒントを届ける、まなびのたねマガジン。オンライン授業のコツ、先生インタビュー、家庭学習のアイデアなど。',
    }),
  component: MagazineList,
})
