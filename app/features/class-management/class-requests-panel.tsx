import { useQuery } from '@tanstack/react-query'
import { formatDateJa } from '~/lib/format'
import { wishLabel } from '~/lib/request-slots'
import { classRequestsQuery } from './queries'

/**
 * 開催リクエスト (issue 16): members who asked for a date of this class and when it would suit them. Adding a
 * schedule mails each of them once.
 */
export function ClassRequestsPanel({ classWorkId }: { classWorkId: number }) {
  const { data } = useQuery(classRequestsQuery(classWorkId))
  if (!data || data.count === 0) return null
  return (
    <section
      aria-labelledby="requests-heading"
      className="mt-8 rounded-2xl border border-amber-200 bg-amber-50 p-5"
      data-testid="class-requests"
    >
      <h2 id="requests-heading" className="text-lg font-bold">
        開催リクエスト {data.count}件
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        日程を追加すると、リクエストした方全員にメールでお知らせします。
      </p>
      <ul className="mt-3 flex flex-col gap-2 text-sm">
        {data.items.map((r) => (
          <li key={r.id} className="rounded-xl bg-white p-3" data-testid="class-request">
            <p>
              <span className="font-bold">{r.nickname}さん</span>・{wishLabel(r.weekdays, r.times)}
              <span className="ml-2 text-xs text-slate-600">{formatDateJa(r.created_at)}</span>
            </p>
            {r.note ? <p className="mt-1 whitespace-pre-line break-words text-slate-700">{r.note}</p> : null}
          </li>
        ))}
      </ul>
    </section>
  )
}
