import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useServerFn } from '@tanstack/react-start'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { Field, inputClass, numberOrUndefined } from '~/components/ui/form-parts'
import { Modal } from '~/components/ui/modal'
import { ScheduleWhen } from '~/components/ui/schedule-when'
import { ScrollRegion } from '~/components/ui/scroll-region'
import {
  ScheduleInput,
  SchedulePatch,
  type TeacherClassWork,
  type TeacherSchedule,
} from '~/contract/v1/class-management'
import { fieldErrorsOf } from '~/lib/action-result'
import { formatDateJa, formatPrice, formatTimeJa } from '~/lib/format'
import { isoToTokyoLocal, tokyoLocalToIso } from '~/lib/schedule-overlap'
import { addSchedule, cancelSchedule, updateSchedule } from './class-management.functions'
import { scheduleStudentsQuery } from './queries'

const statusLabels = {
  reserved: '予約中',
  canceled_by_user: 'キャンセル',
  canceled_by_teacher: '休講',
} as const

/** Schedules of a class on its edit page: add, edit (before the start), cancel, students. */
export function SchedulesPanel({ cls, now }: { cls: TeacherClassWork; now: number }) {
  return (
    <section aria-labelledby="schedules-heading" className="mt-10">
      <h2 id="schedules-heading" className="text-xl font-bold">
        スケジュール
      </h2>
      {cls.schedules.length === 0 ? (
        <p className="mt-3 text-slate-700">スケジュールはまだありません。</p>
      ) : (
        <ul className="mt-3 grid grid-cols-1 gap-3" data-testid="schedule-list">
          {[...cls.schedules].reverse().map((s) => (
            <ScheduleRow key={s.id} cls={cls} schedule={s} now={now} />
          ))}
        </ul>
      )}
      <div className="mt-6 rounded-2xl border border-slate-200 bg-white p-4">
        <h3 className="font-bold">スケジュールを追加</h3>
        {/* Anew when the class's number of lessons changes (saved above): it has one start field per lesson. */}
        <ScheduleForm key={cls.lesson_count} cls={cls} />
      </div>
    </section>
  )
}

