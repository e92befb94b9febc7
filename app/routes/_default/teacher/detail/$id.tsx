import { createFileRoute, Link, notFound } from '@tanstack/react-router'
import { LazyGonePage } from '~/components/ui/lazy-gone-page'
import { isMember } from '~/features/auth/auth-state'
import { PageFurigana } from '~/features/furigana/page-furigana'
import { prefetchFurigana } from '~/features/furigana/queries'
import { ReportButton } from '~/features/report/report-button'
import { followStateQuery, teacherPageQuery } from '~/features/teacher/queries'
import { TeacherView } from '~/features/teacher/teacher-view'
import { parseId } from '~/lib/ids'
import { intIn } from '~/lib/search-values'
import { pageHead, type SeoInput } from '~/lib/seo'

/** Teacher introduction (spec §2): the bottom navigation is hidden here (components/shell/bottom-nav.tsx). */
export const Route = createFileRoute('/_default/teacher/detail/$id')({
  // ?page=N of the teacher's classes (24 per page); a bad value is page 1, like the search's.
  validateSearch: (input: Record<string, unknown>): { page?: number } => {
    const page = intIn(input.page, 1, 1000)
    return { page: page === 1 ? undefined : page }
  },
  loaderDeps: ({ search }) => ({ page: search.page ?? 1 }),
  loader: async ({ context, params, deps }) => {
    const id = parseId(params.id)
    if (id === undefined) throw notFound()
    const [page, , { oneLine, personJsonLd }] = await Promise.all([
      context.queryClient.ensureQueryData(teacherPageQuery(id, deps.page)),
      isMember(context.auth)
        ? context.queryClient.ensureQueryData(followStateQuery(id)).catch(() => null)
        : null,
      // Loaded beside the data: a first load never runs this loader in the browser, so the JSON-LD builders
      // stay out of first-load scripts (0008).
      import('~/lib/structured-data'),
    ])
    if (!page) throw notFound()
    if ('gone' in page)
      return {
        id,
        page: deps.page,
        gone: page.gone,
        classIds: [],
        seo: { title: 'このページは公開を終了しました', noindex: true },
      }
    const t = page.profile
    const classIds = page.classes.map((c) => c.id)
    await prefetchFurigana(context.queryClient, context.auth.furigana, {
      user_ids: [id],
      class_ids: classIds,
    })
    // SEO tags and JSON-LD are built here: the loader is code-split, head() is not (0008).
    const seo: SeoInput = {
      title: `${t.nickname}（${t.name}）${deps.page > 1 ? `（${deps.page}ページ目）` : ''}`,
      description: oneLine(
        `${t.nickname}のプロフィールと公開中のクラス。${t.profession ? `${t.profession.name}。` : ''}${t.introduction}`,
      ),
      image: t.avatar_url ?? undefined,
      type: 'website',
      jsonLd: personJsonLd(context.site.siteOrigin, t),
    }
    return { id, page: deps.page, gone: undefined, classIds, seo }
  },
  head: ({ match, loaderData }) => pageHead(match, loaderData?.seo ?? {}),
  component: TeacherPage,
})

function TeacherPage() {
  const { id, page, gone, classIds } = Route.useLoaderData()
  if (gone) return <LazyGonePage message={gone} />
  return (
    <PageFurigana ids={{ user_ids: [id], class_ids: classIds }}>
      <TeacherView
        id={id}
        page={page}
        report={<ReportButton target="teacher" id={id} />}
        pageLink={(p, props) => (
          <Link
            to="/teacher/detail/$id"
            params={{ id: String(id) }}
            search={{ page: p > 1 ? p : undefined }}
            hash="classes-heading"
            {...props}
          />
        )}
      />
    </PageFurigana>
  )
}
