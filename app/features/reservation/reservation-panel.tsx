import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useLocation } from '@tanstack/react-router'
import { Suspense, useId, useState } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'
import { openLoginModal, showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { useAction } from '~/components/shell/use-action'
import { useViewer } from '~/components/shell/use-viewer'
import { LessonList, ScheduleWhen } from '~/components/ui/schedule-when'
import { useOnceOpened } from '~/components/ui/use-once-opened'
import type { ClassWorkDetail, PublicSchedule } from '~/contract/v1/class-works'
import { gradeMismatch } from '~/lib/class-labels'
import { formatDateJa, formatPrice, formatTimeJa, seatsLeft } from '~/lib/format'
import { reservationOptionsQuery } from './queries'

const SELF = 'self'

// The confirmation with its Radix dialog and the reservation call loads when the member first presses 予約する (0008).
const ReservationConfirm = lazyPart(() =>
  import('./reservation-confirm').then((m) => ({ default: m.ReservationConfirm })),
)

/** Open for this member: a free seat, or one held for them by a waitlist offer. */
function reservable(s: PublicSchedule, now: number, offered = false) {
  return !s.is_canceled && (seatsLeft(s) > 0 || offered) && new Date(s.started_at).getTime() > now
}

/**
 * The reservation panel of the class detail page: choose a schedule and who attends, see the price, confirm.
 * A visitor gets the login modal and comes back here after signing in.
 */
export function ReservationPanel({ classWork, now }: { classWork: ClassWorkDetail; now: string }) {
  const viewer = useViewer()
  const location = useLocation()
  const uid = useId()
  const nowMs = new Date(now).getTime()
  const upcoming = classWork.schedules.filter((s) => new Date(s.started_at).getTime() > nowMs)
  const options = useQuery({ ...reservationOptionsQuery(), enabled: viewer === 'member' })
  const waitlist = options.data?.waitlist ?? []
  const entryOf = (s: PublicSchedule) => waitlist.find((w) => w.schedule_id === s.id)
  const offeredFor = (s: PublicSchedule) => entryOf(s)?.status === 'offered'
  const open = upcoming.filter((s) => reservable(s, nowMs, offeredFor(s)))
  // Coming dates that still take place: none (only 中止 ones) is not 満席, and there is nothing to book or wait for.
  const live = upcoming.some((s) => !s.is_canceled)
  const [scheduleId, setScheduleId] = useState<number | undefined>(undefined)
  const [attendee, setAttendee] = useState<string>(SELF)
  const [confirming, setConfirming] = useState(false)
  const [confirmed, setConfirmed] = useState<{
    schedule: PublicSchedule
    learnerId: number | null
    who: string
  } | null>(null)
  const confirmOpened = useOnceOpened(confirming)
  const [done, setDone] = useState<{ when: string; who: string } | null>(null)

  const learners = options.data?.learners ?? []
  const attendeeId = attendee === SELF ? null : Number(attendee)
  const heldOf = (s: PublicSchedule) =>
    (options.data?.held ?? []).find((h) => h.schedule_id === s.id && h.learner_id === attendeeId)
  const isHeld = (s: PublicSchedule) => heldOf(s) !== undefined
  // The member's pick, or the first schedule this attendee can still reserve.
  const chosen =
    scheduleId === undefined
      ? open.find((s) => !isHeld(s))
      : open.find((s) => s.id === scheduleId && !isHeld(s))
  const attendeeGrade =
    attendee === SELF
      ? (options.data?.grade ?? null)
      : (learners.find((l) => String(l.id) === attendee)?.grade ?? null)
  // Booking for a grade the class is not for is allowed, once the member has confirmed it (issue 19).
  const gradeWarning = gradeMismatch(classWork.target_grades, attendeeGrade)
  const [gradeConfirmed, setGradeConfirmed] = useState(false)
  const who =
    attendee === SELF
      ? `${options.data?.nickname ?? 'ご本人'}（ご本人）`
      : (learners.find((l) => String(l.id) === attendee)?.nickname ?? '')

  const onReserve = () => {
    if (viewer === 'visitor') return openLoginModal(location.href)
    if (viewer === 'unregistered') return showErrorSnackbar('プロフィールを登録すると予約できます')
    if (!chosen) return showErrorSnackbar('日程を選択してください')
    setGradeConfirmed(false)
    // What the dialog shows and books is what was chosen now: a refetch while it is open (a seat sold, the window
    // focused again) must not swap the date under the parent's eyes.
    setConfirmed({ schedule: chosen, learnerId: attendeeId, who })
    setConfirming(true)
  }

  return (
    <section
      aria-labelledby={`${uid}-heading`}
      className="mt-10 rounded-2xl border-2 border-purple-dark/30 bg-white p-5"
      data-testid="reservation-panel"
    >
      <h2 id={`${uid}-heading`} className="text-xl font-bold">
        予約する
      </h2>
      {done ? (
        <div className="mt-4 rounded-xl bg-base-light p-4" role="status" data-testid="reservation-done">
          <p className="font-bold">予約が完了しました</p>
          <p className="mt-1 text-sm">
            {done.when}／{done.who}
          </p>
          <div className="mt-3 flex flex-wrap gap-3">
            <Link to="/class_attendance" className="btn-primary" data-testid="to-attendance">
              受講クラスを見る
            </Link>
            <button type="button" className="btn-ghost" onClick={() => setDone(null)}>
              続けて予約する
            </button>
          </div>
        </div>
      ) : upcoming.length === 0 ? (
        <p className="mt-3 text-sm text-slate-700">予約できる日程はありません。</p>
      ) : (
        <div className="mt-4 flex flex-col gap-5">
          <fieldset>
            <legend className="text-sm font-bold">日程を選ぶ</legend>
            <ul className="mt-2 flex flex-col gap-2">
              {upcoming.map((s) => {
                const held = isHeld(s)
                const paying = heldOf(s)?.pending_payment_id ?? null
                const entry = entryOf(s)
                const ok = reservable(s, nowMs, entry?.status === 'offered') && !held
                const left = seatsLeft(s)
                return (
                  <li key={s.id}>
                    <label
                      className={`flex cursor-pointer flex-wrap items-center justify-between gap-2 rounded-xl border-2 px-3 py-2 ${
                        chosen?.id === s.id ? 'border-purple-dark bg-purple-dark/5' : 'border-slate-200'
                      } ${ok ? '' : 'cursor-not-allowed bg-light-grey text-slate-600'}`}
                    >
                      <span className="flex items-center gap-2">
                        <input
                          type="radio"
                          name={`${uid}-schedule`}
                          value={s.id}
                          checked={chosen?.id === s.id}
                          disabled={!ok}
                          onChange={() => setScheduleId(s.id)}
                          data-testid="reservation-schedule"
                        />
                        <ScheduleWhen schedule={s} list="none" />
                      </span>
                      <span className="text-sm font-bold" data-testid="schedule-seats">
                        {paying !== null
                          ? 'お支払い待ち'
                          : held
                            ? '予約済み'
                            : s.is_canceled
                              ? '中止'
                              : entry?.status === 'offered' && entry.offer_expires_at
                                ? `席を確保中（${formatDateJa(entry.offer_expires_at)} ${formatTimeJa(entry.offer_expires_at)}まで）`
                                : left === 0
                                  ? '満席'
                                  : `残り${left}席`}
                      </span>
                    </label>
                    {paying !== null ? (
                      <Link
                        to="/checkout/$id"
                        params={{ id: String(paying) }}
                        className="mt-1 inline-block px-3 text-sm font-bold text-purple-dark underline"
                        data-testid="continue-payment"
                      >
                        お支払いを続ける
                      </Link>
                    ) : null}
                    {!held && !s.is_canceled && left === 0 && entry?.status !== 'offered' ? (
                      <WaitlistAction
                        scheduleId={s.id}
                        learnerId={attendee === SELF ? null : Number(attendee)}
                        entry={entry}
                      />
                    ) : null}
                  </li>
                )
              })}
            </ul>
            {chosen && chosen.lessons.length > 1 ? (
              <div className="mt-3 rounded-xl bg-light-grey p-3" data-testid="chosen-course">
                <p className="text-sm font-bold">全{chosen.lessons.length}回の日程（まとめて予約します）</p>
                <LessonList lessons={chosen.lessons} />
              </div>
            ) : null}
          </fieldset>

          {viewer === 'member' ? (
            <div>
              <label htmlFor={`${uid}-attendee`} className="text-sm font-bold">
                受講する人
              </label>
              <select
                id={`${uid}-attendee`}
                className="mt-1 w-full rounded-lg border border-slate-300 bg-white px-3 py-2"
                value={attendee}
                onChange={(e) => {
                  setAttendee(e.target.value)
                  setScheduleId(undefined)
                }}
                data-testid="reservation-attendee"
              >
                <option value={SELF}>{options.data?.nickname ?? 'ご本人'}（ご本人）</option>
                {learners.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.nickname}
                  </option>
                ))}
              </select>
              {gradeWarning ? (
                <p className="mt-1 text-sm text-amber-900" data-testid="reservation-grade-note">
                  {gradeWarning}
                </p>
              ) : null}
            </div>
          ) : null}

          <p className="flex items-baseline justify-between border-t border-slate-200 pt-4">
            <span className="text-sm font-bold">料金</span>
            <span className="text-2xl font-black text-purple-dark" data-testid="reservation-price">
              {formatPrice(classWork.price)}
            </span>
          </p>
          <button
            type="button"
            className="btn-primary w-full"
            onClick={onReserve}
            // A member's held seats and learners decide what is booked: not before they have loaded (a tap made
            // before the panel hydrated is played as soon as it has, 0030).
            disabled={!live || (viewer === 'member' && (!chosen || options.isPending))}
            data-testid="reserve-button"
          >
            {!live
              ? '予約できる日程はありません'
              : open.length === 0
                ? '満席です'
                : chosen || viewer !== 'member'
                  ? '予約する'
                  : '日程を選んでください'}
          </button>
        </div>
      )}

      {confirmOpened ? (
        <Suspense fallback={null}>
          <ReservationConfirm
            classWork={classWork}
            schedule={confirmed?.schedule}
            learnerId={confirmed?.learnerId ?? null}
            who={confirmed?.who ?? who}
            gradeWarning={gradeWarning}
            gradeConfirmed={gradeConfirmed}
            onGradeConfirmedChange={setGradeConfirmed}
            open={confirming}
            onOpenChange={setConfirming}
            onDone={(when) => setDone({ when, who: confirmed?.who ?? who })}
          />
        </Suspense>
      ) : null}
    </section>
  )
}

