import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { Link, useNavigate } from '@tanstack/react-router'
import { Suspense, useEffect, useId, useState } from 'react'
import { lazyPart } from '~/components/shell/lazy-part'
import { showErrorSnackbar, showSnackbar } from '~/components/shell/ui-store'
import { Field, inputClass } from '~/components/ui/form-parts'
import { ScheduleWhen } from '~/components/ui/schedule-when'
import type { Checkout } from '~/contract/v1/payments'
import { TestCardInput } from '~/contract/v1/payments'
import { fieldErrorsOf } from '~/lib/action-result'
import { formatPrice, formatTimeJa } from '~/lib/format'
import { giveUpCheckout, payWithCard } from './checkout.functions'
import { holdLeftMs } from './hold-left'
import { checkoutIsOver } from './outcome'
import { checkoutQuery } from './queries'

const StripeForm = lazyPart(() => import('./stripe-form'))

/** /checkout/{paymentId}: the confirmation step of a paid reservation (issue 17). */
export function CheckoutPage({ paymentId }: { paymentId: number }) {
  const { data, dataUpdatedAt } = useSuspenseQuery(checkoutQuery(paymentId))
  if (!data) return null
  const { checkout, stripeKey } = data
  const { purchase, payment } = checkout
  const state =
    payment.status === 'succeeded' && purchase.status === 'reserved'
      ? 'paid'
      : purchase.status === 'pending' && checkout.hold_expires_at
        ? 'paying'
        : 'ended'
  return (
    <div className="mx-auto max-w-2xl px-4 py-8">
      <h1 className="text-2xl font-black">{state === 'paid' ? 'お支払いが完了しました' : 'お支払い'}</h1>
      <Summary checkout={checkout} />
      {state === 'paid' ? (
        <Paid checkout={checkout} />
      ) : state === 'paying' ? (
        <Paying checkout={checkout} stripeKey={stripeKey} receivedAt={dataUpdatedAt} />
      ) : (
        <Ended checkout={checkout} />
      )}
    </div>
  )
}

function Summary({ checkout }: { checkout: Checkout }) {
  const { purchase, payment } = checkout
  const who =
    purchase.attendee.kind === 'member'
      ? `${purchase.attendee.nickname}（ご本人）`
      : purchase.attendee.nickname
  return (
    <section
      aria-labelledby="summary-heading"
      className="mt-6 rounded-2xl border border-slate-200 bg-white p-5"
    >
      <h2 id="summary-heading" className="sr-only">
        ご予約の内容
      </h2>
      <p className="text-lg font-bold">
        <Link
          to="/class_search/detail/$id"
          params={{ id: String(purchase.class_work.id) }}
          className="hover:underline"
        >
          {purchase.class_work.title}
        </Link>
      </p>
      <dl className="mt-3 grid grid-cols-[6rem_1fr] gap-x-3 gap-y-2 text-sm" data-testid="checkout-summary">
        <dt className="font-bold text-slate-700">日時</dt>
        <dd>
          <ScheduleWhen schedule={purchase.schedule} list="open" />
        </dd>
        <dt className="font-bold text-slate-700">先生</dt>
        <dd>{purchase.teacher.nickname}</dd>
        <dt className="font-bold text-slate-700">受講する人</dt>
        <dd>{who}</dd>
        <dt className="font-bold text-slate-700">料金</dt>
        <dd data-testid="checkout-price">
          <span className="text-xl font-black text-purple-dark">{formatPrice(payment.amount)}</span>
          <span className="ml-1">（税込）</span>
          <span className="block text-slate-700">うち消費税（10%） {formatPrice(payment.tax_amount)}</span>
        </dd>
      </dl>
      <p className="mt-4 rounded-xl bg-light-grey p-3 text-xs text-slate-700" data-testid="cancel-policy">
        {purchase.schedule.lessons.length > 1
          ? `キャンセルは第1回の授業開始の24時間前まで、全${purchase.schedule.lessons.length}回まとめてできます（全額返金）。それ以降のキャンセル・返金はできません。`
          : 'キャンセルは授業開始の24時間前までできます（全額返金）。それ以降のキャンセル・返金はできません。'}
        先生の都合で休講になった場合は全額返金します。
      </p>
    </section>
  )
}

/** Minutes and seconds left of the hold, counted in the browser only (the server renders the end time). */
/** The hold's countdown, from the server's clock (holdLeftMs); null until mounted, as the server renders no clock. */
function useRemaining(holdExpiresAt: string, serverNow: string, receivedAt: number) {
  const [left, setLeft] = useState<number | null>(null)
  useEffect(() => {
    const tick = () => setLeft(holdLeftMs({ holdExpiresAt, serverNow, receivedAt }, Date.now()))
    tick()
    const timer = setInterval(tick, 1000)
    return () => clearInterval(timer)
  }, [holdExpiresAt, serverNow, receivedAt])
  return left
}

