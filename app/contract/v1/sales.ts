import { z } from 'zod'
import { MONTH } from '../../lib/month'
import { DateTime, Id } from './common'

/** A Tokyo calendar month, YYYY-MM. */
export const Month = z.string().regex(MONTH, '月は YYYY-MM の形式で指定してください')
export const MonthQuery = z.object({ month: Month.optional() })

const Yen = z.number().int()
const Count = z.number().int().nonnegative()

/** Money of a set of purchases. Canceled reservations are not sales: they count as refunds. */
export const SalesFigures = z.object({
  gross: Yen,
  commission: Yen,
  net: Yen,
  count: Count,
  refund_count: Count,
  refunded_amount: Yen,
})
export type SalesFigures = z.infer<typeof SalesFigures>

export const SalesLine = z.object({
  purchase_id: Id,
  created_at: DateTime,
  class_work_id: Id,
  class_work_title: z.string(),
  schedule_started_at: DateTime,
  buyer_nickname: z.string(),
  learner_nickname: z.string().nullable(),
  price: Yen,
  commission: Yen,
  net: Yen,
  status: z.enum(['reserved', 'canceled_by_user', 'canceled_by_teacher']),
  canceled_at: DateTime.nullable(),
  /**
   * The money of a cancelled seat: refunded (paid back), pending (paid, the refund not yet through at the
   * provider), or none (nothing was paid: a free class; and every reserved seat).
   */
  refund: z.enum(['none', 'pending', 'refunded']),
})
export type SalesLine = z.infer<typeof SalesLine>

/** GET /v1/teachers/sales?month=YYYY-MM: the month of the reservation (Asia/Tokyo). */
export const SalesReport = z.object({
  month: Month,
  totals: SalesFigures,
  by_class: z.array(SalesFigures.extend({ class_work_id: Id, title: z.string() })),
  purchases: z.array(SalesLine),
})
export type SalesReport = z.infer<typeof SalesReport>

/** GET /v1/teachers/sales/purchases/{id}: a receipt for one purchase of the teacher's class. */
export const Receipt = SalesLine.extend({
  teacher_name: z.string(),
  teacher_nickname: z.string(),
  organization_name: z.string().nullable(),
})
export type Receipt = z.infer<typeof Receipt>

/** GET /v1/teachers/customers: members who reserved the teacher's classes. */
export const Customer = z.object({
  user: z.object({ id: Id, nickname: z.string(), avatar_url: z.string().nullable() }),
  reservation_count: Count,
  last_lesson_at: DateTime.nullable(),
  next_lesson_at: DateTime.nullable(),
})
export type Customer = z.infer<typeof Customer>
export const CustomerList = z.array(Customer)

/** GET /v1/organizations/me/sales?month=YYYY-MM: the owner's roll-up per member. */
export const OrganizationSales = z.object({
  month: Month,
  totals: SalesFigures,
  /** Current members first (owner, then by joining); then teachers who left, with sales of the month here. */
  by_member: z.array(SalesFigures.extend({ user_id: Id, nickname: z.string(), former_member: z.boolean() })),
})
export type OrganizationSales = z.infer<typeof OrganizationSales>
