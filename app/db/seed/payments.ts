import { sql } from 'drizzle-orm'
import type { Tx } from '../client'

/**
 * Demo reservations are paid (issue 17): each paid purchase gets its succeeded payment with the embedded provider,
 * and a cancelled one its refund, in the provider's books too — the same rows migration 0017 gives reservations
 * made before payments existed.
 */
export async function recordDemoPayments(tx: Tx): Promise<void> {
  await tx.execute(sql`
    insert into embedded_payments (ref, amount, status, description, idempotency_key, created_at, succeeded_at, card_last4)
    select 'demo_' || p.id, p.price, 'succeeded', 'demo', 'demo-payment-' || p.id, p.created_at, p.created_at, '4242'
    from purchases p where p.price > 0 and p.status in ('reserved', 'canceled_by_user', 'canceled_by_teacher')`)
  await tx.execute(sql`
    insert into payments (purchase_id, user_id, provider, provider_ref, amount, tax_amount, status, succeeded_at, created_at)
    select p.id, p.user_id, 'embedded', 'demo_' || p.id, p.price, floor(p.price * 10 / 110.0)::int, 'succeeded',
      p.created_at, p.created_at
    from purchases p where p.price > 0 and p.status in ('reserved', 'canceled_by_user', 'canceled_by_teacher')`)
  await tx.execute(sql`
    insert into embedded_refunds (idempotency_key, ref, payment_ref, amount, created_at)
    select 'demo-refund-' || p.id, 'demo_refund_' || p.id, 'demo_' || p.id, p.price, coalesce(p.canceled_at, p.created_at)
    from purchases p where p.price > 0 and p.status in ('canceled_by_user', 'canceled_by_teacher')`)
  await tx.execute(sql`
    insert into refunds (payment_id, purchase_id, amount, reason, status, provider_ref, created_at, succeeded_at)
    select pay.id, p.id, p.price,
      case when p.status = 'canceled_by_user' then 'member_cancel' else 'teacher_cancel' end,
      'succeeded', 'demo_refund_' || p.id, coalesce(p.canceled_at, p.created_at), coalesce(p.canceled_at, p.created_at)
    from purchases p join payments pay on pay.purchase_id = p.id
    where p.price > 0 and p.status in ('canceled_by_user', 'canceled_by_teacher')`)
}
