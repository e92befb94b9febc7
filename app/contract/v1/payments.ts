import { z } from 'zod'
import { luhnValid } from '../../lib/money'
import { DateTime, Id, line } from './common'
import { Purchase } from './purchases'

/** Checkout, receipts and refunds (issue 17; docs/decisions/0025). Amounts are yen, tax included. */

export const PaymentStatus = z.enum(['requires_payment', 'succeeded', 'canceled'])

/** A payment as its member sees it: on the checkout page, in 受講クラス and the purchase history. */
export const PaymentSummary = z.object({
  id: Id,
  status: PaymentStatus,
  provider: z.enum(['embedded', 'stripe']),
  amount: z.number().int().positive(),
  /** 消費税 (10 %) included in amount. */
  tax_amount: z.number().int().nonnegative(),
  /** The last refusal of a card, for the checkout page. */
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
  succeeded_at: DateTime.nullable(),
  /** Its refund, when there is one (always the whole amount). */
  refund: z
    .object({ amount: z.number().int().positive(), status: z.enum(['pending', 'succeeded']), at: DateTime })
    .nullable(),
})
export type PaymentSummary = z.infer<typeof PaymentSummary>

/** GET /v1/payments/{id}: what the checkout page needs. */
export const Checkout = z.object({
  payment: PaymentSummary,
  purchase: Purchase,
  /** Until when the seat is held for this payment (null once paid or given up). */
  hold_expires_at: DateTime.nullable(),
  /** The server's clock when it answered: the page counts the hold down from it, not from the device's clock. */
  now: DateTime,
  /** Stripe.js needs it to pay; null with the embedded provider (its card form posts to confirm). */
  client_secret: z.string().nullable(),
  /**
   * Too many cards were refused lately (the card-testing limit): no card may be tried for now, and with Stripe no
   * client secret is handed out.
   */
  cards_paused: z.boolean(),
})
export type Checkout = z.infer<typeof Checkout>

const cardNumber = z
  .string()
  .transform((v) => v.replace(/[\s-]/g, ''))
  .pipe(
    z
      .string()
      .regex(/^\d{12,19}$/, 'カード番号は数字で入力してください')
      .refine(luhnValid, 'カード番号が正しくありません'),
  )

/** A card for the embedded test provider (never a real card: Stripe's cards go to Stripe.js, not to us). */
export const TestCardInput = z
  .object({
    number: cardNumber,
    exp_month: z
      .number({ error: '有効期限（月）を入力してください' })
      .int()
      .min(1, '有効期限（月）は1〜12で入力してください')
      .max(12, '有効期限（月）は1〜12で入力してください'),
    exp_year: z
      .number({ error: '有効期限（年）を入力してください' })
      .int()
      .min(2000, '有効期限（年）を西暦4桁で入力してください')
      .max(2100, '有効期限（年）を西暦4桁で入力してください'),
    cvc: z.string().regex(/^\d{3,4}$/, 'セキュリティコードは3〜4桁の数字で入力してください'),
  })
  .strict()

/** POST /v1/payments/{id}/confirm: the test card (embedded provider), or nothing (Stripe.js has paid). */
export const ConfirmPaymentBody = z.object({ card: TestCardInput.optional() }).strict()
export type ConfirmPaymentBody = z.input<typeof ConfirmPaymentBody>

/** One line of the purchase history: a payment or a refund. */
export const HistoryItem = z.object({
  kind: z.enum(['payment', 'refund']),
  payment_id: Id,
  purchase_id: Id,
  at: DateTime,
  amount: z.number().int().positive(),
  status: z.enum(['succeeded', 'pending']),
  class_work: z.object({ id: Id, title: z.string() }),
  schedule_started_at: DateTime,
  lesson_count: z.number().int().min(1),
  attendee: z.string(),
})
export type HistoryItem = z.infer<typeof HistoryItem>

/** GET /v1/payments?month=YYYY-MM: the member's payments and refunds in a Tokyo month, newest first. */
export const PaymentHistory = z.object({
  month: z.string(),
  items: z.array(HistoryItem),
  totals: z.object({ paid: z.number().int().nonnegative(), refunded: z.number().int().nonnegative() }),
  /** Months that have anything, newest first (for the month picker). */
  months: z.array(z.string()),
})
export type PaymentHistory = z.infer<typeof PaymentHistory>

