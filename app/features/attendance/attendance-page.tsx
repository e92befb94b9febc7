import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { Icon } from '~/components/ui/icon'
import { Modal } from '~/components/ui/modal'
import { ScheduleWhen } from '~/components/ui/schedule-when'
import type { Purchase } from '~/contract/v1/purchases'
import { googleCalendarUrl } from '~/lib/calendar-links'
import { formatDateJa, formatPrice, formatRunJa, formatTimeJa } from '~/lib/format'
import { reservationStatusLabel } from '~/lib/reservation-status'
import { DEFAULT_CLASS_IMAGE, fixedSizeSrcSet } from '~/lib/responsive-image'
import { cancelReservation } from './attendance.functions'
import { attendanceQuery } from './queries'
import { ReviewForm } from './review-form'

/** /class_attendance: the member's upcoming and past reservations, with the meeting link and cancellation. */
export function AttendancePage() {
  const { upcoming, past } = useSuspenseQuery(attendanceQuery()).data
  const [tab, setTab] = useState<'upcoming' | 'past'>('upcoming')
  const [target, setTarget] = useState<Purchase | null>(null)
  const queryClient = useQueryClient()

  const cancel = useMutation({
    mutationFn: (p: Purchase) => cancelReservation({ data: { purchase_id: p.id } }),
    onSuccess: async (result) => {
      setTarget(null)
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['attendance'] }),
        queryClient.invalidateQueries({ queryKey: ['mypage'] }),
        queryClient.invalidateQueries({ queryKey: ['purchase-history'] }),
        queryClient.invalidateQueries({ queryKey: ['class-detail'] }),
        queryClient.invalidateQueries({ queryKey: ['reservation-options'] }),
      ])
      if (!result.ok) return showErrorSnackbar(result.message || 'キャンセルできませんでした')
      showSnackbar({ message: '予約をキャンセルしました' })
    },
    onError: (error) => {
      setTarget(null)
      showErrorSnackbar(`キャンセルできませんでした ${(error as Error).message ?? ''}`)
    },
  })

  const list = tab === 'upcoming' ? upcoming : past
  const tabClass = (on: boolean) =>
    `flex-1 rounded-t-xl border-b-4 px-4 py-3 text-center font-bold ${
      on ? 'border-purple-dark text-purple-dark' : 'border-transparent text-slate-700 hover:bg-light-grey'
    }`
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-black">受講クラス</h1>
      <div role="tablist" aria-label="受講クラスの表示" className="mt-6 flex border-b border-slate-200">
        <button
          type="button"
          role="tab"
          id="tab-upcoming"
          aria-selected={tab === 'upcoming'}
          aria-controls="panel-attendance"
          className={tabClass(tab === 'upcoming')}
          onClick={() => setTab('upcoming')}
          data-testid="tab-upcoming"
        >
          これからのクラス（{upcoming.length}）
        </button>
        <button
          type="button"
          role="tab"
          id="tab-past"
          aria-selected={tab === 'past'}
          aria-controls="panel-attendance"
          className={tabClass(tab === 'past')}
          onClick={() => setTab('past')}
          data-testid="tab-past"
        >
          受講済み・過去（{past.length}）
        </button>
      </div>
      <div role="tabpanel" id="panel-attendance" aria-labelledby={`tab-${tab}`} className="mt-4">
        {list.length === 0 ? (
          <div className="rounded-2xl bg-light-grey p-6 text-center text-sm text-slate-700">
            <p>{tab === 'upcoming' ? '予約中のクラスはありません。' : '過去の受講はありません。'}</p>
            <Link to="/class_search" className="btn-primary mt-4 inline-flex">
              クラスを探す
            </Link>
          </div>
        ) : (
          <ul className="flex flex-col gap-4" data-testid="attendance-list">
            {list.map((p) => (
              <PurchaseRow key={p.id} p={p} upcoming={tab === 'upcoming'} onCancel={() => setTarget(p)} />
            ))}
          </ul>
        )}
      </div>

      <Modal
        open={target !== null}
        onOpenChange={(v) => {
          if (!v && !cancel.isPending) setTarget(null)
        }}
        title="予約をキャンセルしますか？"
        testId="cancel-confirm"
        message={
          target ? (
            <span className="block text-left">
              <span className="block font-bold">{target.class_work.title}</span>
              <span className="mt-1 block">
                {formatRunJa(
                  target.schedule.started_at,
                  target.schedule.ended_at,
                  target.schedule.lessons.length,
                )}
                ／{target.attendee.nickname}
              </span>
              <span className="mt-2 block">
                {target.price > 0 ? `${formatPrice(target.price)}は全額返金されます。` : '無料のクラスです。'}
              </span>
            </span>
          ) : undefined
        }
        buttons={[
          { text: 'やめる', color: 'ghost', disable: cancel.isPending, onClick: () => setTarget(null) },
          {
            text: 'キャンセルする',
            color: 'danger',
            disable: cancel.isPending,
            onClick: () => target && cancel.mutate(target),
          },
        ]}
      />
    </div>
  )
}