function Paying({
  checkout,
  stripeKey,
  receivedAt,
}: {
  checkout: Checkout
  stripeKey: string | null
  /** When this device received the checkout (its query's dataUpdatedAt, on this device's clock). */
  receivedAt: number
}) {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const left = useRemaining(checkout.hold_expires_at!, checkout.now, receivedAt)
  const [giving, setGiving] = useState(false)
  // A payment in flight and giving up exclude each other: given up first, a charge that then succeeds would book
  // (or refund) a seat the parent was told they had let go.
  const [paying, setPaying] = useState(false)
  const paymentId = checkout.payment.id
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['checkout', paymentId] })
  const expired = left === 0

  // The hold ran out on this open page: read the checkout again (it now says the seat went back).
  useEffect(() => {
    if (expired) void queryClient.invalidateQueries({ queryKey: ['checkout', paymentId] })
  }, [expired, queryClient, paymentId])

  async function onGiveUp() {
    setGiving(true)
    try {
      const result = await giveUpCheckout({ data: { purchaseId: checkout.purchase.id } })
      if (!result.ok) {
        showErrorSnackbar(result.message)
        // Paid meanwhile (409 already_paid): the page shows the booking as it now stands.
        return await refresh()
      }
      showSnackbar({ message: '予約をとりやめました' })
      // The seat went back: the class page's panel (its held seats: no 「お支払い待ち」 left) and the lists.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['class-detail', checkout.purchase.class_work.id] }),
        queryClient.invalidateQueries({ queryKey: ['reservation-options'] }),
        queryClient.invalidateQueries({ queryKey: ['attendance'] }),
        queryClient.invalidateQueries({ queryKey: ['mypage'] }),
      ])
      await navigate({
        to: '/class_search/detail/$id',
        params: { id: String(checkout.purchase.class_work.id) },
      })
    } catch {
      showErrorSnackbar('とりやめられませんでした。時間をおいてもう一度お試しください')
    } finally {
      setGiving(false)
    }
  }

  // Time is up on this open page: no card form any more (the server gives the seat back on its own, or extends the
  // hold while Stripe confirms a payment: a reload then shows it).
  if (expired) return <Ended checkout={checkout} />
  return (
    <section
      aria-labelledby="pay-heading"
      className="mt-6 rounded-2xl border-2 border-purple-dark/30 bg-white p-5"
    >
      <h2 id="pay-heading" className="text-xl font-bold">
        お支払い方法
      </h2>
      <p className="mt-2 text-sm" data-testid="hold-notice">
        席を{formatTimeJa(checkout.hold_expires_at!)}まで確保しています
        {left !== null ? (
          <span className="ml-1 font-bold" aria-live="off">
            （あと{Math.floor(left / 60_000)}分{String(Math.floor((left % 60_000) / 1000)).padStart(2, '0')}
            秒）
          </span>
        ) : null}
        。時間内にお支払いがないと、予約は取り消されます。
      </p>
      {checkout.payment.failure ? (
        <p
          className="mt-3 rounded-xl bg-red-dark/10 p-3 text-sm font-bold text-red-dark"
          data-testid="payment-failure"
        >
          前回のお支払い：{checkout.payment.failure.message}
        </p>
      ) : null}
      {checkout.cards_paused ? (
        <p
          className="mt-4 rounded-xl bg-red-dark/10 p-3 text-sm font-bold text-red-dark"
          role="alert"
          data-testid="cards-paused"
        >
          カードのお支払いが続けてできなかったため、しばらくお支払いを受け付けていません。10分ほどおいてから、このページを再読み込みしてください。
        </p>
      ) : stripeKey && checkout.payment.provider === 'stripe' ? (
        <Suspense fallback={<p className="mt-4 text-sm">読み込み中…</p>}>
          <StripeForm
            checkout={checkout}
            publishableKey={stripeKey}
            onDone={refresh}
            blocked={giving}
            onPaying={setPaying}
          />
        </Suspense>
      ) : (
        <TestCardForm checkout={checkout} onDone={refresh} blocked={giving} onPaying={setPaying} />
      )}
      <div className="mt-4 border-t border-slate-100 pt-4">
        <button
          type="button"
          className="btn-ghost text-sm"
          onClick={onGiveUp}
          disabled={giving || paying}
          data-testid="give-up"
        >
          支払いをやめる（席を手放す）
        </button>
      </div>
    </section>
  )
}

/** The embedded test provider's card form: test numbers only, shown on our own page. */
/** What both payment forms get from the page: giving up is under way (no paying), and when a payment is in flight. */
export interface PayFormProps {
  checkout: Checkout
  onDone: () => Promise<void>
  blocked: boolean
  onPaying: (paying: boolean) => void
}

