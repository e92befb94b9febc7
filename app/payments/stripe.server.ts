import '@tanstack/react-start/server-only'
import Stripe from 'stripe'
import {
  declineMessage,
  PaymentDeclinedError,
  type PaymentProvider,
  PaymentProviderError,
  type PaymentState,
  type ProviderEvent,
  type RefundState,
  WebhookSignatureError,
} from './provider.server'

export interface StripeSettings {
  secretKey: string
  webhookSecret: string
  /** Another API host (a local stub in tests): nothing else changes. */
  api?: { host: string; port: number; protocol: 'http' | 'https' }
}

/**
 * The Stripe adapter (issue 17): Payment Intents in yen. The browser pays with Stripe.js (the card never reaches
 * our server); we create the intent, read its outcome, cancel it when the hold ends, refund it, and learn of it from
 * signed webhooks. Every write carries an idempotency key derived from our own row.
 */
export function stripePaymentProvider(settings: StripeSettings): PaymentProvider {
  const stripe = new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    telemetry: false,
    ...(settings.api ?? {}),
  })

  const toState = (pi: Stripe.PaymentIntent): PaymentState => {
    const failure = pi.last_payment_error
      ? {
          code: pi.last_payment_error.decline_code ?? pi.last_payment_error.code ?? 'card_declined',
          message: declineMessage(pi.last_payment_error.decline_code ?? pi.last_payment_error.code ?? ''),
        }
      : undefined
    switch (pi.status) {
      case 'succeeded':
        return { status: 'succeeded' }
      case 'canceled':
        return { status: 'canceled' }
      case 'processing':
        return { status: 'processing' }
      default:
        return { status: 'requires_payment', clientSecret: pi.client_secret, ...(failure ? { failure } : {}) }
    }
  }

  /** Stripe's own errors become ours: a refusal stays a refusal, the rest is the provider's fault. */
  async function call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError)
        throw new PaymentDeclinedError(err.decline_code ?? err.code ?? 'card_declined')
      throw new PaymentProviderError(err instanceof Error ? err.message : String(err))
    }
  }

  return {
    name: 'stripe',

    createPayment: (input) =>
      call(async () => {
        const pi = await stripe.paymentIntents.create(
          {
            amount: input.amount,
            currency: 'jpy',
            description: input.description,
            metadata: input.metadata,
            // Cards only: a method paid later (コンビニ, a bank transfer) cannot finish within the 10-minute hold,
            // and its money would arrive after the seat went to someone else.
            allowed_payment_method_types: ['card'],
          },
          { idempotencyKey: input.idempotencyKey },
        )
        return { ref: pi.id, clientSecret: pi.client_secret }
      }),

    async confirm(ref) {
      const state = await call(async () => toState(await stripe.paymentIntents.retrieve(ref)))
      if (state.status === 'requires_payment' && state.failure)
        throw new PaymentDeclinedError(state.failure.code)
      return state
    },

    retrieve: (ref) => call(async () => toState(await stripe.paymentIntents.retrieve(ref))),

    async cancel(ref) {
      await call(async () => {
        const pi = await stripe.paymentIntents.retrieve(ref)
        if (pi.status === 'succeeded' || pi.status === 'canceled' || pi.status === 'processing') return
        await stripe.paymentIntents.cancel(ref, {}, { idempotencyKey: `cancel-${ref}` })
      })
    },

    refund: ({ ref, amount, idempotencyKey }) =>
      call(async () =>
        toRefundState(await stripe.refunds.create({ payment_intent: ref, amount }, { idempotencyKey })),
      ),

    retrieveRefund: (ref) => call(async () => toRefundState(await stripe.refunds.retrieve(ref))),

    verifyWebhook(rawBody, signature): ProviderEvent {
      if (!signature) throw new WebhookSignatureError('no Stripe-Signature header')
      let event: Stripe.Event
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret)
      } catch (err) {
        throw new WebhookSignatureError(err instanceof Error ? err.message : 'bad signature')
      }
      const object = event.data.object as { id?: string; object?: string }
      const type =
        event.type === 'payment_intent.succeeded'
          ? 'payment_succeeded'
          : event.type === 'payment_intent.payment_failed'
            ? 'payment_failed'
            : event.type === 'payment_intent.canceled'
              ? 'payment_canceled'
              : undefined
      if (type && object.object === 'payment_intent' && object.id)
        return { id: event.id, type, ref: object.id }
      return { id: event.id, type: 'other', name: event.type }
    },
  }
}

/** Stripe answers a refund it cannot pay yet (a balance too low) as pending, not as an error. */
function toRefundState(refund: Stripe.Refund): RefundState {
  const status =
    refund.status === 'succeeded'
      ? 'succeeded'
      : refund.status === 'failed' || refund.status === 'canceled'
        ? 'failed'
        : 'pending'
  return { ref: refund.id, status }
}
