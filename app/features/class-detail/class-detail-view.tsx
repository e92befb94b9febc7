import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { HydrateOnView } from '~/components/shell/hydrate-on-view'
import { LazyNotFoundView } from '~/components/shell/lazy-error-page'
import { lazyPart } from '~/components/shell/lazy-part'
import { LazyGonePage } from '~/components/ui/lazy-gone-page'
import { Ruby } from '~/components/ui/ruby'
import { ShareButtons } from '~/components/ui/share-buttons'
import { VerifiedBadge } from '~/components/ui/verified-badge'
import type { ClassWorkDetail } from '~/contract/v1/class-works'
import { durationLabel } from '~/lib/class-labels'
import { formatPrice } from '~/lib/format'
import {
  DEFAULT_AVATAR,
  DEFAULT_CLASS_IMAGE,
  fixedSizeSrcSet,
  IMAGE_SIZES,
  responsiveSrcSet,
} from '~/lib/responsive-image'
import { FavoriteButton } from './favorite-button'
import { classDetailQuery, classReviewsQuery } from './queries'

// Below the fold: these hydrate, and their code loads, when they come into view (0030).
const reviewsPart = () => import('./reviews-section')
const morePart = () => import('./class-detail-more')
const ReviewsSection = lazyPart(() => reviewsPart().then((m) => ({ default: m.ReviewsSection })))
const SchedulesSection = lazyPart(() => morePart().then((m) => ({ default: m.SchedulesSection })))
const TeacherSection = lazyPart(() => morePart().then((m) => ({ default: m.TeacherSection })))

/** Fetches the lower parts' code (a client navigation renders them at once, so its loader starts it early). */
export const preloadClassDetailParts = () => Promise.all([reviewsPart(), morePart()])

/** /class_search/detail/{id}: everything about one class. */
/**
 * `reservation` renders the reservation area for the class; the route composes it from the reservation
 * feature, so that the two features stay independent of each other.
 */
