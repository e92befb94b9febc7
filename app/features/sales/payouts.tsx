import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { Field, inputClass } from '~/components/ui/form-parts'
import { ScrollRegion } from '~/components/ui/scroll-region'
import { accountTypes, BankAccountInput } from '~/contract/v1/payments'
import { fieldErrorsOf } from '~/lib/action-result'
import { formatDateJa, formatTimeJa, groupDigits } from '~/lib/format'
import { formatMonthJa, shiftMonth } from '~/lib/month'
import { bankAccountQuery, payoutsQuery } from './queries'
import { saveBankAccount } from './sales.functions'

const yen = (n: number) => `¥${groupDigits(n)}`
const signedYen = (n: number) => (n < 0 ? `−${yen(-n)}` : yen(n))

/**
 * 振込明細 (issue 17): what moved money in a month for the teacher's classes — payments taken, refunds made (the
 * commission comes back with them) — and the transfer on the last day of the following month; then the account.
 */
export function Payouts({ month }: { month?: string }) {
  const statement = useSuspenseQuery(payoutsQuery(month)).data
  if (!statement) return null
  const prev = shiftMonth(statement.month, -1)
  const next = shiftMonth(statement.month, 1)
  const figures: [string, string][] = [
    ['売上（税込）', yen(statement.gross)],
    ['手数料', `−${yen(statement.commission)}`],
    ['返金', `−${yen(statement.refunds)}`],
    ['返金分の手数料', `+${yen(statement.refunded_commission)}`],
    ['差引', signedYen(statement.net)],
    ...(statement.carried_over < 0
      ? ([['前月までの繰越', signedYen(statement.carried_over)]] as [string, string][])
      : []),
    ['振込額', yen(statement.transfer_amount)],
  ]
  // What this month could not pay back goes on to the next month's transfer.
  const owed = statement.net + statement.carried_over
  return (
    <>
      <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Link
            to="/sales_management"
            search={{ tab: 'payouts', month: prev }}
            className="btn-outline px-3 py-1"
            aria-label={`前の月（${formatMonthJa(prev)}）`}
          >
            ‹
          </Link>
          <h2 className="text-xl font-bold" data-testid="payout-month">
            {formatMonthJa(statement.month)}
          </h2>
          <Link
            to="/sales_management"
            search={{ tab: 'payouts', month: next }}
            className="btn-outline px-3 py-1"
            aria-label={`次の月（${formatMonthJa(next)}）`}
          >
            ›
          </Link>
        </div>
        <a
          href={`/downloads/payouts.csv?month=${statement.month}`}
          download
          className="btn-outline px-4 py-2"
          data-testid="payout-csv"
        >
          明細CSVをダウンロード
        </a>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="payout-figures">
        {figures.map(([k, v]) => (
          <div key={k} className="rounded-xl bg-base-light p-3">
            <dt className="text-xs text-slate-700">{k}</dt>
            <dd className="text-lg font-bold">{v}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-2 text-sm" data-testid="payout-transfer">
        振込予定日：
        <span className="font-bold">{formatDateJa(`${statement.transfer_date}T00:00:00+09:00`)}</span>（
        {statement.payment_count}件のお支払い、{statement.refund_count}件の返金）
      </p>
      {owed < 0 ? (
        <p className="mt-2 text-sm font-bold text-red-dark" data-testid="payout-carry">
          {statement.net < 0 ? '返金が売上を上回ったため' : '前月までの繰越を差し引いたため'}
          、この月の振込はありません。{yen(-owed)}は翌月以降の振込額から差し引きます。
        </p>
      ) : null}
      <p className="mt-1 text-xs text-slate-700">
        お支払いが完了した日、返金した日で月ごとに集計し、翌月末にご登録の口座へ振り込みます。
      </p>
      {statement.lines.length === 0 ? (
        <p className="mt-6 text-slate-700">この月のお支払い・返金はありません。</p>
      ) : (
        <ScrollRegion label="振込明細" className="mt-6">
          <table className="w-full min-w-[36rem] text-left text-sm" data-testid="payout-lines">
            <thead>
              <tr className="border-b border-slate-200">
                <th scope="col" className="py-2 pr-3">
                  日時
                </th>
                <th scope="col" className="py-2 pr-3">
                  内容
                </th>
                <th scope="col" className="py-2 pr-3">
                  クラス
                </th>
                <th scope="col" className="py-2 pr-3 text-right">
                  金額
                </th>
                <th scope="col" className="py-2 text-right">
                  手数料
                </th>
              </tr>
            </thead>
            <tbody>
              {statement.lines.map((l) => (
                <tr key={`${l.kind}-${l.purchase_id}`} className="border-b border-slate-100">
                  <td className="py-2 pr-3">
                    {formatDateJa(l.at)} {formatTimeJa(l.at)}
                  </td>
                  <td className="py-2 pr-3">{l.kind === 'payment' ? 'お支払い' : '返金'}</td>
                  <td className="py-2 pr-3">{l.class_title}</td>
                  <td className={`py-2 pr-3 text-right ${l.kind === 'refund' ? 'text-red-dark' : ''}`}>
                    {l.kind === 'refund' ? '−' : ''}
                    {yen(l.amount)}
                  </td>
                  <td className="py-2 text-right">
                    {l.kind === 'refund' ? '+' : '−'}
                    {yen(l.commission)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <BankAccountSection />
    </>
  )
}

/** 振込先口座: shown masked; replaced as a whole (the number and holder are stored encrypted). */
function BankAccountSection() {
  const account = useSuspenseQuery(bankAccountQuery()).data
  const [editing, setEditing] = useState(false)
  return (
    <section
      aria-labelledby="bank-heading"
      className="mt-10 rounded-2xl border border-slate-200 bg-white p-5"
    >
      <h2 id="bank-heading" className="text-lg font-bold">
        振込先口座
      </h2>
      {account && !editing ? (
        <>
          <dl className="mt-3 grid grid-cols-[6rem_1fr] gap-y-1 text-sm" data-testid="bank-account">
            <dt className="font-bold text-slate-700">金融機関</dt>
            <dd>
              {account.bank_name} {account.branch_name}
            </dd>
            <dt className="font-bold text-slate-700">口座</dt>
            <dd>
              {accountTypes[account.account_type]} {account.number_masked}
            </dd>
            <dt className="font-bold text-slate-700">名義</dt>
            <dd>{account.holder_masked ?? '—'}</dd>
          </dl>
          {account.needs_reentry ? (
            <p
              role="alert"
              className="mt-3 text-sm font-bold text-red-700"
              data-testid="bank-account-reentry"
            >
              口座情報を読み取れなくなりました。お手数ですが、口座を登録し直してください
            </p>
          ) : null}
          <button type="button" className="btn-outline mt-4 px-4 py-2" onClick={() => setEditing(true)}>
            口座を変更する
          </button>
        </>
      ) : (
        <BankAccountForm onDone={() => setEditing(false)} hasAccount={Boolean(account)} />
      )}
    </section>
  )
}

function BankAccountForm({ onDone, hasAccount }: { onDone: () => void; hasAccount: boolean }) {
  const uid = useId()
  const f = (k: string) => `${uid}-${k}`
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState({
    bank_name: '',
    branch_name: '',
    account_type: 'futsu' as 'futsu' | 'toza',
    account_number: '',
    holder_kana: '',
  })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [pending, setPending] = useState(false)
  const set = (k: keyof typeof draft, v: string) => setDraft((d) => ({ ...d, [k]: v }))

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    const parsed = BankAccountInput.safeParse(draft)
    if (!parsed.success) {
      setErrors(fieldErrorsOf(parsed.error.issues))
      return
    }
    setErrors({})
    setPending(true)
    try {
      const result = await saveBankAccount({ data: parsed.data })
      if (!result.ok) {
        setErrors(result.fieldErrors)
        showErrorSnackbar(result.message)
        return
      }
      await queryClient.invalidateQueries({ queryKey: ['sales', 'bank-account'] })
      showSnackbar({ message: '振込先口座を登録しました' })
      onDone()
    } catch {
      showErrorSnackbar('振込先口座を登録できませんでした')
    } finally {
      setPending(false)
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-3 grid gap-4 sm:grid-cols-2" data-testid="bank-form">
      <Field id={f('bank')} label="金融機関名" error={errors.bank_name}>
        {(a) => (
          <input
            {...a}
            className={inputClass}
            value={draft.bank_name}
            onChange={(e) => set('bank_name', e.target.value)}
          />
        )}
      </Field>
      <Field id={f('branch')} label="支店名" error={errors.branch_name}>
        {(a) => (
          <input
            {...a}
            className={inputClass}
            value={draft.branch_name}
            onChange={(e) => set('branch_name', e.target.value)}
          />
        )}
      </Field>
      <Field id={f('type')} label="口座の種類" error={errors.account_type}>
        {(a) => (
          <select
            {...a}
            className={inputClass}
            value={draft.account_type}
            onChange={(e) => set('account_type', e.target.value)}
          >
            <option value="futsu">普通</option>
            <option value="toza">当座</option>
          </select>
        )}
      </Field>
      <Field id={f('number')} label="口座番号（7桁）" error={errors.account_number}>
        {(a) => (
          <input
            {...a}
            className={inputClass}
            inputMode="numeric"
            autoComplete="off"
            value={draft.account_number}
            onChange={(e) => set('account_number', e.target.value)}
          />
        )}
      </Field>
      <div className="sm:col-span-2">
        <Field
          id={f('holder')}
          label="口座名義（カタカナ）"
          error={errors.holder_kana}
          hint="例：スズキ ミサキ"
        >
          {(a) => (
            <input
              {...a}
              className={inputClass}
              autoComplete="off"
              value={draft.holder_kana}
              onChange={(e) => set('holder_kana', e.target.value)}
            />
          )}
        </Field>
      </div>
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <button type="submit" className="btn-primary px-5 py-2" disabled={pending} data-testid="bank-save">
          {pending ? '保存中…' : '登録する'}
        </button>
        {hasAccount ? (
          <button type="button" className="btn-ghost" onClick={onDone}>
            やめる
          </button>
        ) : null}
      </div>
      <p className="text-xs text-slate-700 sm:col-span-2">
        口座番号と名義は暗号化して保存し、画面には一部だけを表示します。
      </p>
    </form>
  )
}