function ScheduleRow({
  cls,
  schedule,
  now,
}: {
  cls: TeacherClassWork
  schedule: TeacherSchedule
  now: number
}) {
  // Which editor the teacher opened: the full form before the start, the meeting URL alone once it has started.
  // The form shown follows the clock (a refetch may set it back a moment); the mode opened says whether the
  // lesson started while the full form was open, so that the link form keeps what was typed and says why.
  const [editor, setEditor] = useState<'closed' | 'full' | 'url'>('closed')
  const editing = editor !== 'closed'
  // The meeting URL as typed into the full form: carried into the URL form if the lesson starts meanwhile.
  const [typedMeetingUrl, setTypedMeetingUrl] = useState<string | undefined>()
  const [showStudents, setShowStudents] = useState(false)
  const [confirm, setConfirm] = useState(false)
  const [pending, setPending] = useState(false)
  const cancel = useServerFn(cancelSchedule)
  const queryClient = useQueryClient()
  const startedAt = new Date(schedule.started_at).getTime()
  const endedAt = new Date(schedule.ended_at).getTime()
  const status = schedule.is_canceled
    ? '休講'
    : endedAt <= now
      ? '終了'
      : startedAt <= now
        ? '開催中'
        : '予定'

  async function onCancel() {
    setPending(true)
    try {
      const result = await cancel({ data: { scheduleId: schedule.id } })
      if (!result.ok) {
        showErrorSnackbar(result.message)
        return
      }
      setConfirm(false)
      // Its seats left the teacher's sales too, and the class page's dates.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['class-management'] }),
        queryClient.invalidateQueries({ queryKey: ['sales'] }),
        queryClient.invalidateQueries({ queryKey: ['class-detail'] }),
      ])
      const { canceled, refunded } = result.data
      showSnackbar({
        message: `休講にしました（キャンセル${canceled}件${refunded > 0 ? `、返金 ${formatPrice(refunded)}` : ''}）`,
      })
    } catch {
      showErrorSnackbar('休講にできませんでした')
    } finally {
      setPending(false)
    }
  }

  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4" data-testid="schedule-row">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div className="font-bold">
          <ScheduleWhen schedule={schedule} />
        </div>
        <span
          className={`rounded-full px-2 py-0.5 text-xs font-bold ${
            schedule.is_canceled ? 'bg-red-dark text-white' : 'bg-base-light'
          }`}
          data-testid="schedule-status"
        >
          {status}
        </span>
        <p className="text-sm">
          予約 {schedule.purchased_count}/{schedule.capacity}席
        </p>
      </div>
      {schedule.meeting_url ? (
        <p className="mt-1 truncate text-sm text-slate-700">ミーティングURL：{schedule.meeting_url}</p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <button
          type="button"
          className="btn-outline px-3 py-1 text-sm"
          aria-expanded={showStudents}
          onClick={() => setShowStudents((v) => !v)}
          data-testid="toggle-students"
        >
          受講者を見る
        </button>
        {!schedule.is_canceled && endedAt > now ? (
          <button
            type="button"
            className="btn-outline px-3 py-1 text-sm"
            aria-expanded={editing}
            onClick={() => {
              setTypedMeetingUrl(undefined)
              setEditor(editing ? 'closed' : startedAt > now ? 'full' : 'url')
            }}
          >
            {startedAt > now ? '編集' : 'ミーティングURLを変更'}
          </button>
        ) : null}
        {!schedule.is_canceled && endedAt > now ? (
          <button
            type="button"
            className="btn-ghost px-3 py-1 text-sm text-red-dark"
            onClick={() => setConfirm(true)}
            data-testid="cancel-schedule"
          >
            休講にする
          </button>
        ) : null}
      </div>
      {editing && startedAt > now ? (
        <ScheduleForm
          cls={cls}
          schedule={schedule}
          onMeetingUrlChange={setTypedMeetingUrl}
          onDone={() => setEditor('closed')}
        />
      ) : null}
      {editing && startedAt <= now ? (
        <MeetingUrlForm
          schedule={schedule}
          startedWhileEditing={editor === 'full'}
          typedMeetingUrl={typedMeetingUrl}
          onDone={() => setEditor('closed')}
        />
      ) : null}
      {showStudents ? <Students scheduleId={schedule.id} /> : null}
      <Modal
        open={confirm}
        onOpenChange={setConfirm}
        title="この回を休講にしますか？"
        message={`予約している${schedule.purchased_count}件はすべてキャンセルされ${cls.price > 0 ? '、全額返金されます' : 'ます'}。受講者にはお知らせが届きます。`}
        testId="cancel-schedule-dialog"
        buttons={[
          { text: 'やめる', color: 'outline', onClick: () => setConfirm(false) },
          { text: '休講にする', color: 'danger', disable: pending, onClick: onCancel },
        ]}
      />
    </li>
  )
}