export function ClassDetailView({
  id,
  reservation,
  report,
  reportReview,
  ask,
}: {
  id: number
  reservation?: (classWork: ClassWorkDetail, now: string) => ReactNode
  /** 「このクラスを通報する」, from the report feature (composed by the route). */
  report?: ReactNode
  /** 「通報する」 under a review, from the report feature. */
  reportReview?: (reviewId: number) => ReactNode
  /** 「先生に質問する」, from the messages feature. */
  ask?: (teacher: { id: number; nickname: string }) => ReactNode
}) {
  const page = useSuspenseQuery(classDetailQuery(id)).data
  // The reviews read their first page from the cache when they hydrate, which can be long after the page loaded:
  // this observer keeps it there meanwhile (the cache drops a query nobody observes after five minutes, and the
  // part would fetch it again while hydrating). It never fetches.
  useQuery({ ...classReviewsQuery(id), enabled: false })
  // No class: the route answers 404 on a load; taken down: the 410 page. A refresh of an open page that finds it
  // unpublished or taken down meanwhile (a refused booking, a live event, focus) shows the same, not an empty page.
  if (!page) return <LazyNotFoundView />
  if ('gone' in page) return <LazyGonePage message={page.gone ?? ''} />
  const { detail: c, now } = page
  const upcoming = c.schedules.filter((s) => new Date(s.ended_at).getTime() > new Date(now).getTime())

  return (
    <article className="mx-auto max-w-5xl px-4 py-6" data-testid="class-detail">
      <nav aria-label="パンくずリスト" className="text-sm text-slate-600">
        <ol className="flex flex-wrap items-center gap-1">
          <li>
            <Link to="/" className="hover:underline">
              ホーム
            </Link>
            <span aria-hidden="true"> ›</span>
          </li>
          <li>
            <Link to="/class_search" className="hover:underline">
              クラスを探す
            </Link>
            <span aria-hidden="true"> ›</span>
          </li>
          <li>
            <Link to="/class_search" search={{ category: c.category.id }} className="hover:underline">
              {c.category.name}
            </Link>
          </li>
        </ol>
      </nav>

      <div className="mt-4 grid gap-6 md:grid-cols-[1.1fr_1fr]">
        <img
          src={c.image_url ?? DEFAULT_CLASS_IMAGE}
          {...responsiveSrcSet(c.image_url, IMAGE_SIZES.detail)}
          alt=""
          width={640}
          height={400}
          fetchPriority="high"
          decoding="async"
          className="aspect-[8/5] w-full rounded-2xl bg-base-light object-cover"
        />
        <div className="flex flex-col gap-4">
          <p className="flex flex-wrap gap-2 text-xs font-bold">
            <Link
              to="/class_search"
              search={{ category: c.category.id }}
              className="rounded-full bg-base-light px-3 py-1 text-base-ink hover:underline"
            >
              {c.category.name}
            </Link>
            <span className="rounded-full bg-light-grey px-3 py-1 text-slate-800">{c.class_style.name}</span>
          </p>
          <h1 className="text-2xl leading-snug font-black md:text-3xl">
            <Ruby text={c.title} />
          </h1>
          <p className="text-3xl font-black text-purple-dark" data-testid="class-price">
            {formatPrice(c.price)}
            {c.price > 0 ? (
              <span className="ml-1 text-sm font-bold text-slate-700">
                ／{c.lesson_count > 1 ? `全${c.lesson_count}回` : '1回'}（税込）
              </span>
            ) : null}
          </p>
          {c.rating.count > 0 && c.rating.average !== null ? (
            <p className="text-sm">
              <a href="#reviews" className="hover:underline" data-testid="class-rating">
                <span className="text-amber-500" aria-hidden="true">
                  ★
                </span>
                <span className="font-bold">{c.rating.average.toFixed(1)}</span>
                <span className="text-slate-700">（{c.rating.count}件のレビュー）</span>
              </a>
            </p>
          ) : null}
          <ShareButtons path={`/class_search/detail/${c.id}`} text={`${c.title}｜${c.teacher.nickname}`} />
          <div>
            <FavoriteButton classWorkId={c.id} initialCount={c.favorite_count} />
          </div>
          <TeacherMini c={c} />
        </div>
      </div>

      <section aria-labelledby="facts-heading" className="mt-10">
        <h2 id="facts-heading" className="text-xl font-bold">
          <Ruby>クラスの概要</Ruby>
        </h2>
        <dl className="mt-4 grid gap-x-6 divide-y divide-slate-200 border-y border-slate-200 sm:grid-cols-2 sm:divide-y-0">
          <Fact term="カテゴリ">{c.category.name}</Fact>
          <Fact term="対象学年">{c.target_grades.map((g) => g.name).join('・') || '指定なし'}</Fact>
          <Fact term="授業形式">{c.class_style.name}</Fact>
          <Fact term="料金">{formatPrice(c.price)}</Fact>
          <Fact term="授業時間">{durationLabel(c.duration_minutes)}</Fact>
          {c.lesson_count > 1 ? (
            <Fact term="回数" testId="lesson-count">
              全{c.lesson_count}回のコース（まとめて予約します）
            </Fact>
          ) : null}
          <Fact term="定員">{c.capacity}名</Fact>
          <Fact term="開催回数" testId="times-held">
            {c.summary.times_held}回
          </Fact>
          <Fact term="受講者数" testId="counts-purchased">
            のべ{c.summary.counts_purchased}人
          </Fact>
        </dl>
      </section>

      <section aria-labelledby="description-heading" className="mt-10">
        <h2 id="description-heading" className="text-xl font-bold">
          <Ruby>クラスの内容</Ruby>
        </h2>
        <p
          className="mt-4 leading-relaxed whitespace-pre-line text-slate-800"
          data-testid="class-description"
        >
          <Ruby text={c.description} />
        </p>
      </section>

      <HydrateOnView>
        <SchedulesSection c={c} upcoming={upcoming} now={now} />
      </HydrateOnView>

      {reservation?.(c, now)}

      <HydrateOnView testId="reviews-area">
        <ReviewsSection classWorkId={c.id} reportReview={reportReview} />
      </HydrateOnView>

      <HydrateOnView>
        <TeacherSection c={c} ask={ask} />
      </HydrateOnView>
      {report ? <div className="mt-8 text-right">{report}</div> : null}
    </article>
  )
}

function TeacherMini({ c }: { c: ClassWorkDetail }) {
  return (
    <p className="flex items-center gap-2 text-sm text-slate-700">
      <img
        src={c.teacher.avatar_url ?? DEFAULT_AVATAR}
        {...fixedSizeSrcSet(c.teacher.avatar_url, 32)}
        alt=""
        width={32}
        height={32}
        decoding="async"
        className="h-8 w-8 rounded-full bg-base-light object-cover"
      />
      <span>
        <span className="font-bold">{c.teacher.nickname}</span>
        {c.teacher.is_verified ? (
          <span className="ml-2 align-middle">
            <VerifiedBadge size="xs" />
          </span>
        ) : null}
        {c.organization ? <span className="ml-2 text-slate-600">{c.organization.name}</span> : null}
      </span>
    </p>
  )
}

function Fact({ term, children, testId }: { term: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[6rem_1fr] gap-2 py-3 sm:border-b sm:border-slate-200">
      <dt className="text-sm font-bold text-slate-700">
        <Ruby text={term} />
      </dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  )
}
