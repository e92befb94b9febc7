import { randomUUID } from 'node:crypto'

/**
 * Where reservations are paid (PRODUCT.md "Money"). The purchase model never depends on the provider:
 * a card provider added later implements this interface and nothing else changes.
 */
export interface PaymentProvider {
  readonly name: string
  /** Takes the payment for a reservation; throws to refuse (the reservation is then not made). */
  charge(input: ChargeInput): Promise<PaymentResult>
  /** Refunds a reservation in full. */
  refund(input: RefundInput): Promise<PaymentResult>
}

export interface ChargeInput {
  userId: number
  scheduleId: number
  /** Yen, integer; a free class (0) is never charged. */
  amount: number
  description: string
}

export interface RefundInput {
  purchaseId: number
  userId: number
  amount: number
}

export interface PaymentResult {
  status: 'settled'
  reference: string
}

/** The embedded default (demo): every payment settles at once and nothing leaves the server. */
export const embeddedPaymentProvider: PaymentProvider = {
  name: 'embedded',
  charge: async () => ({ status: 'settled', reference: `demo_${randomUUID()}` }),
  refund: async () => ({ status: 'settled', reference: `demo_refund_${randomUUID()}` }),
}

/** Thrown by a provider that declined; the API answers 402 with the provider's message. */
export class PaymentDeclinedError extends Error {
  override name = 'PaymentDeclinedError'
}
