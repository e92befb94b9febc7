import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { ClientOnly } from '@tanstack/react-router'
import { type ReactNode, Suspense, useState } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'
import type { Review } from '~/contract/v1/reviews'
import { formatDateJa } from '~/lib/format'
import { starsText } from '~/lib/rating'
import { classReviewsQuery } from './queries'

// Only the class's teacher sees the reply form: it loads when shown, after hydration (nothing to type into before
// its code has arrived), not with every class page (0008).
const ReplyForm = lazyPart(() => import('./review-reply-form').then((m) => ({ default: m.ReplyForm })))

/**
 * The class's reviews (issue 16): the average, the count and a histogram, then the newest reviews with the
 * teacher's replies, ten at a time. The class's teacher answers each review once, here.
 */
export function ReviewsSection({
  classWorkId,
  reportReview,
}: {
  classWorkId: number
  reportReview?: (reviewId: number) => ReactNode
}) {
  const first = useSuspenseQuery(classReviewsQuery(classWorkId)).data
  const [pages, setPages] = useState(1)
  const { summary } = first
  return (
    <section
      aria-labelledby="reviews-heading"
      className="mt-10 scroll-mt-20"
      id="reviews"
      data-testid="reviews"
    >
      <h2 id="reviews-heading" className="text-xl font-bold">
        レビュー
      </h2>
      {summary.count === 0 || summary.average === null ? (
        <p className="mt-4 rounded-2xl bg-light-grey p-4 text-sm text-slate-700">
          まだレビューはありません。受講した方が授業のあとに書けます。
        </p>
      ) : (
        <>
          <div className="mt-4 grid gap-4 rounded-2xl border border-slate-200 bg-white p-4 sm:grid-cols-[12rem_1fr]">
            <p className="text-center" data-testid="rating-summary">
              <span className="block text-4xl font-black">{summary.average.toFixed(1)}</span>
              <span className="block text-lg text-amber-500" aria-hidden="true">
                {starsText(summary.average)}
              </span>
              <span className="block text-sm text-slate-700">{summary.count}件のレビュー</span>
            </p>
            <ol className="flex flex-col gap-1 text-sm" aria-label="評価の分布">
              {[5, 4, 3, 2, 1].map((star) => {
                const n = summary.histogram[star - 1] ?? 0
                return (
                  <li key={star} className="grid grid-cols-[2.5rem_1fr_2.5rem] items-center gap-2">
                    <span>★{star}</span>
                    <span className="h-2 overflow-hidden rounded-full bg-light-grey">
                      <span
                        className="block h-full rounded-full bg-amber-400"
                        style={{ width: `${(n / summary.count) * 100}%` }}
                      />
                    </span>
                    <span className="text-right text-slate-700">{n}件</span>
                  </li>
                )
              })}
            </ol>
          </div>
          <ul className="mt-4 flex flex-col gap-3" data-testid="review-list">
            {Array.from({ length: pages }, (_, i) => (
              <ReviewPageItems
                key={i + 1}
                classWorkId={classWorkId}
                page={i + 1}
                reportReview={reportReview}
              />
            ))}
          </ul>
          {pages < first.total_pages ? (
            <button
              type="button"
              className="btn-outline mt-4"
              onClick={() => setPages((p) => p + 1)}
              data-testid="reviews-more"
            >
              もっと見る
            </button>
          ) : null}
        </>
      )}
    </section>
  )
}

function ReviewPageItems(props: {
  classWorkId: number
  page: number
  reportReview?: (reviewId: number) => ReactNode
}) {
  const { data, isError, isFetching, refetch } = useQuery(classReviewsQuery(props.classWorkId, props.page))
  // A later page that could not be read says so and offers another try, instead of loading for ever.
  if (!data && isError) {
    return (
      <li className="rounded-2xl bg-light-grey p-4 text-sm text-slate-700" data-testid="reviews-error">
        {/* Inside the item: a list's children stay list items for assistive technology. */}
        <p role="alert">
          レビューを読み込めませんでした。
          <button
            type="button"
            className="ml-2 font-bold underline disabled:opacity-60"
            disabled={isFetching}
            onClick={() => void refetch()}
          >
            もう一度読み込む
          </button>
        </p>
      </li>
    )
  }
  if (!data) return <li className="text-sm text-slate-600">読み込み中…</li>
  return data.items.map((r) => (
    <ReviewItem key={r.id} r={r} classWorkId={props.classWorkId} report={props.reportReview} />
  ))
}

function ReviewItem({
  r,
  classWorkId,
  report,
}: {
  r: Review
  classWorkId: number
  report?: (reviewId: number) => ReactNode
}) {
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4" data-testid="review">
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="text-amber-500" role="img" aria-label={`5段階中${r.rating}`}>
          {starsText(r.rating)}
        </span>
        <span className="font-bold">{r.reviewer.nickname}さん</span>
        <time dateTime={r.created_at} className="text-slate-600">
          {formatDateJa(r.created_at)}
        </time>
      </p>
      <p className="mt-2 whitespace-pre-line break-words">{r.comment}</p>
      {r.reply ? (
        <div className="mt-3 rounded-xl bg-light-grey p-3 text-sm" data-testid="review-reply">
          <p className="font-bold">先生からの返信</p>
          <p className="mt-1 whitespace-pre-line break-words">{r.reply.body}</p>
        </div>
      ) : null}
      {r.can_reply ? (
        <ClientOnly>
          <Suspense fallback={null}>
            <ReplyForm reviewId={r.id} classWorkId={classWorkId} />
          </Suspense>
        </ClientOnly>
      ) : null}
      {r.can_report && report ? <p className="mt-2 text-right">{report(r.id)}</p> : null}
    </li>
  )
}
