import { useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { formatDateJa, formatTimeJa, groupDigits } from '~/lib/format'
import { salesStatusLabel } from '~/lib/sales-status'
import { receiptQuery } from './queries'

const yen = (n: number) => `¥${groupDigits(n)}`

/** /sales_management/receipt/$id: a printable receipt of one purchase (the teacher's copy). */
export function ReceiptPage({ id }: { id: number }) {
  const r = useSuspenseQuery(receiptQuery(id)).data
  if (!r) return null
  const rows: [string, string][] = [
    ['購入ID', String(r.purchase_id)],
    ['予約日時', `${formatDateJa(r.created_at)} ${formatTimeJa(r.created_at)}`],
    ['クラス', r.class_work_title],
    ['開催日時', `${formatDateJa(r.schedule_started_at)} ${formatTimeJa(r.schedule_started_at)}`],
    ['購入者', `${r.buyer_nickname}さん${r.learner_nickname ? `（受講：${r.learner_nickname}さん）` : ''}`],
    ['金額（税込）', yen(r.price)],
    // A cancelled seat's refund gave the commission back too (0025).
    ['手数料', yen(r.status === 'reserved' ? r.commission : 0)],
    ['お受け取り額', yen(r.status === 'reserved' ? r.net : 0)],
    ['状態', salesStatusLabel(r, 'お支払い済み')],
  ]
  if (r.canceled_at)
    rows.push(['キャンセル日時', `${formatDateJa(r.canceled_at)} ${formatTimeJa(r.canceled_at)}`])
  return (
    <div className="mx-auto max-w-2xl px-4 py-8 print:p-0">
      <p className="text-sm print:hidden">
        <Link to="/sales_management" search={{ tab: 'sales' }} className="underline">
          売上管理
        </Link>
      </p>
      <article className="mt-4 rounded-2xl border border-slate-300 bg-white p-6" data-testid="receipt">
        <h1 className="text-center text-2xl font-black tracking-widest">領収書</h1>
        <p className="mt-4 text-right text-sm">
          発行者：{r.organization_name ? `${r.organization_name} ` : ''}
          {r.teacher_name}（{r.teacher_nickname}）
        </p>
        <p className="mt-6 text-center text-3xl font-black">{yen(r.price)}</p>
        <dl className="mt-6 divide-y divide-slate-200 border-y border-slate-200">
          {rows.map(([k, v]) => (
            <div key={k} className="grid grid-cols-[8rem_1fr] gap-2 py-2 text-sm">
              <dt className="font-bold text-slate-700">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-xs text-slate-700">まなびのたね を通じたオンラインクラスの受講料として。</p>
      </article>
      <button
        type="button"
        className="btn-primary mt-6 px-5 py-2 print:hidden"
        onClick={() => window.print()}
      >
        印刷する
      </button>
    </div>
  )
}
