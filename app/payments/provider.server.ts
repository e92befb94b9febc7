import '@tanstack/react-start/server-only'

/**
 * Where paid reservations are paid (issue 17, docs/decisions/0025). One interface for the embedded test provider
 * (test cards on our own page, its books in our database, no network) and the Stripe adapter (Payment Intents);
 * the purchase model never depends on which one is configured.
 *
 * Every call that moves money takes an idempotency key derived from our own row (payment or refund id): a call
 * repeated after a crash or a timeout has its effect once at the provider.
 */
export interface PaymentProvider {
  readonly name: 'embedded' | 'stripe'
  /** A payment waiting to be paid; `clientSecret` is what the browser needs to pay it (Stripe.js), if anything. */
  createPayment(input: CreatePaymentInput): Promise<{ ref: string; clientSecret: string | null }>
  /**
   * Pays it. The embedded provider charges the test card given here; with Stripe the browser has confirmed the
   * payment through Stripe.js and this reads the outcome. A refused card throws PaymentDeclinedError.
   */
  confirm(ref: string, input: { card?: TestCard; now: Date }): Promise<PaymentState>
  /** What the provider knows of the payment now (reconciliation, the end of a hold). */
  retrieve(ref: string): Promise<PaymentState>
  /** Gives up a payment that was not paid (the hold ended); a paid one is left as it is. */
  cancel(ref: string): Promise<void>
  /**
   * Refunds the whole payment. `pending`: the provider accepted it but has not paid it back yet (Stripe: a balance
   * too low, a bank that answers later); `failed`: it will not pay it back. The same idempotency key is the same
   * refund (a repeat after a crash); a refused one is asked for again under a new key (`refundKey`).
   */
  refund(input: { ref: string; amount: number; idempotencyKey: string }): Promise<RefundState>
  /** What became of a refund made earlier (its `ref`): a pending one is asked after, not made again. */
  retrieveRefund(ref: string): Promise<RefundState>
  /** A webhook request, checked against its signature; throws WebhookSignatureError when it does not verify. */
  verifyWebhook(rawBody: string, signature: string | undefined): ProviderEvent
}

export interface RefundState {
  ref: string
  status: 'succeeded' | 'pending' | 'failed'
}

export interface CreatePaymentInput {
  /** Yen, tax included. */
  amount: number
  description: string
  /** Ours, for the provider's dashboard: the payment and purchase ids. */
  metadata: Record<string, string>
  idempotencyKey: string
}

export interface TestCard {
  number: string
  exp_month: number
  exp_year: number
  cvc: string
}

export interface PaymentState {
  status: 'requires_payment' | 'processing' | 'succeeded' | 'canceled'
  /** The last refusal, when the provider reports one. */
  failure?: { code: string; message: string }
  /** What the browser needs to pay it (Stripe.js), while it is unpaid. */
  clientSecret?: string | null
}

export type ProviderEvent =
  | { id: string; type: 'payment_succeeded' | 'payment_failed' | 'payment_canceled'; ref: string }
  | { id: string; type: 'other'; name: string }

/** Japanese texts of the refusals a member can meet, by the provider's code. */
export const DECLINE_MESSAGES: Record<string, string> = {
  card_declined: 'カードが承認されませんでした。別のカードをお試しください',
  insufficient_funds: 'カードの残高が不足しています。別のカードをお試しください',
  expired_card: 'カードの有効期限が切れています。別のカードをお試しください',
  incorrect_cvc: 'セキュリティコードが正しくありません',
  processing_error: 'カード会社で処理できませんでした。時間をおいてもう一度お試しください',
  payment_canceled: 'お支払いの期限が過ぎました。もう一度予約してください',
}

export const declineMessage = (code: string) =>
  DECLINE_MESSAGES[code] ?? 'お支払いができませんでした。別のカードをお試しください'

/** The provider refused the payment; `code` is stable (card_declined, insufficient_funds…). */
export class PaymentDeclinedError extends Error {
  override name = 'PaymentDeclinedError'
  constructor(
    readonly code: string,
    message = declineMessage(code),
  ) {
    super(message)
  }
}

export class WebhookSignatureError extends Error {
  override name = 'WebhookSignatureError'
}

/** The provider could not be reached or answered with an error of its own (not a refusal). */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError'
}
