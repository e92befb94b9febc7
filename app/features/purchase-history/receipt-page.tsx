import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { useId, useState } from 'react'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { Field, inputClass } from '~/components/ui/form-parts'
import { Modal } from '~/components/ui/modal'
import type { PaymentReceipt } from '~/contract/v1/payments'
import { formatDateJa, formatPrice, formatTimeJa } from '~/lib/format'
import { setReceiptName } from './purchase-history.functions'
import { paymentReceiptQuery } from './queries'

/**
 * /purchase_history/receipt/{paymentId}: a printable 領収書 of a payment (issue 17) — the platform as issuer with its
 * invoice registration number, the date, the item, the amount with the consumption tax included, and the 宛名 the
 * member sets once.
 */
export function PaymentReceiptPage({ id }: { id: number }) {
  const r = useSuspenseQuery(paymentReceiptQuery(id)).data
  if (!r) return null
  const item = `${r.item.class_title}${r.item.lesson_count > 1 ? `（全${r.item.lesson_count}回）` : ''}`
  return (
    <div className="mx-auto max-w-2xl px-4 py-8 print:p-0">
      <p className="text-sm print:hidden">
        <Link to="/purchase_history" className="underline">
          購入履歴
        </Link>
      </p>
      <article
        className="mt-4 rounded-2xl border border-slate-300 bg-white p-6"
        data-testid="payment-receipt"
      >
        <h1 className="text-center text-2xl font-black tracking-widest">領収書</h1>
        <div className="mt-6 flex flex-wrap items-end justify-between gap-4">
          <p
            className="min-w-0 border-b-2 border-slate-800 pb-1 text-lg font-bold"
            data-testid="receipt-name"
          >
            {r.name ? `${r.name} 様` : '（宛名未記入）'}
          </p>
          <p className="text-right text-sm">
            No. {r.number}
            <br />
            発行日：{formatDateJa(r.issued_at)}
          </p>
        </div>
        <p className="mt-8 text-center text-3xl font-black" data-testid="receipt-amount">
          {formatPrice(r.amount)}
          <span className="ml-1 text-base font-bold">（税込）</span>
        </p>
        <p className="mt-2 text-center text-sm">上記正に領収いたしました</p>
        <dl className="mt-6 divide-y divide-slate-200 border-y border-slate-200 text-sm">
          <Row term="但し書き">{item} の受講料として</Row>
          <Row term="受講する人">{r.item.attendee}</Row>
          <Row term="授業日時">
            {formatDateJa(r.item.schedule_started_at)} {formatTimeJa(r.item.schedule_started_at)}〜
          </Row>
          <Row term="お支払い日時">
            {formatDateJa(r.issued_at)} {formatTimeJa(r.issued_at)}
          </Row>
          <Row term="内訳">
            10%対象 {formatPrice(r.amount)}（うち消費税 {formatPrice(r.tax_amount)}）
          </Row>
          {r.refunded_amount > 0 ? (
            <Row term="返金">
              <span className="font-bold text-red-dark" data-testid="receipt-refunded">
                {formatPrice(r.refunded_amount)} 返金済み
              </span>
            </Row>
          ) : null}
        </dl>
        <div className="mt-6 text-right text-sm" data-testid="receipt-issuer">
          <p className="font-bold">{r.platform_name}</p>
          <p>
            登録番号：
            {r.registration_number ?? '未登録（適格請求書発行事業者の登録番号はありません）'}
          </p>
        </div>
      </article>
      <div className="mt-6 flex flex-wrap gap-3 print:hidden">
        <button type="button" className="btn-primary px-5 py-2" onClick={() => window.print()}>
          印刷する
        </button>
        {r.name ? null : <NameForm receipt={r} />}
      </div>
    </div>
  )
}

function Row({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-2 py-2">
      <dt className="font-bold text-slate-700">{term}</dt>
      <dd>{children}</dd>
    </div>
  )
}

/** 宛名: written once (a receipt is not rewritten), after a confirmation. */
function NameForm({ receipt }: { receipt: PaymentReceipt }) {
  const uid = useId()
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [confirming, setConfirming] = useState(false)
  const [pending, setPending] = useState(false)

  async function save() {
    setPending(true)
    try {
      const result = await setReceiptName({ data: { id: receipt.payment_id, body: { name } } })
      if (!result.ok) {
        setError(result.fieldErrors.name ?? result.message)
        setConfirming(false)
        return
      }
      setConfirming(false)
      showSnackbar({ message: '宛名を設定しました' })
      await queryClient.invalidateQueries({ queryKey: ['purchase-history', 'receipt', receipt.payment_id] })
    } catch {
      showErrorSnackbar('宛名を設定できませんでした')
    } finally {
      setPending(false)
    }
  }

  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault()
        if (name.trim() === '') return setError('宛名を入力してください')
        setError(undefined)
        setConfirming(true)
      }}
      data-testid="receipt-name-form"
    >
      <Field id={`${uid}-name`} label="宛名（一度だけ設定できます）" error={error}>
        {(a) => (
          <input
            {...a}
            className={inputClass}
            value={name}
            maxLength={60}
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <button type="submit" className="btn-outline px-4 py-2">
        宛名を設定
      </button>
      <Modal
        open={confirming}
        onOpenChange={setConfirming}
        title="この宛名で設定しますか？"
        message={`「${name.trim()} 様」で領収書を発行します。あとから変更はできません。`}
        testId="receipt-name-confirm"
        buttons={[
          { text: 'やめる', color: 'ghost', onClick: () => setConfirming(false), disable: pending },
          { text: '設定する', color: 'primary', onClick: save, disable: pending },
        ]}
      />
    </form>
  )
}
