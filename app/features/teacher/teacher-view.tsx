import { useSuspenseQuery } from '@tanstack/react-query'
import { type ReactNode, Suspense } from 'react'
import { ClassCard } from '~/components/cards/class-card'
import { LazyNotFoundView } from '~/components/shell/lazy-error-page'
import { lazyPart } from '~/components/shell/lazy-part'
import { LazyGonePage } from '~/components/ui/lazy-gone-page'
import type { PageLinkProps } from '~/components/ui/pagination'
import { Ruby } from '~/components/ui/ruby'
import { ShareButtons } from '~/components/ui/share-buttons'
import { VerifiedBadge } from '~/components/ui/verified-badge'
import { TEACHER_CLASSES_PER_PAGE } from '~/lib/page-sizes'
import { DEFAULT_AVATAR, fixedSizeSrcSet } from '~/lib/responsive-image'
import { FollowButton } from './follow-button'
import { teacherPageQuery } from './queries'

// Most teachers have one page of classes: the pager's code loads only with a pager. Its pages are plain links, so
// one tapped before that code has arrived still opens its page.
const Pagination = lazyPart(() =>
  import('~/components/ui/pagination').then((m) => ({ default: m.Pagination })),
)

// organizationKindLabels' words (app/lib/organization-kind.ts), spelled here: importing that module would cost this
// public page one more script on its first load (its budget, docs/decisions/0008).
const kindLabel = (kind: 'corporation' | 'group') => (kind === 'corporation' ? '法人' : 'グループ')

/** /teacher/detail/{id}: what a teacher shows in public, and their public classes. */
export function TeacherView({
  id,
  page: pageNumber = 1,
  report,
  pageLink,
}: {
  id: number
  /** Which page of the teacher's classes (TEACHER_CLASSES_PER_PAGE each). */
  page?: number
  report?: ReactNode
  /** A link to another page of the classes (the route renders it with its typed search). */
  pageLink: (page: number, props: PageLinkProps) => ReactNode
}) {
  const page = useSuspenseQuery(teacherPageQuery(id, pageNumber)).data
  // The route answers 404 or renders the 410 page; a refresh of an open page (suspended meanwhile) says so too.
  if (!page) return <LazyNotFoundView />
  if ('gone' in page) return <LazyGonePage message={page.gone ?? ''} />
  const { profile: t, classes } = page
  const totalPages = Math.ceil(t.class_work_count / TEACHER_CLASSES_PER_PAGE)
  return (
    <div className="mx-auto max-w-5xl px-4 py-8" data-testid="teacher-detail">
      <section className="flex flex-col gap-6 rounded-2xl border border-slate-200 bg-white p-6 sm:flex-row sm:items-start">
        <img
          src={t.avatar_url ?? DEFAULT_AVATAR}
          {...fixedSizeSrcSet(t.avatar_url, 160)}
          alt={`${t.name}の顔写真`}
          width={160}
          height={160}
          fetchPriority="high"
          decoding="async"
          className="h-32 w-32 shrink-0 self-center rounded-full bg-base-light object-cover sm:h-40 sm:w-40 sm:self-start"
        />
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          <div>
            <p className="text-sm font-bold text-purple-dark">{t.nickname}</p>
            <h1 className="text-2xl font-black">{t.name}</h1>
            {t.is_verified ? (
              <p className="mt-2 flex flex-wrap items-center gap-2 text-xs text-slate-700">
                <VerifiedBadge />
                運営が本人確認書類で本人であることを確認しました
              </p>
            ) : null}
          </div>
          <dl className="grid grid-cols-[6rem_1fr] gap-x-3 gap-y-1 text-sm">
            {t.profession ? (
              <>
                <dt className="font-bold text-slate-700">職業</dt>
                <dd>{t.profession.name}</dd>
              </>
            ) : null}
            {t.organization ? (
              <>
                <dt className="font-bold text-slate-700">所属</dt>
                <dd data-testid="teacher-organization">
                  {t.organization.name}（{kindLabel(t.organization.kind)}）
                </dd>
              </>
            ) : null}
            {t.rating.count > 0 && t.rating.average !== null ? (
              <>
                <dt className="font-bold text-slate-700">評価</dt>
                <dd data-testid="teacher-rating">
                  <span className="text-amber-500" aria-hidden="true">
                    ★
                  </span>
                  <span className="font-bold">{t.rating.average.toFixed(1)}</span>
                  （全クラスのレビュー{t.rating.count}件）
                </dd>
              </>
            ) : null}
            <dt className="font-bold text-slate-700">公開クラス</dt>
            <dd>{t.class_work_count}件</dd>
            <dt className="font-bold text-slate-700">開催回数</dt>
            <dd>{t.summary.times_held}回</dd>
            <dt className="font-bold text-slate-700">受講者数</dt>
            <dd>のべ{t.summary.counts_purchased}人</dd>
          </dl>
          <FollowButton teacherId={t.id} initialCount={t.follower_count} />
          <ShareButtons path={`/teacher/detail/${t.id}`} text={`${t.nickname}（${t.name}）のクラス`} />
        </div>
      </section>

      {t.introduction ? (
        <section aria-labelledby="intro-heading" className="mt-10">
          <h2 id="intro-heading" className="text-xl font-bold">
            <Ruby>自己紹介</Ruby>
          </h2>
          <p
            className="mt-4 leading-relaxed whitespace-pre-line text-slate-800"
            data-testid="teacher-introduction"
          >
            <Ruby text={t.introduction} />
          </p>
        </section>
      ) : null}

      <section aria-labelledby="classes-heading" className="mt-10">
        <h2 id="classes-heading" className="text-xl font-bold">
          {t.nickname}のクラス
        </h2>
        {classes.length ? (
          <>
            {totalPages > 1 ? (
              <p className="mt-2 text-sm text-slate-700" data-testid="teacher-classes-range">
                全{t.class_work_count}件中 {(pageNumber - 1) * TEACHER_CLASSES_PER_PAGE + 1}〜
                {(pageNumber - 1) * TEACHER_CLASSES_PER_PAGE + classes.length}件
              </p>
            ) : null}
            <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="teacher-classes">
              {classes.map((c) => (
                <li key={c.id}>
                  <ClassCard card={c} />
                </li>
              ))}
            </ul>
            {totalPages > 1 ? (
              <Suspense fallback={null}>
                <Pagination
                  page={pageNumber}
                  totalPages={totalPages}
                  renderLink={pageLink}
                  label="先生のクラスのページ送り"
                />
              </Suspense>
            ) : null}
          </>
        ) : pageNumber > 1 ? (
          // A page past the last (an old link, a hand-edited URL): the classes are on earlier pages.
          <div
            className="mt-4 rounded-2xl bg-light-grey p-4 text-sm text-slate-700"
            data-testid="past-last-page"
          >
            <p>このページにクラスはありません。</p>
            {t.class_work_count > 0
              ? pageLink(1, {
                  className: 'btn-outline mt-3',
                  'aria-label': '最初のページへ',
                  children: '最初のページへ',
                })
              : null}
          </div>
        ) : (
          <p className="mt-4 rounded-2xl bg-light-grey p-4 text-sm text-slate-700">
            公開中のクラスはまだありません。
          </p>
        )}
      </section>
      {report ? <p className="mt-8 text-right">{report}</p> : null}
    </div>
  )
}
