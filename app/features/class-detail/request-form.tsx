import { useMutation } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { FieldError, inputClass } from '~/components/ui/form-parts'
import { DAY_TIMES, type DayTime, WEEKDAYS, type Weekday } from '~/lib/request-slots'
import { requestClassDate } from './class-detail.functions'

/**
 * The form of 「リクエスト開催」: weekdays, times and a note. `RequestPanel` loads it on the first press and keeps it
 * mounted while closed, so that what was chosen is still there when it opens again.
 */
export function RequestForm(props: {
  classWorkId: number
  open: boolean
  onClose: () => void
  onDone: () => void
}) {
  const uid = useId()
  const [weekdays, setWeekdays] = useState<Weekday[]>([])
  const [times, setTimes] = useState<DayTime[]>([])
  const [note, setNote] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const send = useMutation({
    mutationFn: () => requestClassDate({ data: { id: props.classWorkId, body: { weekdays, times, note } } }),
    onSuccess: (result) => {
      if (!result.ok) {
        setErrors(result.fieldErrors)
        return showErrorSnackbar(result.message)
      }
      props.onDone()
      showSnackbar({ message: 'リクエストを送りました。日程が決まったらメールでお知らせします' })
    },
    onError: () => showErrorSnackbar('送信できませんでした。時間をおいてもう一度お試しください'),
  })
  const toggle = <T extends string>(list: T[], v: T) =>
    list.includes(v) ? list.filter((x) => x !== v) : [...list, v]
  if (!props.open) return null
  return (
    <form
      className="mt-3 flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        const next: Record<string, string> = {}
        if (weekdays.length === 0) next.weekdays = '希望の曜日を選んでください'
        if (times.length === 0) next.times = '希望の時間帯を選んでください'
        setErrors(next)
        if (Object.keys(next).length === 0) send.mutate()
      }}
      data-testid="request-form"
    >
      <fieldset aria-describedby={errors.weekdays ? `${uid}-weekdays-error` : undefined}>
        <legend className="text-sm font-bold">希望の曜日</legend>
        <div className="mt-1 flex flex-wrap gap-3">
          {(Object.keys(WEEKDAYS) as Weekday[]).map((d) => (
            <label key={d} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={weekdays.includes(d)}
                onChange={() => setWeekdays((w) => toggle(w, d))}
              />
              {WEEKDAYS[d]}
            </label>
          ))}
        </div>
        <FieldError id={`${uid}-weekdays-error`} message={errors.weekdays} />
      </fieldset>
      <fieldset aria-describedby={errors.times ? `${uid}-times-error` : undefined}>
        <legend className="text-sm font-bold">希望の時間帯</legend>
        <div className="mt-1 flex flex-wrap gap-3">
          {(Object.keys(DAY_TIMES) as DayTime[]).map((t) => (
            <label key={t} className="flex items-center gap-1 text-sm">
              <input
                type="checkbox"
                checked={times.includes(t)}
                onChange={() => setTimes((v) => toggle(v, t))}
              />
              {DAY_TIMES[t]}
            </label>
          ))}
        </div>
        <FieldError id={`${uid}-times-error`} message={errors.times} />
      </fieldset>
      <div>
        <label htmlFor={`${uid}-note`} className="text-sm font-bold">
          先生へのひとこと（任意・300文字まで）
        </label>
        <textarea
          id={`${uid}-note`}
          rows={2}
          maxLength={300}
          className={inputClass}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
        <FieldError id={`${uid}-note-error`} message={errors.note} />
      </div>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={send.isPending} data-testid="request-submit">
          リクエストする
        </button>
        <button type="button" className="btn-ghost" onClick={props.onClose}>
          やめる
        </button>
      </div>
    </form>
  )
}
