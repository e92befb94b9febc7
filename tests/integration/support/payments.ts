import { randomBytes } from 'node:crypto'
import type { Db } from '../../../app/db/client'
import { embeddedPayments, payments, purchases } from '../../../app/db/schema'
import { includedTax } from '../../../app/lib/money'

/**
 * A reserved purchase written directly (for lessons in the past or under way, which the API cannot book), paid
 * with the embedded provider as checkout would have: its payment here and in the provider's books.
 */
export async function insertPaidPurchase(
  db: Db,
  input: {
    scheduleId: number
    userId: number
    price: number
    commission?: number
    learnerId?: number | null
  },
) {
  const [p] = await db
    .insert(purchases)
    .values({
      scheduleId: input.scheduleId,
      userId: input.userId,
      learnerId: input.learnerId ?? null,
      price: input.price,
      commission: input.commission ?? Math.round(input.price * 0.2),
      status: 'reserved',
    })
    .returning({ id: purchases.id })
  if (input.price > 0) {
    const ref = `emb_pi_test_${randomBytes(8).toString('hex')}`
    await db.insert(embeddedPayments).values({
      ref,
      amount: input.price,
      status: 'succeeded',
      description: 'test',
      idempotencyKey: `test-${ref}`,
      succeededAt: new Date(),
    })
    await db.insert(payments).values({
      purchaseId: p!.id,
      userId: input.userId,
      provider: 'embedded',
      providerRef: ref,
      amount: input.price,
      taxAmount: includedTax(input.price),
      status: 'succeeded',
      succeededAt: new Date(),
    })
  }
  return p!.id
}
