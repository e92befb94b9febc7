import type { Stripe, StripeElements } from '@stripe/stripe-js'
import { useEffect, useRef, useState } from 'react'
import { showSnackbar } from '~/components/shell/ui-store'
import { formatPrice } from '~/lib/format'
import { confirmStripePayment } from './checkout.functions'
import type { PayFormProps } from './checkout-page'

/**
 * Pays with Stripe's Payment Element (only when Stripe is configured; loaded on this page alone). The card goes from
 * the browser to Stripe, never to our server; we then read the outcome on the server, and the signed webhook settles
 * it too if this page is closed first.
 */
export default function StripeForm({
  checkout,
  publishableKey,
  onDone,
  blocked,
  onPaying,
}: PayFormProps & { publishableKey: string }) {
  const mount = useRef<HTMLDivElement>(null)
  const [stripe, setStripe] = useState<{ stripe: Stripe; elements: StripeElements } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [pending, setPending] = useState(false)

  useEffect(() => {
    let cancelled = false
    const secret = checkout.client_secret
    if (!secret) return
    void import('@stripe/stripe-js').then(async ({ loadStripe }) => {
      const s = await loadStripe(publishableKey, { locale: 'ja' })
      if (!s || cancelled || !mount.current) return
      const elements = s.elements({ clientSecret: secret })
      elements.create('payment').mount(mount.current)
      setStripe({ stripe: s, elements })
    })
    return () => {
      cancelled = true
    }
  }, [checkout.client_secret, publishableKey])

  async function onSubmit(e: React.FormEvent) {
    e.preventDefault()
    if (!stripe || blocked) return
    setPending(true)
    onPaying(true)
    setError(null)
    // Still confirming at Stripe: the seat is not given up from this page meanwhile (the money may still come).
    let confirming = false
    try {
      const { error: refused } = await stripe.stripe.confirmPayment({
        elements: stripe.elements,
        redirect: 'if_required',
        confirmParams: { return_url: window.location.href },
      })
      if (refused) {
        setError(refused.message ?? 'お支払いができませんでした。別のカードをお試しください')
        return
      }
      const result = await confirmStripePayment({ data: { id: checkout.payment.id } })
      // Settled by our server: the money came after the seat was gone (refunded in full), or the seat was cancelled.
      // Not an ended hold: Stripe may still be processing money it took, and the webhook settles that.
      if (!result.ok && (result.code === 'refunded_no_seat' || result.code === 'already_canceled')) {
        setError(result.message)
        await onDone()
        return
      }
      if (!result.ok) {
        // Stripe took the card; our server could not read it yet (a limit, a hiccup): the money may be taken, so
        // the seat is not given up from here, and the webhook settles it.
        confirming = true
        setError('お支払いを確認しています。しばらくしてからこのページを再読み込みしてください')
        return
      }
      // Stripe may still be confirming (a bank's check): only a settled payment is announced as paid.
      if (result.data.payment.status === 'succeeded') showSnackbar({ message: 'お支払いが完了しました' })
      else {
        confirming = true
        setError('お支払いを確認しています。しばらくしてからこのページを再読み込みしてください')
      }
      await onDone()
    } catch {
      // Stripe may have taken the payment already; the webhook settles it even if this page cannot.
      confirming = true
      setError('お支払いの結果を確認できませんでした。しばらくしてからこのページを再読み込みしてください')
    } finally {
      setPending(false)
      onPaying(confirming)
    }
  }

  return (
    <form onSubmit={onSubmit} className="mt-4 grid gap-4" data-testid="stripe-form">
      {checkout.client_secret ? (
        <div ref={mount} />
      ) : (
        <p className="text-sm text-red-dark">
          決済サービスに接続できませんでした。ページを再読み込みしてください。
        </p>
      )}
      {error ? (
        <p className="rounded-xl bg-red-dark/10 p-3 text-sm font-bold text-red-dark" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="btn-primary w-full" disabled={!stripe || pending || blocked}>
        {pending ? 'お支払い中…' : `${formatPrice(checkout.payment.amount)}を支払う`}
      </button>
    </form>
  )
}
