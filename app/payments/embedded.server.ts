import '@tanstack/react-start/server-only'
import { randomBytes } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { embeddedPayments, embeddedRefunds } from '../db/schema'
import {
  PaymentDeclinedError,
  type PaymentProvider,
  PaymentProviderError,
  type PaymentState,
  WebhookSignatureError,
} from './provider.server'

/**
 * The embedded test provider (the default: no configuration, no network). It behaves like a card company in test
 * mode: the member types a test card on our checkout page, and these numbers decide the outcome —
 *
 *   4242 4242 4242 4242  paid
 *   4000 0000 0000 0002  card_declined
 *   4000 0000 0000 9995  insufficient_funds
 *
 * (any other number that passes the Luhn check is paid too, as in Stripe's test mode). Its books — payments and
 * refunds — are tables of their own, keyed by the caller's idempotency keys, so a repeated call after a crash has
 * one effect, exactly as with a real provider.
 */

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const

const DECLINES: Record<string, string> = {
  [TEST_CARDS.declined]: 'card_declined',
  [TEST_CARDS.insufficientFunds]: 'insufficient_funds',
}

const newRef = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`

export function embeddedPaymentProvider(getDb: () => Promise<Db>): PaymentProvider {
  async function state(ref: string): Promise<PaymentState> {
    const db = await getDb()
    const [row] = await db
      .select({ status: embeddedPayments.status })
      .from(embeddedPayments)
      .where(eq(embeddedPayments.ref, ref))
    if (!row) throw new PaymentProviderError(`no such payment: ${ref}`)
    return { status: row.status as PaymentState['status'] }
  }

  return {
    name: 'embedded',

    async createPayment(input) {
      const db = await getDb()
      await db
        .insert(embeddedPayments)
        .values({
          ref: newRef('emb_pi'),
          amount: input.amount,
          status: 'requires_payment',
          description: input.description,
          idempotencyKey: input.idempotencyKey,
        })
        .onConflictDoNothing({ target: embeddedPayments.idempotencyKey })
      const [row] = await db
        .select({ ref: embeddedPayments.ref })
        .from(embeddedPayments)
        .where(eq(embeddedPayments.idempotencyKey, input.idempotencyKey))
      return { ref: row!.ref, clientSecret: null }
    },

    async confirm(ref, { card, now }) {
      if (!card) throw new PaymentDeclinedError('card_declined')
      const number = card.number.replace(/\D/g, '')
      const decline = DECLINES[number]
      if (decline) throw new PaymentDeclinedError(decline)
      const month = new Date(Date.UTC(card.exp_year, card.exp_month, 1))
      if (month.getTime() <= now.getTime()) throw new PaymentDeclinedError('expired_card')
      const db = await getDb()
      // One payment is paid once: a second confirmation (a double tap) finds it paid and charges nothing.
      const [paid] = await db
        .update(embeddedPayments)
        .set({ status: 'succeeded', cardLast4: number.slice(-4), succeededAt: now })
        .where(and(eq(embeddedPayments.ref, ref), eq(embeddedPayments.status, 'requires_payment')))
        .returning({ ref: embeddedPayments.ref })
      if (paid) return { status: 'succeeded' }
      const current = await state(ref)
      if (current.status === 'canceled') throw new PaymentDeclinedError('payment_canceled')
      return current
    },

    retrieve: state,

    async cancel(ref) {
      const db = await getDb()
      await db
        .update(embeddedPayments)
        .set({ status: 'canceled' })
        .where(and(eq(embeddedPayments.ref, ref), eq(embeddedPayments.status, 'requires_payment')))
    },

    async refund({ ref, amount, idempotencyKey }) {
      const db = await getDb()
      return db.transaction(async (tx) => {
        const [payment] = await tx
          .select({ amount: embeddedPayments.amount, status: embeddedPayments.status })
          .from(embeddedPayments)
          .where(eq(embeddedPayments.ref, ref))
          .for('update')
        if (!payment) throw new PaymentProviderError(`no such payment: ${ref}`)
        const [done] = await tx
          .select({ ref: embeddedRefunds.ref })
          .from(embeddedRefunds)
          .where(eq(embeddedRefunds.idempotencyKey, idempotencyKey))
        if (done) return { ref: done.ref, status: 'succeeded' as const }
        if (payment.status !== 'succeeded') throw new PaymentProviderError(`payment ${ref} is not paid`)
        const [refunded] = await tx
          .select({ total: sql<number>`coalesce(sum(${embeddedRefunds.amount}), 0)::int` })
          .from(embeddedRefunds)
          .where(eq(embeddedRefunds.paymentRef, ref))
        if (Number(refunded?.total ?? 0) + amount > payment.amount)
          throw new PaymentProviderError(`refund of ${amount} exceeds what is left of payment ${ref}`)
        const refundRef = newRef('emb_re')
        await tx.insert(embeddedRefunds).values({ idempotencyKey, ref: refundRef, paymentRef: ref, amount })
        return { ref: refundRef, status: 'succeeded' as const }
      })
    },

    async retrieveRefund(ref) {
      const db = await getDb()
      const [done] = await db
        .select({ ref: embeddedRefunds.ref })
        .from(embeddedRefunds)
        .where(eq(embeddedRefunds.ref, ref))
      if (!done) throw new PaymentProviderError(`no such refund: ${ref}`)
      return { ref: done.ref, status: 'succeeded' as const }
    },

    verifyWebhook() {
      throw new WebhookSignatureError('the embedded provider sends no webhooks')
    },
  }
}