function PurchaseRow({ p, upcoming, onCancel }: { p: Purchase; upcoming: boolean; onCancel: () => void }) {
  const live = p.status === 'reserved' && !p.schedule.is_canceled
  const status = reservationStatusLabel(p, !upcoming)
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4" data-testid="attendance-item">
      <div className="flex gap-4">
        <img
          src={p.class_work.image_url ?? DEFAULT_CLASS_IMAGE}
          {...fixedSizeSrcSet(p.class_work.image_url, 96)}
          alt=""
          width={96}
          height={60}
          loading="lazy"
          className="hidden h-16 w-24 shrink-0 rounded-lg bg-base-light object-cover sm:block"
        />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-2">
            <span
              className={`rounded-full px-3 py-0.5 text-xs font-bold ${status.tone}`}
              data-testid="attendance-status"
            >
              {status.text}
            </span>
            {p.schedule.lessons.length > 1 ? null : (
              <time dateTime={p.schedule.started_at} className="font-bold">
                {formatDateJa(p.schedule.started_at)} {formatTimeJa(p.schedule.started_at)}〜
                {formatTimeJa(p.schedule.ended_at)}
              </time>
            )}
          </p>
          {p.schedule.lessons.length > 1 ? (
            <div className="mt-1 font-bold">
              <ScheduleWhen schedule={p.schedule} />
            </div>
          ) : null}
          <p className="mt-1 text-lg font-bold">
            <Link
              to="/class_search/detail/$id"
              params={{ id: String(p.class_work.id) }}
              className="hover:underline"
              data-testid="attendance-class"
            >
              {p.class_work.title}
            </Link>
          </p>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 text-sm text-slate-700">
            <dt>先生</dt>
            <dd>{p.teacher.nickname}</dd>
            <dt>受講する人</dt>
            <dd data-testid="attendance-attendee">
              {p.attendee.nickname}
              {p.attendee.kind === 'member' ? '（ご本人）' : ''}
            </dd>
            <dt>料金</dt>
            <dd>
              {formatPrice(p.price)}
              {p.payment?.status === 'succeeded' ? (
                <>
                  {p.payment.refund_status ? (
                    <span className="ml-2 text-red-dark" data-testid="attendance-refund">
                      {p.payment.refund_status === 'succeeded' ? '返金済み' : '返金手続き中'}
                    </span>
                  ) : null}
                  <Link
                    to="/purchase_history/receipt/$id"
                    params={{ id: String(p.payment.id) }}
                    className="ml-2 underline"
                  >
                    領収書
                  </Link>
                </>
              ) : null}
            </dd>
          </dl>
        </div>
      </div>
      {p.status === 'pending' && p.payment ? (
        <div className="mt-3 flex flex-wrap items-center gap-3 border-t border-slate-100 pt-3">
          <Link
            to="/checkout/$id"
            params={{ id: String(p.payment.id) }}
            className="btn-primary"
            data-testid="attendance-pay"
          >
            お支払いへ進む
          </Link>
          {p.hold_expires_at ? (
            <p className="text-xs text-slate-600">
              {formatTimeJa(p.hold_expires_at)}までにお支払いがないと、予約は取り消されます。
            </p>
          ) : null}
        </div>
      ) : null}
      {upcoming && live ? (
        <div className="mt-3 flex flex-wrap items-center gap-3 border-t border-slate-100 pt-3">
          {p.meeting_url ? (
            <a
              href={p.meeting_url}
              target="_blank"
              rel="noopener noreferrer"
              className="btn-primary"
              data-testid="meeting-link"
            >
              <Icon name="open-in-new" className="h-5 w-5" />
              授業に参加する
            </a>
          ) : null}
          {p.can_cancel ? (
            <button type="button" className="btn-outline" onClick={onCancel} data-testid="cancel-button">
              キャンセルする
            </button>
          ) : (
            <p className="text-xs text-slate-600">キャンセル期限（開始24時間前）を過ぎています。</p>
          )}
          <AddToCalendar p={p} />
          {p.meeting_url ? null : (
            <p className="w-full text-xs text-slate-600">授業のURLは開始15分前からここに表示されます。</p>
          )}
        </div>
      ) : null}
      {p.review ? (
        <p className="mt-3 border-t border-slate-100 pt-3 text-sm text-slate-700" data-testid="reviewed">
          レビュー済み <span className="text-amber-500">{'★'.repeat(p.review.rating)}</span>
        </p>
      ) : p.can_review ? (
        <div className="mt-3 border-t border-slate-100 pt-3">
          <ReviewForm purchase={p} />
        </div>
      ) : null}
    </li>
  )
}

