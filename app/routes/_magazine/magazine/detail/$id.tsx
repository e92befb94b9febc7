import { createFileRoute, notFound } from '@tanstack/react-router'
import { ArticleView } from '~/features/magazine/article-view'
import { magazineArticleQuery } from '~/features/magazine/queries'
import { parseId } from '~/lib/ids'
import { pageHead, type SeoInput } from '~/lib/seo'

export const Route = createFileRoute('/_magazine/magazine/detail/$id')({
  loader: async ({ context, params }) => {
    const id = parseId(params.id)
    // A missing article is the magazine 404 variant (chosen by path in the root's not-found page).
    if (id === undefined) throw notFound()
    const [data, { articleJsonLd, oneLine }] = await Promise.all([
      context.queryClient.ensureQueryData(magazineArticleQuery(id)),
      // Loaded beside the data: a first load never runs this loader in the browser, so the JSON-LD builders
      // stay out of first-load scripts (0008).
      import('~/lib/structured-data'),
    ])
    if (!data) throw notFound()
    const a = data.article
    // SEO tags and JSON-LD are built here: the loader is code-split, head() is not (0008).
    const seo: SeoInput = {
      title: a.title,
      description: oneLine(a.lead),
      image: a.image_url ?? undefined,
      magazine: true,
      type: 'article',
      jsonLd: articleJsonLd(context.site.siteOrigin, a),
    }
    return { id, seo }
  },
  head: ({ match, loaderData }) => pageHead(match, loaderData?.seo ?? { magazine: true }),
  component: ArticlePage,
})

function ArticlePage() {
  const { id } = Route.useLoaderData()
  return <ArticleView id={id} />
}