function TestCardForm({ checkout, onDone, blocked, onPaying }: PayFormProps) {
  const uid = useId()
  const f = (k: string) => `${uid}-${k}`
  const [number, setNumber] = useState('')
  const [expiry, setExpiry] = useState('')
  const [cvc, setCvc] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [refusal, setRefusal] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    setRefusal(null)
    const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(expiry)
    const card = {
      number,
      exp_month: m ? Number(m[1]) : Number.NaN,
      exp_year: m ? (m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2])) : Number.NaN,
      cvc: cvc.trim(),
    }
    const parsed = TestCardInput.safeParse(card)
    if (!parsed.success) {
      const next = fieldErrorsOf(parsed.error.issues)
      if (!m) next.exp_month = '有効期限を「月/年」（例：12/30）で入力してください'
      setErrors(next)
      return
    }
    setErrors({})
    setPending(true)
    onPaying(true)
    try {
      const result = await payWithCard({ data: { id: checkout.payment.id, card: parsed.data } })
      if (!result.ok) {
        setErrors(result.fieldErrors)
        setRefusal(result.message)
        if (checkoutIsOver(result.code)) await onDone()
        return
      }
      showSnackbar({ message: 'お支払いが完了しました' })
      await onDone()
    } catch {
      setRefusal('お支払いを完了できませんでした。時間をおいてもう一度お試しください')
    } finally {
      setPending(false)
      onPaying(false)
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-4 grid gap-4" data-testid="card-form">
      <div className="rounded-xl bg-base-light p-3 text-xs text-slate-800" data-testid="test-cards">
        <p className="font-bold">テスト決済です。実際のカードは使えず、請求もされません。</p>
        <ul className="mt-1 grid gap-0.5">
          <li>4242 4242 4242 4242 … 支払い成功</li>
          <li>4000 0000 0000 0002 … カードが承認されない</li>
          <li>4000 0000 0000 9995 … 残高不足</li>
        </ul>
        <p className="mt-1">有効期限は未来の月/年、セキュリティコードは任意の3桁です。</p>
      </div>
      <Field id={f('number')} label="カード番号" error={errors.number}>
        {(a) => (
          <input
            {...a}
            className={inputClass}
            inputMode="numeric"
            autoComplete="cc-number"
            placeholder="4242 4242 4242 4242"
            value={number}
            onChange={(e) => setNumber(e.target.value)}
            data-testid="card-number"
          />
        )}
      </Field>
      <div className="grid grid-cols-2 gap-4">
        <Field id={f('expiry')} label="有効期限（月/年）" error={errors.exp_month ?? errors.exp_year}>
          {(a) => (
            <input
              {...a}
              className={inputClass}
              inputMode="numeric"
              autoComplete="cc-exp"
              placeholder="12/30"
              value={expiry}
              onChange={(e) => setExpiry(e.target.value)}
              data-testid="card-expiry"
            />
          )}
        </Field>
        <Field id={f('cvc')} label="セキュリティコード" error={errors.cvc}>
          {(a) => (
            <input
              {...a}
              className={inputClass}
              inputMode="numeric"
              autoComplete="cc-csc"
              placeholder="123"
              value={cvc}
              onChange={(e) => setCvc(e.target.value)}
              data-testid="card-cvc"
            />
          )}
        </Field>
      </div>
      {refusal ? (
        <p
          className="rounded-xl bg-red-dark/10 p-3 text-sm font-bold text-red-dark"
          role="alert"
          data-testid="card-error"
        >
          {refusal}
        </p>
      ) : null}
      <button
        type="submit"
        className="btn-primary w-full"
        disabled={pending || blocked}
        data-testid="pay-button"
      >
        {pending ? 'お支払い中…' : `${formatPrice(checkout.payment.amount)}を支払う`}
      </button>
    </form>
  )
}

function Paid({ checkout }: { checkout: Checkout }) {
  return (
    <section className="mt-6 rounded-2xl bg-base-light p-5" role="status" data-testid="checkout-done">
      <p className="font-bold">予約が確定しました。領収書はメールでもお送りしています。</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Link
          to="/purchase_history/receipt/$id"
          params={{ id: String(checkout.payment.id) }}
          className="btn-primary"
          data-testid="to-receipt"
        >
          領収書を見る
        </Link>
        <Link to="/class_attendance" className="btn-outline">
          受講クラスを見る
        </Link>
      </div>
    </section>
  )
}

function Ended({ checkout }: { checkout: Checkout }) {
  const refunded = checkout.payment.refund
  return (
    <section className="mt-6 rounded-2xl bg-light-grey p-5" role="status" data-testid="checkout-ended">
      <p className="font-bold">
        {refunded
          ? `この予約は取り消され、${formatPrice(refunded.amount)}を返金${refunded.status === 'succeeded' ? 'しました' : 'します'}。`
          : checkout.purchase.schedule.is_canceled
            ? 'この日程は中止になったため、この予約は取り消されました。請求はありません。'
            : 'お支払いの期限が過ぎたか、予約をとりやめたため、この予約は取り消されました。請求はありません。'}
      </p>
      <Link
        to="/class_search/detail/$id"
        params={{ id: String(checkout.purchase.class_work.id) }}
        className="btn-outline mt-4 inline-flex"
      >
        クラスのページに戻る
      </Link>
    </section>
  )
}