/**
 * 「カレンダーに追加」: an .ics file of this reservation (every lesson of a course run), or Google Calendar's page
 * with a lesson filled in (Google's page takes one event: a course run links each of its lessons).
 */
function AddToCalendar({ p }: { p: Purchase }) {
  const lessons = p.schedule.lessons
  const course = lessons.length > 1
  const details = `先生：${p.teacher.nickname}\n受講する人：${p.attendee.nickname}\n授業の15分前から「受講クラス」ページに参加リンクが表示されます。`
  const googleOf = (l: { started_at: string; ended_at: string }, i: number) =>
    googleCalendarUrl({
      title: course ? `${p.class_work.title}（第${i + 1}回／全${lessons.length}回）` : p.class_work.title,
      startedAt: l.started_at,
      endedAt: l.ended_at,
      details,
    })
  return (
    <details className="relative" data-testid="add-to-calendar">
      <summary className="btn-ghost cursor-pointer list-none">カレンダーに追加</summary>
      <div className="mt-2 flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-3 text-sm">
        <a
          href={`/downloads/lesson/${p.id}`}
          download={`lesson-${p.id}.ics`}
          className="underline"
          data-testid="ics-link"
        >
          {course
            ? `全${lessons.length}回をカレンダーファイル（.ics）でダウンロード`
            : 'カレンダーファイル（.ics）をダウンロード'}
        </a>
        {course ? (
          <p className="flex flex-wrap gap-x-3 gap-y-1">
            Googleカレンダーに追加：
            {lessons.map((l, i) => (
              <a
                key={l.started_at}
                href={googleOf(l, i)}
                target="_blank"
                rel="noopener noreferrer"
                className="underline"
                data-testid="google-calendar-link"
              >
                第{i + 1}回
              </a>
            ))}
          </p>
        ) : (
          <a
            href={googleOf(lessons[0] ?? p.schedule, 0)}
            target="_blank"
            rel="noopener noreferrer"
            className="underline"
            data-testid="google-calendar-link"
          >
            Googleカレンダーに追加
          </a>
        )}
      </div>
    </details>
  )
}
