import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ArticleCard } from '~/components/cards/article-card'
import { Ruby } from '~/components/ui/ruby'
import { ListSection, moreLink } from './home-sections'
import { homeQuery } from './queries'

/**
 * The home page from its promises down: far below the first screen on every device, so its code (the text, the
 * magazine picks, the article card) is a chunk of its own, loaded when the part is about to be seen (0030).
 */
export default function HomeBelowFold() {
  return (
    <>
      <section className="below-fold mx-auto max-w-6xl px-4 py-12" aria-labelledby="promise-heading">
        <h2 id="promise-heading" className="text-center text-2xl font-black">
          <Ruby>まなびのたねの3つの約束</Ruby>
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {promises.map((p) => (
            <li key={p.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <h3 className="text-lg font-bold text-purple-dark">
                <Ruby text={p.title} />
              </h3>
              <p className="mt-3 text-sm text-slate-700">
                <Ruby text={p.body} />
              </p>
            </li>
          ))}
        </ul>
      </section>

      <section className="below-fold bg-light-grey" aria-labelledby="steps-heading">
        <div className="mx-auto max-w-6xl px-4 py-12">
          <h2 id="steps-heading" className="text-center text-2xl font-black">
            はじめかた
          </h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-3">
            {steps.map((s) => (
              <li key={s.n} className="flex gap-4 rounded-2xl bg-white p-6">
                <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-purple-dark text-lg font-black text-white">
                  {s.n}
                </span>
                <div>
                  <h3 className="font-bold">{s.title}</h3>
                  <p className="mt-2 text-sm text-slate-700">
                    <Ruby text={s.body} />
                  </p>
                </div>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <MagazinePicks />

      <section
        className="below-fold mx-auto max-w-3xl px-4 py-12 text-center"
        aria-labelledby="teacher-heading"
      >
        <h2 id="teacher-heading" className="text-2xl font-black">
          <Ruby>先生として教えたい方へ</Ruby>
        </h2>
        <p className="mt-4 text-slate-700">
          <Ruby>
            得意なことを、全国の子どもたちに。登録料・月額基本料は無料で、手数料は予約が成立したときだけ。個人でも、教室や団体としても始められます。
          </Ruby>
        </p>
      </section>
    </>
  )
}

const promises = [
  {
    title: '安心して任せられる先生',
    body: 'クラスを公開できるのは、運営が本人確認書類で本人確認をした先生だけ（「本人確認済み」と表示）。メッセージは保護者と先生のあいだだけで、連絡先を含むものは運営が確認してから届きます。気になることは「通報する」から運営へ。',
  },
  {
    title: '登録も月額も無料',
    body: '会員登録と月額基本料は無料です。受講したいクラスだけを、1回ずつ予約できます。無料のクラスもたくさんあります。',
  },
  {
    title: 'スマホでもPCでも',
    body: '授業はすべてライブのオンライン。おうちのスマホ・タブレット・パソコンから、開始15分前に表示されるリンクで参加できます。',
  },
] as const

const steps = [
  {
    n: '1',
    title: 'さがす',
    body: 'カテゴリや学年、日時から、お子さまにぴったりのクラスと先生を見つけます。',
  },
  {
    n: '2',
    title: 'よやくする',
    body: '受講するお子さまを選んで予約。24時間前までならキャンセルして全額返金されます。',
  },
  {
    n: '3',
    title: 'まなぶ',
    body: '当日はリンクから参加するだけ。先生へのメッセージやお知らせもここで届きます。',
  },
] as const

/** The latest magazine articles. */
function MagazinePicks() {
  const { articles } = useSuspenseQuery(homeQuery()).data
  if (!articles.length) return null
  return (
    <ListSection
      id="magazine-heading"
      title="マガジン"
      more={
        <Link to="/magazine" className={moreLink}>
          記事をもっと読む
        </Link>
      }
    >
      <ul className="mt-6 grid gap-4 md:grid-cols-3" data-testid="home-magazine">
        {articles.map((a) => (
          <li key={a.id}>
            <ArticleCard article={a} />
          </li>
        ))}
      </ul>
    </ListSection>
  )
}
