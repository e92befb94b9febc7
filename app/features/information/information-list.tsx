import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { formatDateJa } from '~/lib/format'
import { informationQuery } from './queries'

/** /information: operator notices and class announcements, unread first. */
export function InformationList() {
  const items = useSuspenseQuery(informationQuery()).data
  const unread = items.filter((i) => !i.is_read).length
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-black">お知らせ</h1>
      <p className="mt-2 text-sm text-slate-700" data-testid="information-unread">
        未読 {unread}件
      </p>
      {items.length === 0 ? (
        <p className="mt-6 rounded-2xl bg-light-grey p-6 text-center text-sm text-slate-700">
          お知らせはありません。
        </p>
      ) : (
        <ul
          className="mt-4 divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white"
          data-testid="information-list"
        >
          {items.map((item) => (
            <li key={item.key}>
              <Link
                to="/information/detail/$id"
                params={{ id: item.key }}
                className="flex gap-3 px-4 py-4 hover:bg-light-grey"
                data-testid="information-item"
                data-read={item.is_read ? 'true' : 'false'}
              >
                <span
                  aria-hidden="true"
                  className={`mt-2 h-2.5 w-2.5 shrink-0 rounded-full ${item.is_read ? 'bg-transparent' : 'bg-red-dark'}`}
                />
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-center gap-2 text-xs text-slate-700">
                    <span
                      className={`rounded-full px-2 py-0.5 font-bold ${
                        item.kind === 'notice' ? 'bg-yellow/40 text-slate-900' : 'bg-base-light text-base-ink'
                      }`}
                    >
                      {item.kind === 'notice' ? '運営から' : 'クラスから'}
                    </span>
                    <time dateTime={item.at}>{formatDateJa(item.at)}</time>
                    {item.is_read ? <span>既読</span> : <span className="font-bold text-red-dark">未読</span>}
                  </span>
                  <span className={`mt-1 block ${item.is_read ? '' : 'font-bold'}`}>{item.title}</span>
                  {item.class_work ? (
                    <span className="block truncate text-xs text-slate-700">{item.class_work.title}</span>
                  ) : null}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