/**
 * キャンセル待ち on a full schedule: join the line, see one's place, or leave it. When a seat frees, the first in
 * line gets it held for 12 hours (a mail and a live update), and this panel offers it to them.
 */
function WaitlistAction(props: {
  scheduleId: number
  learnerId: number | null
  entry: { id: number; status: 'waiting' | 'offered'; position: number | null } | undefined
}) {
  const viewer = useViewer()
  const location = useLocation()
  const queryClient = useQueryClient()
  const done = async (message: string) => {
    await queryClient.invalidateQueries({ queryKey: ['reservation-options'] })
    showSnackbar({ message })
  }
  // The functions are imported on the first tap: first-load scripts carry no server-function code (0008).
  const join = useAction(
    async () => {
      const f = await import('./reservation.functions')
      const result = await f.joinWaitlist({
        data: { schedule_id: props.scheduleId, learner_id: props.learnerId },
      })
      // Signed out since the page loaded (another tab, an expired session): log in here, as booking does.
      if (!result.ok && result.status === 401) return openLoginModal(location.href)
      if (!result.ok) return showErrorSnackbar(result.message)
      await done(
        `キャンセル待ちに登録しました（${result.data.position}番目）。空きが出たらメールでお知らせします`,
      )
    },
    () => showErrorSnackbar('登録できませんでした。時間をおいてもう一度お試しください'),
  )
  const leave = useAction(
    async (id: number) => {
      const result = await (await import('./reservation.functions')).leaveWaitlist({ data: id })
      if (!result.ok && result.status === 401) return openLoginModal(location.href)
      if (!result.ok) return showErrorSnackbar(result.message)
      await done('キャンセル待ちをやめました')
    },
    () => showErrorSnackbar('処理できませんでした。時間をおいてもう一度お試しください'),
  )
  if (props.entry?.status === 'waiting')
    return (
      <p className="mt-1 flex flex-wrap items-center gap-2 px-3 text-sm" data-testid="waitlist-waiting">
        キャンセル待ち中（{props.entry.position}番目）
        <button
          type="button"
          className="text-xs underline"
          disabled={leave.isPending}
          onClick={() => leave.run(props.entry!.id)}
          data-testid="waitlist-leave"
        >
          やめる
        </button>
      </p>
    )
  return (
    <button
      type="button"
      className="btn-outline mt-1 px-3 py-1.5 text-sm"
      disabled={join.isPending}
      onClick={() => {
        if (viewer === 'visitor') return openLoginModal(location.href)
        if (viewer === 'unregistered')
          return showErrorSnackbar('プロフィールを登録するとキャンセル待ちできます')
        join.run()
      }}
      data-testid="waitlist-join"
    >
      キャンセル待ちする
    </button>
  )
}