/** GET /v1/payments/{id}/receipt: a 領収書 (only for a payment that succeeded). */
export const PaymentReceipt = z.object({
  payment_id: Id,
  number: z.string(),
  issued_at: DateTime,
  /** 宛名: set once by the member; null until then. */
  name: z.string().nullable(),
  platform_name: z.string(),
  /** 適格請求書発行事業者登録番号, when the platform was registered as the payment went through. */
  registration_number: z.string().nullable(),
  item: z.object({
    class_title: z.string(),
    schedule_started_at: DateTime,
    lesson_count: z.number().int().min(1),
    attendee: z.string(),
  }),
  amount: z.number().int().positive(),
  tax_amount: z.number().int().nonnegative(),
  tax_rate_percent: z.literal(10),
  refunded_amount: z.number().int().nonnegative(),
})
export type PaymentReceipt = z.infer<typeof PaymentReceipt>

/** PUT /v1/payments/{id}/receipt/name: the 宛名, once. */
export const ReceiptNameBody = z.object({ name: line(60) }).strict()
export type ReceiptNameBody = z.input<typeof ReceiptNameBody>

// ── teachers: payouts and the bank account ──

export const PayoutLine = z.object({
  kind: z.enum(['payment', 'refund']),
  at: DateTime,
  purchase_id: Id,
  class_title: z.string(),
  amount: z.number().int().positive(),
  commission: z.number().int().nonnegative(),
})
export type PayoutLine = z.infer<typeof PayoutLine>

/**
 * GET /v1/teachers/payouts?month=YYYY-MM: payments that succeeded and refunds made in the month (Tokyo), for the
 * teacher's classes. net = (gross − commission) − (refunds − refunded commission); paid on transfer_date.
 */
export const PayoutStatement = z.object({
  month: z.string(),
  gross: z.number().int().nonnegative(),
  commission: z.number().int().nonnegative(),
  refunds: z.number().int().nonnegative(),
  refunded_commission: z.number().int().nonnegative(),
  /** The month's own result: gross − commission − (refunds − refunded commission); negative when refunds outweigh. */
  net: z.number().int(),
  /** What earlier months' negative results still owe (0 or negative), taken from this month's transfer. */
  carried_over: z.number().int().nonpositive(),
  /** What is transferred: max(0, net + carried_over); a negative remainder is carried to the next month. */
  transfer_amount: z.number().int().nonnegative(),
  payment_count: z.number().int().nonnegative(),
  refund_count: z.number().int().nonnegative(),
  transfer_date: z.iso.date(),
  lines: z.array(PayoutLine),
})
export type PayoutStatement = z.infer<typeof PayoutStatement>

export const accountTypes = { futsu: '普通', toza: '当座' } as const

/** GET /v1/teachers/bank_account: shown masked; null until the teacher sets one. */
export const BankAccount = z
  .object({
    bank_name: z.string(),
    branch_name: z.string(),
    account_type: z.enum(['futsu', 'toza']),
    number_masked: z.string(),
    /** null when the stored name can no longer be read (the key's secret changed): to be entered again. */
    holder_masked: z.string().nullable(),
    needs_reentry: z.boolean(),
    updated_at: DateTime,
  })
  .nullable()
export type BankAccount = z.infer<typeof BankAccount>

/** PUT /v1/teachers/bank_account */
export const BankAccountInput = z
  .object({
    bank_name: line(40),
    branch_name: line(40),
    account_type: z.enum(['futsu', 'toza'], { message: '口座の種類を選んでください' }),
    account_number: z.string().regex(/^\d{7}$/, '口座番号は7桁の数字で入力してください'),
    /** As the bank has it: full-width katakana. */
    holder_kana: line(60).regex(/^[ァ-ヶー（）．・　 ]+$/, '口座名義はカタカナで入力してください'),
  })
  .strict()
export type BankAccountInput = z.infer<typeof BankAccountInput>
