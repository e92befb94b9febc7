import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { ScrollRegion } from '~/components/ui/scroll-region'
import type { SalesFigures, SalesReport } from '~/contract/v1/sales'
import { formatDateJa, groupDigits } from '~/lib/format'
import { formatMonthJa, shiftMonth } from '~/lib/month'
import { salesStatusLabel } from '~/lib/sales-status'
import { Payouts } from './payouts'
import { customersQuery, salesQuery } from './queries'

export type SalesTab = 'sales' | 'payouts' | 'customers'

const yen = (n: number) => `¥${groupDigits(n)}`

/** /sales_management: sales per month and class, receipts, CSV; and the customers tab. */
export function SalesPage({ tab, month }: { tab: SalesTab; month?: string }) {
  const { isTeacher, report } = useSuspenseQuery(salesQuery(month)).data
  if (!isTeacher || !report) return <NotTeacher />
  const tabs: { value: SalesTab; label: string }[] = [
    { value: 'sales', label: '売上' },
    { value: 'payouts', label: '振込明細' },
    { value: 'customers', label: '顧客管理' },
  ]
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="text-2xl font-black">売上管理</h1>
      <nav aria-label="表示の切り替え" className="mt-6 flex gap-2 border-b border-slate-200">
        {tabs.map((t) => (
          <Link
            key={t.value}
            to="/sales_management"
            search={{ tab: t.value, month: report.month }}
            aria-current={t.value === tab ? 'page' : undefined}
            className={`-mb-px border-b-4 px-4 py-2 font-bold ${
              t.value === tab ? 'border-purple-dark text-purple-dark' : 'border-transparent text-slate-700'
            }`}
            data-testid={`sales-tab-${t.value}`}
          >
            {t.label}
          </Link>
        ))}
      </nav>
      {tab === 'customers' ? (
        <Customers />
      ) : tab === 'payouts' ? (
        <Payouts month={month} />
      ) : (
        <Sales report={report} />
      )}
    </div>
  )
}

function Figures({ f }: { f: SalesFigures }) {
  const items: [string, string][] = [
    ['売上（総額）', yen(f.gross)],
    ['手数料', yen(f.commission)],
    ['お受け取り額', yen(f.net)],
    ['予約数', `${f.count}件`],
    ['返金', `${f.refund_count}件（${yen(f.refunded_amount)}）`],
  ]
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5" data-testid="sales-totals">
      {items.map(([k, v]) => (
        <div key={k} className="rounded-xl bg-base-light p-3">
          <dt className="text-xs text-slate-700">{k}</dt>
          <dd className="text-lg font-bold">{v}</dd>
        </div>
      ))}
    </dl>
  )
}

