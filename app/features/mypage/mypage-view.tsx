import { useSuspenseQuery } from '@tanstack/react-query'
import { Link, type LinkProps } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Icon, type IconName } from '~/components/ui/icon'
import { formatDateJa, formatRunJa } from '~/lib/format'
import { DEFAULT_AVATAR, fixedSizeSrcSet } from '~/lib/responsive-image'
import { CalendarSync } from './calendar-sync'
import { myPageQuery } from './queries'
import { WaitlistCard } from './waitlist-card'

function Card({
  title,
  id,
  children,
  more,
}: {
  title: string
  id: string
  children: ReactNode
  more?: ReactNode
}) {
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-slate-200 bg-white p-5">
      <div className="flex items-center justify-between gap-2">
        <h2 id={id} className="text-lg font-bold">
          {title}
        </h2>
        {more}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  )
}

function Shortcut({
  to,
  icon,
  label,
  testId,
}: {
  to: LinkProps['to']
  icon: IconName
  label: string
  testId?: string
}) {
  return (
    <Link
      to={to}
      className="flex flex-col items-center gap-1 rounded-xl bg-light-grey px-2 py-3 text-center text-sm font-bold hover:bg-base-light"
      data-testid={testId}
    >
      <Icon name={icon} className="h-6 w-6 text-purple-dark" />
      {label}
    </Link>
  )
}

/** /mypage: next lessons, unread notices and messages, learner profiles and shortcuts. */
export function MyPageView({ teacherLinks }: { teacherLinks: { to: LinkProps['to']; label: string }[] }) {
  const page = useSuspenseQuery(myPageQuery()).data
  const { me } = page
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <div className="flex items-center gap-4">
        <img
          src={me.avatar_url ?? DEFAULT_AVATAR}
          {...fixedSizeSrcSet(me.avatar_url, 64)}
          alt=""
          width={64}
          height={64}
          className="h-16 w-16 rounded-full bg-base-light object-cover"
        />
        <div>
          <h1 className="text-2xl font-black">マイページ</h1>
          <p className="text-sm text-slate-700">{me.nickname} さん</p>
        </div>
      </div>

      <nav aria-label="ショートカット" className="mt-6 grid grid-cols-3 gap-2 sm:grid-cols-4 lg:grid-cols-7">
        <Shortcut to="/class_attendance" icon="event" label="受講クラス" testId="shortcut-attendance" />
        <Shortcut to="/information" icon="info" label="お知らせ" />
        <Shortcut to="/message" icon="article" label="メッセージ" />
        <Shortcut to="/follow" icon="heart" label="フォロー・お気に入り" />
        <Shortcut to="/profile" icon="person-check" label="基本情報" />
        <Shortcut to="/purchase_history" icon="receipt" label="購入履歴" testId="shortcut-history" />
        <Shortcut to="/class_search" icon="search" label="クラスを探す" />
      </nav>

      <div className="mt-6 grid grid-cols-1 gap-4 md:grid-cols-2">
        <Card
          title="次の授業"
          id="mypage-next"
          more={
            <Link to="/class_attendance" className="text-sm font-bold text-purple-dark underline">
              すべて見る
            </Link>
          }
        >
          {page.nextLessons.length === 0 ? (
            <p className="text-sm text-slate-700">予約中のクラスはありません。</p>
          ) : (
            <ul className="flex flex-col gap-3" data-testid="mypage-next-lessons">
              {page.nextLessons.map((p) => (
                <li key={p.id} className="rounded-xl bg-light-grey p-3">
                  <p className="text-sm font-bold">
                    <time dateTime={p.schedule.started_at}>
                      {formatRunJa(p.schedule.started_at, p.schedule.ended_at, p.schedule.lessons.length)}
                    </time>
                  </p>
                  <Link
                    to="/class_search/detail/$id"
                    params={{ id: String(p.class_work.id) }}
                    className="hover:underline"
                  >
                    {p.class_work.title}
                  </Link>
                  <p className="text-xs text-slate-700">
                    {p.teacher.nickname}／受講：{p.attendee.nickname}
                  </p>
                  {p.meeting_url ? (
                    <a
                      href={p.meeting_url}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="btn-primary mt-2"
                    >
                      授業に参加する
                    </a>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card
          title={`未読のお知らせ（${page.unreadNoticeCount}件）`}
          id="mypage-notices"
          more={
            <Link to="/information" className="text-sm font-bold text-purple-dark underline">
              一覧へ
            </Link>
          }
        >
          {page.unreadNotices.length === 0 ? (
            <p className="text-sm text-slate-700">未読のお知らせはありません。</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {page.unreadNotices.map((n) => (
                <li key={n.key}>
                  <Link to="/information/detail/$id" params={{ id: n.key }} className="block hover:underline">
                    <span className="text-xs text-slate-700">{formatDateJa(n.at)}</span>
                    <span className="block font-bold">{n.title}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card
          title={`未読のメッセージ（${page.unreadMessageCount}件）`}
          id="mypage-messages"
          more={
            <Link to="/message" className="text-sm font-bold text-purple-dark underline">
              一覧へ
            </Link>
          }
        >
          {page.unreadRooms.length === 0 ? (
            <p className="text-sm text-slate-700">未読のメッセージはありません。</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {page.unreadRooms.map((r) => (
                <li key={r.id}>
                  <Link to="/message" search={{ room: r.id }} className="block hover:underline">
                    <span className="font-bold">{r.partner.nickname}</span>
                    <span className="ml-2 text-xs text-red-dark">未読{r.unread_count}件</span>
                    <span className="block truncate text-sm text-slate-700">{r.last_message?.body}</span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>

        <Card
          title="お子さまのプロフィール"
          id="mypage-learners"
          more={
            <Link to="/profile/edit_user" className="text-sm font-bold text-purple-dark underline">
              編集する
            </Link>
          }
        >
          {page.learners.length === 0 ? (
            <p className="text-sm text-slate-700">
              {me.role === 'parent'
                ? 'お子さまのプロフィールはまだありません。'
                : 'ご本人として受講できます。'}
            </p>
          ) : (
            <ul className="flex flex-wrap gap-2" data-testid="mypage-learners">
              {page.learners.map((l) => (
                <li key={l.id} className="rounded-full bg-base-light px-3 py-1 text-sm text-base-ink">
                  <span className="font-bold">{l.nickname}</span>
                  {l.label ? <span className="ml-1 text-xs">{l.label}</span> : null}
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>

      <p className="mt-6 text-sm text-slate-700">
        フォロー中の先生 {me.following_count}人・お気に入りのクラス {me.favorite_count}件・予約中{' '}
        {me.upcoming_reservation_count}件
      </p>

      <WaitlistCard entries={page.waitlist} />

      <CalendarSync />

      {me.is_teacher && teacherLinks.length > 0 ? (
        <section
          aria-labelledby="mypage-teacher"
          className="mt-6 rounded-2xl border border-slate-200 bg-white p-5"
        >
          <h2 id="mypage-teacher" className="text-lg font-bold">
            先生のメニュー
          </h2>
          <ul className="mt-3 flex flex-wrap gap-3">
            {teacherLinks.map((l) => (
              <li key={l.label}>
                <Link to={l.to} className="btn-outline">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  )
}