function Students({ scheduleId }: { scheduleId: number }) {
  const { data, isPending, isError } = useQuery(scheduleStudentsQuery(scheduleId))
  if (isPending) return <p className="mt-3 text-sm">読み込み中…</p>
  if (isError || !data) return <p className="mt-3 text-sm text-red-dark">受講者を読み込めませんでした</p>
  if (data.length === 0) return <p className="mt-3 text-sm text-slate-700">まだ予約はありません。</p>
  return (
    <ScrollRegion label="受講者の一覧" className="mt-3">
      <table className="w-full min-w-[28rem] text-left text-sm" data-testid="students">
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-2 pr-3">
              受講する人
            </th>
            <th scope="col" className="py-2 pr-3">
              申し込んだ会員
            </th>
            <th scope="col" className="py-2 pr-3">
              予約日時
            </th>
            <th scope="col" className="py-2 pr-3">
              状態
            </th>
            <th scope="col" className="py-2">
              連絡
            </th>
          </tr>
        </thead>
        <tbody>
          {data.map((s) => (
            <tr key={s.purchase_id} className="border-b border-slate-100" data-testid="student-row">
              <td className="py-2 pr-3 font-bold">{s.learner?.nickname ?? s.user.nickname}</td>
              <td className="py-2 pr-3">{s.user.nickname}</td>
              <td className="py-2 pr-3">
                {formatDateJa(s.reserved_at)} {formatTimeJa(s.reserved_at)}
              </td>
              <td className="py-2 pr-3">{statusLabels[s.status]}</td>
              <td className="py-2">
                <Link
                  to="/message"
                  search={{ to: s.user.id }}
                  className="underline"
                  aria-label={`メッセージ（${s.user.nickname}さん）`}
                >
                  メッセージ
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  )
}

/**
 * Under way, only the meeting URL of a schedule changes (a course run's later lessons, a link that broke during a
 * lesson); its times and seats are fixed once it has started.
 */
function MeetingUrlForm(props: {
  schedule: TeacherSchedule
  /** The lesson started while the full form was open: say why the form changed. */
  startedWhileEditing?: boolean
  /** What the teacher had typed as the meeting URL in the full form, if anything. */
  typedMeetingUrl?: string
  onDone: () => void
}) {
  const { schedule } = props
  const uid = useId()
  const queryClient = useQueryClient()
  const edit = useServerFn(updateSchedule)
  const [meetingUrl, setMeetingUrl] = useState(props.typedMeetingUrl ?? schedule.meeting_url ?? '')
  const [error, setError] = useState<string | undefined>()
  const [pending, setPending] = useState(false)

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const parsed = SchedulePatch.safeParse({
      meeting_url: meetingUrl.trim() === '' ? null : meetingUrl.trim(),
    })
    if (!parsed.success) {
      setError(fieldErrorsOf(parsed.error.issues).meeting_url)
      return
    }
    setError(undefined)
    setPending(true)
    try {
      const result = await edit({ data: { scheduleId: schedule.id, body: parsed.data } })
      if (!result.ok) {
        setError(result.fieldErrors.meeting_url)
        showErrorSnackbar(result.message)
        return
      }
      await queryClient.invalidateQueries({ queryKey: ['class-management'] })
      showSnackbar({ message: 'ミーティングURLを変更しました' })
      props.onDone()
    } catch {
      showErrorSnackbar('ミーティングURLを変更できませんでした')
    } finally {
      setPending(false)
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-3 grid gap-4" data-testid="meeting-url-form">
      {props.startedWhileEditing ? (
        <p className="rounded-xl bg-base-light p-3 text-sm" role="status" data-testid="started-while-editing">
          この回は開始時刻を過ぎたため、日時と定員は変更できなくなりました。ミーティングURLは変更できます。
        </p>
      ) : null}
      <MeetingUrlField
        id={`${uid}-meeting`}
        label="ミーティングURL"
        hint="https:// で始まるURL"
        error={error}
        value={meetingUrl}
        onChange={setMeetingUrl}
        disabled={pending}
      />
      <div>
        <button type="submit" className="btn-primary px-5 py-2" disabled={pending}>
          変更を保存
        </button>
      </div>
    </form>
  )
}

/** The meeting URL input of both schedule forms. */
function MeetingUrlField(props: {
  id: string
  label: string
  hint: string
  error: string | undefined
  value: string
  onChange: (value: string) => void
  disabled: boolean
}) {
  return (
    <Field id={props.id} label={props.label} error={props.error} hint={props.hint}>
      {(a) => (
        <input
          {...a}
          type="url"
          inputMode="url"
          className={inputClass}
          value={props.value}
          onChange={(e) => props.onChange(e.target.value)}
          disabled={props.disabled}
        />
      )}
    </Field>
  )
}

/**
 * Adds a schedule, or edits one (`schedule`). A single lesson takes a start and an end (the end defaults to start +
 * the class's duration); a course (全N回) takes the start of each of its N lessons, each lasting the class's
 * duration, with a button that fills the rest weekly from the first.
 */
function ScheduleForm(props: {
  cls: TeacherClassWork
  schedule?: TeacherSchedule
  /** Each change of the meeting URL field, as typed. */
  onMeetingUrlChange?: (value: string) => void
  onDone?: () => void
}) {
  const { cls, schedule } = props
  const isCourse = cls.lesson_count > 1
  const uid = useId()
  const f = (k: string) => `${uid}-${k}`
  const queryClient = useQueryClient()
  const add = useServerFn(addSchedule)
  const edit = useServerFn(updateSchedule)
  const [start, setStart] = useState(schedule ? isoToTokyoLocal(schedule.started_at) : '')
  const [end, setEnd] = useState(schedule ? isoToTokyoLocal(schedule.ended_at) : '')
  const [lessonStarts, setLessonStarts] = useState<string[]>(() =>
    Array.from({ length: cls.lesson_count }, (_, i) =>
      schedule?.lessons[i] ? isoToTokyoLocal(schedule.lessons[i].started_at) : '',
    ),
  )
  // Until the teacher types one, a new date takes the class's seats as they are now (saved above meanwhile).
  const [typedCapacity, setCapacity] = useState<string | undefined>(schedule && String(schedule.capacity))
  const capacity = typedCapacity ?? String(cls.capacity)
  const [meetingUrl, setMeetingUrl] = useState(schedule?.meeting_url ?? '')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [pending, setPending] = useState(false)
  const durationMs = cls.duration_minutes * 60_000

  /** The end follows the start, keeping the lesson's length (the class's duration when there is none yet). */
  function onStart(value: string) {
    setStart(value)
    const iso = tokyoLocalToIso(value)
    if (!iso) return
    const [from, to] = [tokyoLocalToIso(start), tokyoLocalToIso(end)]
    const length =
      from && to && Date.parse(to) > Date.parse(from) ? Date.parse(to) - Date.parse(from) : durationMs
    setEnd(isoToTokyoLocal(new Date(Date.parse(iso) + length).toISOString()))
  }

  function setLessonStart(i: number, value: string) {
    setLessonStarts((prev) => prev.map((v, j) => (j === i ? value : v)))
  }

  /** Lessons 2…N a week apart from the first, at the same time. */
  function fillWeekly() {
    const first = tokyoLocalToIso(lessonStarts[0] ?? '')
    if (!first) {
      setErrors({ 'lessons.0.started_at': '第1回の開始日時を入力してください' })
      return
    }
    setErrors({})
    setLessonStarts((prev) =>
      prev.map((v, i) =>
        i === 0 ? v : isoToTokyoLocal(new Date(new Date(first).getTime() + i * 7 * 86_400_000).toISOString()),
      ),
    )
  }

  function courseBody() {
    const missing = lessonStarts.findIndex((v) => !tokyoLocalToIso(v))
    if (missing >= 0)
      return {
        error: { [`lessons.${missing}.started_at`]: `第${missing + 1}回の開始日時を入力してください` },
      }
    return {
      lessons: lessonStarts.map((v, i) => {
        // A lesson whose start the teacher left as it was keeps its saved times to the second: the class's
        // duration may have changed since, and the form shows whole minutes. Only what was typed moves.
        const saved = schedule?.lessons[i]
        if (saved && v === isoToTokyoLocal(saved.started_at))
          return { started_at: saved.started_at, ended_at: saved.ended_at }
        const startIso = tokyoLocalToIso(v)!
        return {
          started_at: startIso,
          ended_at: new Date(new Date(startIso).getTime() + durationMs).toISOString(),
        }
      }),
    }
  }

  /** An edit that leaves every time as saved sends none: the lesson is not moved (no 48-hour rule, no mail). */
  function unchanged(period: Pick<ScheduleInput, 'started_at' | 'ended_at' | 'lessons'>) {
    if (!schedule) return false
    if (period.lessons)
      return period.lessons.every(
        (l, i) =>
          l.started_at === schedule.lessons[i]?.started_at && l.ended_at === schedule.lessons[i]?.ended_at,
      )
    return period.started_at === schedule.started_at && period.ended_at === schedule.ended_at
  }

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    let period: Pick<ScheduleInput, 'started_at' | 'ended_at' | 'lessons'>
    if (isCourse) {
      const course = courseBody()
      if ('error' in course) {
        setErrors(course.error ?? {})
        return
      }
      period = { lessons: course.lessons }
    } else {
      // Left as shown: the saved time to the second (the form shows whole minutes).
      const startIso =
        schedule && start === isoToTokyoLocal(schedule.started_at)
          ? schedule.started_at
          : tokyoLocalToIso(start)
      const endIso =
        schedule && end === isoToTokyoLocal(schedule.ended_at) ? schedule.ended_at : tokyoLocalToIso(end)
      const next: Record<string, string> = {}
      if (!startIso) next.started_at = '開始日時を入力してください'
      if (!endIso) next.ended_at = '終了日時を入力してください'
      if (startIso && endIso && new Date(endIso) <= new Date(startIso))
        next.ended_at = '終了日時は開始日時より後にしてください'
      if (Object.keys(next).length > 0) {
        setErrors(next)
        return
      }
      period = { started_at: startIso, ended_at: endIso }
    }
    const parsed = (schedule ? SchedulePatch : ScheduleInput).safeParse({
      ...(unchanged(period) ? {} : period),
      capacity: numberOrUndefined(capacity),
      meeting_url: meetingUrl.trim() === '' ? null : meetingUrl.trim(),
    })
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues))
      return
    }
    setErrors({})
    setPending(true)
    try {
      const result = schedule
        ? await edit({ data: { scheduleId: schedule.id, body: parsed.data } })
        : await add({ data: { classWorkId: cls.id, body: parsed.data } })
      if (!result.ok) {
        setErrors(result.fieldErrors)
        showErrorSnackbar(result.message)
        return
      }
      // Emptied while the fields are still disabled (pending): the new row can show before this answer (a live
      // update), and a next schedule typed in that moment would be wiped by the reset, its end left unfilled.
      if (!schedule) {
        setStart('')
        setEnd('')
        setLessonStarts((prev) => prev.map(() => ''))
        setMeetingUrl('')
      }
      await queryClient.invalidateQueries({ queryKey: ['class-management'] })
      showSnackbar({ message: schedule ? 'スケジュールを変更しました' : 'スケジュールを追加しました' })
      props.onDone?.()
    } catch {
      showErrorSnackbar('スケジュールを保存できませんでした')
    } finally {
      setPending(false)
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="mt-3 grid gap-4 sm:grid-cols-2"
      data-testid="schedule-form"
    >
      {isCourse ? (
        <fieldset className="grid gap-3 sm:col-span-2 sm:grid-cols-2" data-testid="course-lesson-fields">
          <legend className="mb-2 text-sm font-bold">
            全{cls.lesson_count}回の開始日時（各回{cls.duration_minutes}分）
          </legend>
          {lessonStarts.map((value, i) => (
            <Field
              key={i}
              id={f(`lesson-${i}`)}
              label={`第${i + 1}回`}
              error={errors[`lessons.${i}.started_at`] ?? errors[`lessons.${i}.ended_at`]}
            >
              {(a) => (
                <input
                  {...a}
                  type="datetime-local"
                  className={inputClass}
                  value={value}
                  onChange={(e) => setLessonStart(i, e.target.value)}
                  disabled={pending}
                  data-testid="lesson-start"
                />
              )}
            </Field>
          ))}
          <div className="sm:col-span-2">
            <button
              type="button"
              className="btn-outline px-3 py-1 text-sm"
              onClick={fillWeekly}
              disabled={pending}
            >
              第2回以降を毎週同じ時間で入力
            </button>
            {errors.lessons ? <p className="mt-1 text-sm text-red-dark">{errors.lessons}</p> : null}
          </div>
        </fieldset>
      ) : (
        <>
          <Field id={f('start')} label="開始日時" error={errors.started_at}>
            {(a) => (
              <input
                {...a}
                type="datetime-local"
                className={inputClass}
                value={start}
                onChange={(e) => onStart(e.target.value)}
                disabled={pending}
              />
            )}
          </Field>
          <Field id={f('end')} label="終了日時" error={errors.ended_at}>
            {(a) => (
              <input
                {...a}
                type="datetime-local"
                className={inputClass}
                value={end}
                onChange={(e) => setEnd(e.target.value)}
                disabled={pending}
              />
            )}
          </Field>
        </>
      )}
      <Field id={f('capacity')} label="定員（人）" error={errors.capacity}>
        {(a) => (
          <input
            {...a}
            type="number"
            inputMode="numeric"
            min={1}
            className={inputClass}
            value={capacity}
            onChange={(e) => setCapacity(e.target.value)}
            disabled={pending}
          />
        )}
      </Field>
      <MeetingUrlField
        id={f('meeting')}
        label="ミーティングURL（任意）"
        hint={isCourse ? 'https:// で始まるURL（全回共通）' : 'https:// で始まるURL'}
        error={errors.meeting_url}
        value={meetingUrl}
        onChange={(value) => {
          setMeetingUrl(value)
          props.onMeetingUrlChange?.(value)
        }}
        disabled={pending}
      />
      <div className="sm:col-span-2">
        <button
          type="submit"
          className="btn-primary px-5 py-2"
          disabled={pending}
          data-testid="save-schedule"
        >
          {schedule ? '変更を保存' : '追加する'}
        </button>
      </div>
    </form>
  )
}