function Sales({ report }: { report: SalesReport }) {
  const prev = shiftMonth(report.month, -1)
  const next = shiftMonth(report.month, 1)
  return (
    <>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Link
            to="/sales_management"
            search={{ tab: 'sales', month: prev }}
            className="btn-outline px-3 py-1"
            aria-label={`前の月（${formatMonthJa(prev)}）`}
          >
            ‹
          </Link>
          <h2 className="text-xl font-bold" data-testid="sales-month">
            {formatMonthJa(report.month)}
          </h2>
          <Link
            to="/sales_management"
            search={{ tab: 'sales', month: next }}
            className="btn-outline px-3 py-1"
            aria-label={`次の月（${formatMonthJa(next)}）`}
          >
            ›
          </Link>
        </div>
        <a
          href={`/downloads/sales.csv?month=${report.month}`}
          download
          className="btn-outline px-4 py-2"
          data-testid="sales-csv"
        >
          CSVをダウンロード
        </a>
      </div>
      <div className="mt-4">
        <Figures f={report.totals} />
      </div>
      <p className="mt-2 text-xs text-slate-700">
        予約された月で集計しています。キャンセル・休講になった予約は売上に含めず、返金として別に表示します。
      </p>

      <section className="mt-8" aria-labelledby="by-class-heading">
        <h2 id="by-class-heading" className="text-lg font-bold">
          クラス別
        </h2>
        {report.by_class.length === 0 ? (
          <p className="mt-2 text-slate-700">この月の売上はありません。</p>
        ) : (
          <ScrollRegion label="クラス別の売上" className="mt-2">
            <table className="w-full min-w-[36rem] text-left text-sm" data-testid="sales-by-class">
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className="py-2 pr-3">
                    クラス
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    予約数
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    売上
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    手数料
                  </th>
                  <th scope="col" className="py-2 pr-3 text-right">
                    受取額
                  </th>
                  <th scope="col" className="py-2 text-right">
                    返金
                  </th>
                </tr>
              </thead>
              <tbody>
                {report.by_class.map((c) => (
                  <tr key={c.class_work_id} className="border-b border-slate-100">
                    <td className="py-2 pr-3">{c.title}</td>
                    <td className="py-2 pr-3 text-right">{c.count}</td>
                    <td className="py-2 pr-3 text-right">{yen(c.gross)}</td>
                    <td className="py-2 pr-3 text-right">{yen(c.commission)}</td>
                    <td className="py-2 pr-3 text-right font-bold">{yen(c.net)}</td>
                    <td className="py-2 text-right">
                      {c.refund_count}件 {yen(c.refunded_amount)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </section>

      <section className="mt-8" aria-labelledby="purchases-heading">
        <h2 id="purchases-heading" className="text-lg font-bold">
          予約ごとの明細
        </h2>
        {report.purchases.length === 0 ? (
          <p className="mt-2 text-slate-700">この月の予約はありません。</p>
        ) : (
          <ul
            className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white"
            data-testid="sales-lines"
          >
            {report.purchases.map((p) => (
              <li
                key={p.purchase_id}
                className="flex flex-wrap items-center justify-between gap-2 p-3 text-sm"
              >
                <div className="min-w-0">
                  <p className="font-bold">{p.class_work_title}</p>
                  <p className="text-slate-700">
                    {formatDateJa(p.created_at)} 予約・{p.learner_nickname ?? p.buyer_nickname}さん・
                    {salesStatusLabel(p)}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <span className={p.status === 'reserved' ? 'font-bold' : 'text-slate-600 line-through'}>
                    {yen(p.price)}
                  </span>
                  <Link
                    to="/sales_management/receipt/$id"
                    params={{ id: String(p.purchase_id) }}
                    className="btn-ghost px-2 py-1"
                  >
                    領収書
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  )
}

function Customers() {
  const list = useSuspenseQuery(customersQuery()).data
  if (list.length === 0) return <p className="mt-6 text-slate-700">まだ予約した方はいません。</p>
  return (
    <ScrollRegion label="顧客の一覧" className="mt-6">
      <table className="w-full min-w-[32rem] text-left text-sm" data-testid="customers">
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="py-2 pr-3">
              会員
            </th>
            <th scope="col" className="py-2 pr-3 text-right">
              予約回数
            </th>
            <th scope="col" className="py-2 pr-3">
              最後の受講
            </th>
            <th scope="col" className="py-2 pr-3">
              次回の予約
            </th>
            {/* relative: the hidden label's box stays in the cell, inside the table's scroll region (absolute, it
                widened the whole page on a phone). */}
            <th scope="col" className="relative py-2">
              <span className="sr-only">メッセージ</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((c) => (
            <tr key={c.user.id} className="border-b border-slate-100">
              <td className="py-2 pr-3 font-bold">{c.user.nickname}</td>
              <td className="py-2 pr-3 text-right">{c.reservation_count}回</td>
              <td className="py-2 pr-3">{c.last_lesson_at ? formatDateJa(c.last_lesson_at) : '—'}</td>
              <td className="py-2 pr-3">{c.next_lesson_at ? formatDateJa(c.next_lesson_at) : '—'}</td>
              <td className="py-2">
                <Link
                  to="/message"
                  search={{ to: c.user.id }}
                  className="underline"
                  aria-label={`メッセージ（${c.user.nickname}さん）`}
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

function NotTeacher() {
  return (
    <div className="mx-auto max-w-2xl px-4 py-10" data-testid="become-teacher">
      <h1 className="text-2xl font-black">売上管理</h1>
      <p className="mt-4 text-slate-700">
        売上管理は先生として活動している方が使えます。「先生として活動する」から本人確認を申請すると、クラスを開いて売上を確認できるようになります。
      </p>
      <Link to="/profile/teacher" className="btn-primary mt-6 inline-flex px-4 py-2">
        先生として活動する
      </Link>
    </div>
  )
}
