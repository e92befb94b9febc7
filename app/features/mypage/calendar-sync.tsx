import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { inputClass } from '~/components/ui/form-parts'
import { regenerateCalendarUrl } from './mypage.functions'
import { calendarUrlQuery } from './queries'

/**
 * カレンダーと同期 (issue 16): the private address of the member's lesson feed for Google, Apple or Outlook
 * calendars, a copy button, and 再発行 when the address may have leaked.
 */
export function CalendarSync() {
  const uid = useId()
  const queryClient = useQueryClient()
  const { data } = useQuery(calendarUrlQuery())
  const regenerate = useMutation({
    mutationFn: () => regenerateCalendarUrl(),
    onSuccess: (result) => {
      if (!result.ok) return showErrorSnackbar(result.message)
      queryClient.setQueryData(calendarUrlQuery().queryKey, result.data)
      showSnackbar({ message: 'カレンダーのURLを作り直しました。前のURLは使えなくなりました' })
    },
    onError: () => showErrorSnackbar('作り直せませんでした。時間をおいてもう一度お試しください'),
  })
  const copy = async () => {
    if (!data) return
    try {
      await navigator.clipboard.writeText(data.url)
      showSnackbar({ message: 'URLをコピーしました' })
    } catch {
      showErrorSnackbar('コピーできませんでした。URLを選択してコピーしてください')
    }
  }
  return (
    <section
      aria-labelledby={`${uid}-heading`}
      className="mt-6 rounded-2xl border border-slate-200 bg-white p-5"
      data-testid="calendar-sync"
    >
      <h2 id={`${uid}-heading`} className="text-lg font-bold">
        カレンダーと同期
      </h2>
      <p className="mt-2 text-sm text-slate-700">
        このURLをGoogleカレンダーやiPhoneのカレンダーに「URLで追加」すると、予約した授業が自動で表示されます（キャンセルも反映されます）。URLは人に教えないでください。
      </p>
      <label htmlFor={`${uid}-url`} className="sr-only">
        カレンダーのURL
      </label>
      <input
        id={`${uid}-url`}
        readOnly
        value={data?.url ?? '読み込み中…'}
        className={`${inputClass} font-mono text-sm`}
        onFocus={(e) => e.currentTarget.select()}
        data-testid="calendar-url"
      />
      <div className="mt-3 flex flex-wrap gap-2">
        <button type="button" className="btn-outline" onClick={copy} disabled={!data}>
          URLをコピー
        </button>
        <button
          type="button"
          className="btn-ghost"
          disabled={regenerate.isPending}
          onClick={() => regenerate.mutate()}
          data-testid="calendar-regenerate"
        >
          URLを作り直す
        </button>
      </div>
    </section>
  )
}
