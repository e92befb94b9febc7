import { createFileRoute, notFound } from '@tanstack/react-router'
import { isMember } from '~/features/auth/auth-state'
import { followStateQuery, teacherPageQuery } from '~/features/teacher/queries'
import { TeacherView } from '~/features/teacher/teacher-view'
import { parseId } from '~/lib/ids'
import { pageHead } from '~/lib/seo'
import { oneLine, personJsonLd } from '~/lib/structured-data'

/** Teacher introduction (spec §2): the bottom navigation is hidden here (components/shell/bottom-nav.tsx). */
export const Route = createFileRoute('/_default/teacher/detail/$id')({
  loader: async ({ context, params }) => {
    const id = parseId(params.id)
    if (id === undefined) throw notFound()
    const [page] = await Promise.all([
      context.queryClient.ensureQueryData(teacherPageQuery(id)),
      isMember(context.auth)
        ? context.queryClient.ensureQueryData(followStateQuery(id)).catch(() => null)
        : null,
    ])
    if (!page) throw notFound()
    return { id }
  },
  head: ({ match, loaderData }) =>
    pageHead(match, () => {
      const page =
        loaderData && match.context.queryClient.getQueryData(teacherPageQuery(loaderData.id).queryKey)
      if (!page) return {}
      const t = page.profile
      return {
        title: `${t.nickname}（${t.name}）`,
        description: oneLine(
          `${t.nickname}のプロフィールと公開中のクラス。${t.profession ? `${t.profession.name}。` : ''}${t.introduction}`,
        ),
        image: t.avatar_url ?? undefined,
        type: 'website',
        jsonLd: personJsonLd(match.context.site.siteOrigin, t),
      }
    }),
  component: TeacherPage,
})

function TeacherPage() {
  const { id } = Route.useLoaderData()
  return <TeacherView id={id} />
}
