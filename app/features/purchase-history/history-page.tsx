import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import type { HistoryItem } from '~/contract/v1/payments'
import { formatDateJa, formatPrice, formatTimeJa, groupDigits } from '~/lib/format'
import { formatMonthJa, shiftMonth } from '~/lib/month'
import { paymentHistoryQuery } from './queries'

/** /purchase_history: the member's payments and refunds, a Tokyo month at a time (issue 17). */
export function PurchaseHistoryPage({ month }: { month?: string }) {
  const history = useSuspenseQuery(paymentHistoryQuery(month)).data
  if (!history) return null
  const prev = shiftMonth(history.month, -1)
  const next = shiftMonth(history.month, 1)
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <h1 className="text-2xl font-black">購入履歴</h1>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Link
            to="/purchase_history"
            search={{ month: prev }}
            className="btn-outline px-3 py-1"
            aria-label="前の月"
          >
            ‹
          </Link>
          <h2 className="text-lg font-bold" data-testid="history-month">
            {formatMonthJa(history.month)}
          </h2>
          <Link
            to="/purchase_history"
            search={{ month: next }}
            className="btn-outline px-3 py-1"
            aria-label="次の月"
          >
            ›
          </Link>
        </div>
        {history.months.length > 1 ? (
          <nav aria-label="履歴のある月" className="flex flex-wrap gap-2 text-sm">
            {history.months.slice(0, 6).map((m) => (
              <Link
                key={m}
                to="/purchase_history"
                search={{ month: m }}
                aria-current={m === history.month ? 'page' : undefined}
                className={`rounded-full px-3 py-1 ${m === history.month ? 'bg-purple-dark font-bold text-white' : 'bg-light-grey'}`}
              >
                {formatMonthJa(m)}
              </Link>
            ))}
          </nav>
        ) : null}
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3" data-testid="history-totals">
        <div className="rounded-xl bg-base-light p-3">
          <dt className="text-xs text-slate-700">お支払い</dt>
          <dd className="text-lg font-bold">{formatYen(history.totals.paid)}</dd>
        </div>
        <div className="rounded-xl bg-base-light p-3">
          <dt className="text-xs text-slate-700">返金</dt>
          <dd className="text-lg font-bold">{formatYen(history.totals.refunded)}</dd>
        </div>
      </dl>
      {history.items.length === 0 ? (
        <p className="mt-6 text-slate-700">この月のお支払いと返金はありません。</p>
      ) : (
        <ul className="mt-6 grid gap-3" data-testid="history-items">
          {history.items.map((item) => (
            <Line key={`${item.kind}-${item.payment_id}`} item={item} />
          ))}
        </ul>
      )}
    </div>
  )
}

const formatYen = (n: number) => `¥${groupDigits(n)}`

function Line({ item }: { item: HistoryItem }) {
  const refund = item.kind === 'refund'
  return (
    <li className="rounded-2xl border border-slate-200 bg-white p-4" data-testid="history-item">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="flex items-center gap-2">
          <span
            className={`rounded-full px-3 py-0.5 text-xs font-bold ${refund ? 'bg-red-dark/10 text-red-dark' : 'bg-base-light text-base-ink'}`}
            data-testid="history-kind"
          >
            {refund ? (item.status === 'pending' ? '返金手続き中' : '返金済み') : 'お支払い'}
          </span>
          <time dateTime={item.at} className="text-sm text-slate-700">
            {formatDateJa(item.at)} {formatTimeJa(item.at)}
          </time>
        </p>
        <p className={`text-lg font-black ${refund ? 'text-red-dark' : ''}`} data-testid="history-amount">
          {refund ? '−' : ''}
          {formatPrice(item.amount)}
        </p>
      </div>
      <p className="mt-1 font-bold">
        <Link
          to="/class_search/detail/$id"
          params={{ id: String(item.class_work.id) }}
          className="hover:underline"
        >
          {item.class_work.title}
        </Link>
      </p>
      <p className="text-sm text-slate-700">
        {item.lesson_count > 1 ? `全${item.lesson_count}回・` : ''}
        {formatDateJa(item.schedule_started_at)} {formatTimeJa(item.schedule_started_at)}〜／{item.attendee}
      </p>
      {refund ? null : (
        <p className="mt-2 text-sm">
          <Link
            to="/purchase_history/receipt/$id"
            params={{ id: String(item.payment_id) }}
            className="font-bold text-purple-dark underline"
            data-testid="history-receipt"
          >
            領収書
          </Link>
        </p>
      )}
    </li>
  )
}
