import { Link } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { Ruby } from '~/components/ui/ruby'
import { ScheduleWhen } from '~/components/ui/schedule-when'
import { VerifiedBadge } from '~/components/ui/verified-badge'
import type { ClassWorkDetail, PublicSchedule } from '~/contract/v1/class-works'
import { seatsLabel } from '~/lib/class-labels'
import { seatsLeft } from '~/lib/format'
import { DEFAULT_AVATAR, fixedSizeSrcSet } from '~/lib/responsive-image'
import { hasBookableLesson } from './bookable'
import { RequestPanel } from './request-panel'

/**
 * The parts of the class page below the fold that need code of their own (the schedule's dates, the request
 * form's button, the teacher's card): the page loads them when they come into view (docs/decisions/0030).
 */

/**
 * 開催日程: the dates to come, and 「リクエスト開催」 whenever none of them can be booked (none at all, or only
 * cancelled ones and a run already under way): the server takes a request then (createClassRequest).
 */
export function SchedulesSection({
  c,
  upcoming,
  now,
}: {
  c: ClassWorkDetail
  upcoming: PublicSchedule[]
  now: string
}) {
  const at = new Date(now).getTime()
  const bookable = hasBookableLesson(upcoming, now)
  return (
    <section aria-labelledby="schedules-heading" className="mt-10">
      <h2 id="schedules-heading" className="text-xl font-bold">
        <Ruby>開催日程</Ruby>
      </h2>
      {upcoming.length > 0 && (
        <ul
          className="mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
          data-testid="schedules"
        >
          {upcoming.map((s) => (
            <ScheduleRow key={s.id} s={s} started={new Date(s.started_at).getTime() <= at} />
          ))}
        </ul>
      )}
      {!bookable && (
        <div className="mt-4 rounded-2xl bg-light-grey p-4 text-sm text-slate-700">
          <p>
            <Ruby>
              {upcoming.length > 0
                ? '予約できる日程はありません。開催をリクエストすると、日程が決まったときにメールでお知らせします。'
                : '現在予定されている日程はありません。開催をリクエストすると、日程が決まったときにメールでお知らせします。'}
            </Ruby>
          </p>
          <RequestPanel classWorkId={c.id} teacherId={c.teacher.id} />
        </div>
      )}
    </section>
  )
}

/** 先生: the teacher's card, with 「先生に質問する」 from the messages feature. */
export function TeacherSection({
  c,
  ask,
}: {
  c: ClassWorkDetail
  ask?: (teacher: { id: number; nickname: string }) => ReactNode
}) {
  return (
    <section aria-labelledby="teacher-heading" className="mt-10">
      <h2 id="teacher-heading" className="text-xl font-bold">
        <Ruby>先生</Ruby>
      </h2>
      <div
        className="mt-4 flex items-center gap-4 rounded-2xl border border-slate-200 bg-white p-4"
        data-testid="teacher-card"
      >
        <img
          src={c.teacher.avatar_url ?? DEFAULT_AVATAR}
          {...fixedSizeSrcSet(c.teacher.avatar_url, 72)}
          alt=""
          width={72}
          height={72}
          loading="lazy"
          decoding="async"
          className="h-18 w-18 shrink-0 rounded-full bg-base-light object-cover"
        />
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-lg font-bold">
            {c.teacher.nickname}
            {c.teacher.is_verified ? <VerifiedBadge /> : null}
          </p>
          {c.organization ? <p className="text-sm text-slate-700">{c.organization.name}</p> : null}
          {/* A teacher not yet approved has no public page and takes no questions (0020): a class published
              before approvals existed keeps its page, without ways to them that would lead nowhere. */}
          {c.teacher.is_verified ? (
            <>
              <Link
                to="/teacher/detail/$id"
                params={{ id: String(c.teacher.id) }}
                className="mt-1 inline-block text-sm font-bold text-purple-dark underline"
              >
                {c.teacher.nickname}のプロフィールを見る
              </Link>
              {ask ? <div className="mt-3">{ask(c.teacher)}</div> : null}
            </>
          ) : null}
        </div>
      </div>
    </section>
  )
}

function ScheduleRow({ s, started }: { s: PublicSchedule; started: boolean }) {
  const left = seatsLeft(s)
  // A run under way is listed until its end, but its seats are no longer for sale.
  const status = s.is_canceled ? '中止' : started ? '開催中' : seatsLabel(left)
  const tone = s.is_canceled
    ? 'bg-slate-200 text-slate-700'
    : started
      ? 'bg-light-grey text-slate-700'
      : left === 0
        ? 'bg-red-dark text-white'
        : 'bg-base-light text-base-ink'
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 px-4 py-3" data-testid="schedule-row">
      <div className={s.is_canceled ? 'text-slate-500 line-through' : ''}>
        <ScheduleWhen schedule={s} />
      </div>
      <span className={`rounded-full px-3 py-0.5 text-sm font-bold ${tone}`} data-testid="schedule-status">
        {status}
      </span>
    </li>
  )
}
