import { createFileRoute, notFound } from '@tanstack/react-router'
import { useEffect } from 'react'

import { HydrateOnView } from '~/components/shell/hydrate-on-view'
import { lazyPart } from '~/components/shell/lazy-part'
import { useViewer } from '~/components/shell/use-viewer'
import { isMember } from '~/features/auth/auth-state'
import { hasBookableLesson } from '~/features/class-detail/bookable'
import { ClassDetailView, preloadClassDetailParts } from '~/features/class-detail/class-detail-view'
import {
  classDetailQuery,
  classReviewsQuery,
  favoriteStateQuery,
  myClassRequestQuery,
} from '~/features/class-detail/queries'
import { PageFurigana } from '~/features/furigana/page-furigana'
import { prefetchFurigana } from '~/features/furigana/queries'
import { parseId } from '~/lib/ids'
import { pageHead, type SeoInput } from '~/lib/seo'

// Below the fold on every screen: the panel hydrates, and its code loads, when it comes into view (0030).
const panelPart = () => import('~/features/reservation/reservation-panel')
const ReservationPanel = lazyPart(() => panelPart().then((m) => ({ default: m.ReservationPanel })))
// Rendered in the teacher's card, which waits for the view the same way.
const askPart = () => import('~/features/messages/ask-teacher-button')
const AskTeacherButton = lazyPart(() => askPart().then((m) => ({ default: m.AskTeacherButton })))
// At the foot of the page and under each review (which waits for the view too): the same.
const reportPart = () => import('~/features/report/report-button')
const ReportButton = lazyPart(() => reportPart().then((m) => ({ default: m.ReportButton })))

export const Route = createFileRoute('/_default/class_search/detail/$id')({
  loader: async ({ context, params }) => {
    const id = parseId(params.id)
    // A non-numeric id, an unknown one and an unpublished class are all the class-detail 404.
    if (id === undefined) throw notFound()
    const [page, , reviews, { courseJsonLd, oneLine }] = await Promise.all([
      context.queryClient.ensureQueryData(classDetailQuery(id)),
      isMember(context.auth)
        ? context.queryClient.ensureQueryData(favoriteStateQuery(id)).catch(() => null)
        : null,
      // Missing or taken down: the reviews answer 404, and the page says so from the detail.
      context.queryClient.ensureQueryData(classReviewsQuery(id)).catch(() => null),
      // Loaded beside the data: a first load never runs this loader in the browser, so the JSON-LD builders
      // stay out of first-load scripts (0008).
      import('~/lib/structured-data'),
      prefetchFurigana(context.queryClient, context.auth.furigana, { class_ids: [id] }),
      // A client navigation renders the lower parts at once: their code comes with the data, not after it. (A
      // first load does not run this loader in the browser; there they load when they come into view.)
      preloadClassDetailParts(),
      panelPart(),
      askPart(),
      reportPart(),
    ])
    if (!page) throw notFound()
    if ('gone' in page)
      return { id, gone: page.gone, seo: { title: 'このページは公開を終了しました', noindex: true } }
    const c = page.detail
    // A member who has asked for dates already is told so in the first render, never offered the button first.
    const auth = context.auth
    if (
      auth.status === 'authenticated' &&
      auth.user &&
      auth.user.id !== c.teacher.id &&
      !hasBookableLesson(c.schedules, page.now)
    )
      await context.queryClient.ensureQueryData(myClassRequestQuery(id)).catch(() => null)
    // SEO tags and JSON-LD are built here: the loader is code-split, head() is not (0008).
    const seo: SeoInput = {
      title: c.title,
      description: oneLine(`${c.category.name}｜${c.teacher.nickname}｜${c.description}`),
      // A raster image of 1200×630: LINE and X ignore SVG (app/server/og-image.server.ts).
      image: `/og/class/${c.id}.png`,
      jsonLd: courseJsonLd(context.site.siteOrigin, c, new Date(page.now), reviews?.items ?? []),
    }
    return { id, gone: undefined, seo }
  },
  head: ({ match, loaderData }) => pageHead(match, loaderData?.seo ?? {}),
  component: ClassDetailPage,
})

/** The view renders the 410 page itself when the class is gone (on this load, or on a refresh of the open page). */
function ClassDetailPage() {
  const { id, gone } = Route.useLoaderData()
  const viewer = useViewer()
  // A member sees a report button under every review but their own: its code comes once the page is up, not one
  // round trip after the reviews' own when they come into view (a visitor sees none there).
  useEffect(() => {
    if (viewer === 'member' && !gone) void reportPart().catch(() => {})
  }, [viewer, gone])
  return (
    <PageFurigana ids={{ class_ids: [id] }}>
      <ClassDetailView
        id={id}
        reservation={(classWork, now) => (
          <HydrateOnView testId="reservation-area">
            <ReservationPanel classWork={classWork} now={now} />
          </HydrateOnView>
        )}
        report={
          <HydrateOnView>
            <ReportButton target="class" id={id} />
          </HydrateOnView>
        }
        reportReview={(reviewId) => <ReportButton target="review" id={reviewId} compact />}
        ask={(teacher) => <AskTeacherButton teacherId={teacher.id} teacherName={teacher.nickname} />}
      />
    </PageFurigana>
  )
}
